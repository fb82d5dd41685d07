"""Events recorded before the lines were kept get them from a replay of their game (issue 15):
each event's lines are what the engine logs when it applies that event now, so the history of
old games reads in the reader's language too. Undo events take the lines of what they undid. A
game whose replay the engine refuses keeps its stored text (rendered as it is)."""

from django.db import migrations

from engine import registry
from engine.errors import EngineError
from scoring.messages import lines_of

UNDO = "undo"


def _rules(module, stored: dict):
    return module.Rules(**stored)


def _engine_event(event) -> dict:
    return {**event.payload, "type": event.type}


def _applied(module, state, event):
    """The state after the event, or None if the engine refuses it here (an undone event whose
    base was itself undone later: its stored text stands)."""
    try:
        return module.apply(state, _engine_event(event))
    except EngineError:
        return None


def fill_lines(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    Event = apps.get_model("scoring", "Event")
    for game in Game.objects.order_by("pk").iterator():
        try:
            module = registry.get(game.game_key).module
        except KeyError:
            continue
        events = list(Event.objects.filter(game=game).order_by("seq"))
        if not events or all(event.lines for event in events):
            continue
        players = list(game.seats.order_by("position").values_list("position", flat=True))
        undone = {e.payload.get("undoes") for e in events if e.type == UNDO}
        try:
            state = module.new_game(
                [f"s{p}" for p in players], _rules(module, game.rules), **game.setup
            )
            lines: dict[int, list] = {}
            for event in events:
                if event.type == UNDO:
                    continue
                applied = _applied(module, state, event)
                lines[event.seq] = lines_of(applied) if applied else [{"s": event.summary}]
                if event.seq not in undone:
                    state = applied if applied else module.apply(state, _engine_event(event))
        except (EngineError, TypeError, ValueError):
            continue
        for event in events:
            if event.lines:
                continue
            if event.type == UNDO:
                target = lines.get(event.payload.get("undoes")) or [{"s": event.summary}]
                event.lines = [{"t": "Undid: {what}", "p": {"what": {"lines": target}}}]
            else:
                event.lines = lines.get(event.seq, [])
            event.save(update_fields=["lines"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_event_lines")]
    operations = [migrations.RunPython(fill_lines, migrations.RunPython.noop)]
