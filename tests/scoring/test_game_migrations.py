"""The data migrations that let games recorded before issue 14 replay: their events stay as
they were stored; the migration marks the game's setup (Kille: ``implied_stays``, Femhundra:
``legacy_deals``), and the replay then takes the old form while new games must not."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps

from engine.errors import EngineError
from scoring import recording
from scoring.models import Event, Game
from scoring.recording import replay
from tests.factories import make_table

# The books' end-of-test check: old-format rows are written straight to the database.
# Also on SQLite (tests/conftest.py): the migrations.
pytestmark = [pytest.mark.sqlite, pytest.mark.books_tampered]


def _store_as_before(game: Game, events: list[dict]) -> None:
    """Events as an older version stored them (not through today's engine)."""
    for seq, event in enumerate(events, start=1):
        payload = {k: v for k, v in event.items() if k != "type"}
        Event.objects.create(
            game=game, seq=seq, type=event["type"], payload=payload, idempotency_key=f"old-{seq}"
        )
    # An older version's snapshot held no record to restore the state from (replay.RESTORE).
    old_snapshot = {k: v for k, v in game.snapshot.items() if k != replay.RESTORE}
    Game.objects.filter(pk=game.pk).update(seq=len(events), snapshot=old_snapshot)
    game.refresh_from_db()
    replay._STATE_CACHE.clear()


def _migrate(name: str) -> None:
    import_module(f"scoring.migrations.{name}").__dict__[_FUNCTIONS[name]](apps, None)


_FUNCTIONS = {
    "0004_kille_implied_stays": "mark_old_kille_games",
    "0005_femhundra_legacy_deals": "mark_old_femhundra_games",
}

OLD_KILLE = [  # only the fold was tapped; s2 and s0 stayed by being skipped
    {"type": "ante"},
    {"type": "knock", "player": "s1"},
    {"type": "fold", "player": "s3"},
    {"type": "knock", "player": "s1"},
]
OLD_FEMHUNDRA = [
    {"type": "deal", "declarer": "s0", "contract": "8H", "tricks": {"s0": 8, "s1": 1, "s2": 1}}
]


@pytest.mark.parametrize(
    ("key", "count", "events", "migration"),
    [
        ("kille", 4, OLD_KILLE, "0004_kille_implied_stays"),
        ("femhundra", 3, OLD_FEMHUNDRA, "0005_femhundra_legacy_deals"),
    ],
)
def test_a_game_stored_before_the_rule_replays_once_marked(
    club, scorer, key, count, events, migration
):
    game = recording.start_game(club, key, make_table(club, scorer, count), scorer.user)
    _store_as_before(game, events)
    with pytest.raises(EngineError):
        recording.current_state(game)  # today's rules refuse the old stream …
    _migrate(migration)
    game.refresh_from_db()
    replay._STATE_CACHE.clear()
    state, _nets = recording.current_state(game)  # … the marked game replays it
    assert len(state.log) or state.sheet
    assert Event.objects.filter(game=game).count() == len(events)  # nothing rewritten


def test_the_migrations_leave_other_games_alone(club, scorer):
    game = recording.start_game(club, "cribbage", make_table(club, scorer, 2), scorer.user)
    before = dict(game.setup)
    for name in _FUNCTIONS:
        _migrate(name)
    game.refresh_from_db()
    assert game.setup == before
