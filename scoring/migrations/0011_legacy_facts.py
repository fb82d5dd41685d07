"""Games recorded before the engines knew the cards (issue 25) may hold a fact an engine now
refuses (a card twice in one deal, a count no deck allows). Their events stay as they were; a
game that no longer replays under the new checks, but replays as recorded without them, gets
``setup["legacy_facts"] = True``, which ``new_game`` receives as a keyword: it replays as it was
recorded, and ``check_ledger`` names it (``scoring.audit.legacy_fact_notices``). New games
follow the rules.

The replay here is the engine's own (pure Python), not ``scoring.recording``'s, so that this
migration does not change when the app does."""

import inspect

from django.db import migrations

UNDO = "undo"


def _replays(module, game, seats, events, **extra) -> bool:
    try:
        rules = module.Rules(**game.rules)
        state = module.new_game(seats, rules, **{**game.setup, **extra})
        undone = {e.payload.get("undoes") for e in events if e.type == UNDO}
        for event in events:
            if event.type != UNDO and event.seq not in undone:
                state = module.apply(state, {**event.payload, "type": event.type})
    except (ValueError, TypeError, KeyError):  # EngineError is a ValueError
        return False
    return True


def mark_games_with_refused_facts(apps, schema_editor):
    from engine import registry  # noqa: PLC0415 - the engine is pure Python

    Game = apps.get_model("scoring", "Game")
    for game in Game.objects.exclude(setup__has_key="legacy_facts").iterator():
        try:
            module = registry.get(game.game_key).module
        except KeyError:
            continue
        if "legacy_facts" not in inspect.signature(module.new_game).parameters:
            continue
        seats = [f"s{p}" for p in game.seats.order_by("position").values_list("position", flat=True)]
        events = list(game.events.filter(seq__lte=game.seq).order_by("seq"))
        if _replays(module, game, seats, events):
            continue
        if _replays(module, game, seats, events, legacy_facts=True):
            game.setup = {**game.setup, "legacy_facts": True}
            game.save(update_fields=["setup"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0010_guests_at_evenings")]
    operations = [migrations.RunPython(mark_games_with_refused_facts, migrations.RunPython.noop)]
