"""Games recorded before the engines knew the cards (issue 25): the data migration
``scoring.0011_legacy_facts`` marks a stored game that no longer replays under an engine's new
checks, but does without them, with ``setup["legacy_facts"]``; it then replays as recorded and
``check_ledger`` names it as a note, not a failure. Games that replay are left alone.

The toy game stands in for an engine that learned a new check: a score above 9 points is now
refused, unless the game is ``legacy_facts``."""

from __future__ import annotations

import dataclasses
import importlib
from io import StringIO

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command

from engine.errors import IllegalEvent
from scoring import recording
from scoring.audit import legacy_fact_notices
from scoring.models import Game
from scoring.recording import replay
from tests.scoring import toy_game

pytestmark = pytest.mark.django_db

migration = importlib.import_module("scoring.migrations.0011_legacy_facts")


@dataclasses.dataclass(frozen=True)
class StrictState(toy_game.State):
    legacy_facts: bool = False


ORIGINAL_APPLY = toy_game.apply


def strict_new_game(players, rules=None, pot_ore: int = 0, legacy_facts=False):
    zeros = tuple(0 for _ in players)
    rules = rules or toy_game.Rules()
    return StrictState(tuple(players), rules, pot_ore, zeros, legacy_facts=legacy_facts)


def strict_apply(state, event):
    """The toy's apply (its ``replace`` keeps the flag), with the new check first."""
    if event["type"] == "score" and int(event["points"]) > 9 and not state.legacy_facts:
        raise IllegalEvent("no hand scores more than 9")
    return ORIGINAL_APPLY(state, event)


def score(game, points: int, key: str) -> None:
    game.refresh_from_db()
    payload = {"player": "s0", "points": points}
    recording.append_event(
        game, "score", payload, expected_seq=game.seq, idempotency_key=key, by=None
    )


@pytest.fixture
def recorded(toy, club, scorer, member):
    """Two toy games recorded under the old engine: one scored 12 (now refused), one 5."""
    old = recording.start_game(club, "toy", [scorer, member], scorer.user)
    fine = recording.start_game(club, "toy", [scorer, member], scorer.user)
    score(old, 12, "a")
    score(fine, 5, "b")
    return old, fine


def test_a_game_holding_a_refused_fact_is_marked_and_named(recorded, club, monkeypatch):
    old, fine = recorded
    monkeypatch.setattr(toy_game, "new_game", strict_new_game)
    monkeypatch.setattr(toy_game, "apply", strict_apply)
    migration.mark_games_with_refused_facts(django_apps, None)
    old.refresh_from_db()
    fine.refresh_from_db()
    assert old.setup == {"legacy_facts": True}
    assert "legacy_facts" not in fine.setup
    # It replays as recorded, and the books' check names it without failing.
    state, _nets = replay._replay_with_nets(old, list(old.events.all()))
    assert state.scores[0] == 12
    notes = legacy_fact_notices(club)
    assert len(notes) == 1
    assert notes[0].startswith(f"game {old.pk} (toy, ")
    out = StringIO()
    call_command("check_ledger", club=club.slug, stdout=out, stderr=StringIO())
    assert f"note: game {old.pk} (toy" in out.getvalue()


def test_an_engine_without_the_keyword_is_left_alone(recorded):
    migration.mark_games_with_refused_facts(django_apps, None)
    assert not Game.objects.filter(setup__has_key="legacy_facts").exists()
