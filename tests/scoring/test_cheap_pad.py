"""A pad GET that neither replays the game nor renders its history again (issue 27 §2): the
state restored from the game's snapshot when the replay cache misses, the history rows kept per
event (``scoring.pad_history``) — and the page the same as a full replay draws, for every game
of the demo; the same number of queries for a long game as for a short one."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from club.demo import DEMO_USERNAME
from club.models import User
from engine import registry
from engine.snapshots import SnapshotMismatch, restore
from scoring import pad_history, recording
from scoring.models import Game
from scoring.recording import replay
from tests.demo import demo_club
from tests.scoring.pad import HTMX, HTMX_IN_ENGLISH, pad_url
from tests.scoring.test_pad_history import record, scores

# What differs between two renders of the same pad by design: the CSRF token (masked anew for
# every response) and the page's idempotency keys (one per render, so two phones never share one).
_PER_RENDER = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1…"),
    (re.compile(r'("X-CSRFToken": ")[^"]+'), r"\1…"),
    (re.compile(r'(name="idempotency_key" value=")[0-9a-f]{32}'), r"\1…"),
]


def same_for_every_render(html: str) -> str:
    for pattern, replacement in _PER_RENDER:
        html = pattern.sub(replacement, html)
    return html


def forget_everything() -> None:
    """A cold process: no replayed states, no rendered rows."""
    replay._STATE_CACHE.clear()
    pad_history._ROWS.clear()


@pytest.fixture
def demo_client(db, django_capture_on_commit_callbacks):
    club = demo_club()
    client = Client()
    client.force_login(User.objects.get(username=DEMO_USERNAME))
    return club, client


def test_every_demo_pad_drawn_the_cheap_way_is_the_pad_a_full_replay_draws(
    demo_client, monkeypatch
):
    club, client = demo_client
    games = list(Game.objects.filter(club=club).order_by("pk"))
    assert {game.game_key for game in games} >= {info.key for info in registry.all_games()}
    restored = []
    real_restore = replay._restored
    for game in games:
        forget_everything()
        monkeypatch.setattr(replay, "_restored", lambda game: None)
        replayed_state = recording.current_state(game)
        full = client.get(pad_url(game))
        monkeypatch.setattr(replay, "_restored", real_restore)
        replay._STATE_CACHE.clear()  # a cold cache: the state comes from the snapshot
        restored.append(replay._restored(game))
        cheap = client.get(pad_url(game))
        assert full.status_code == cheap.status_code == 200
        assert same_for_every_render(cheap.content.decode()) == same_for_every_render(
            full.content.decode()
        ), game
        assert restored[-1] == replayed_state, game
    # Every game's state came back from its snapshot (none fell back to a replay).
    assert all(result is not None for result in restored)


@pytest.fixture
def game(toy, club, scorer, member):
    return recording.start_game(club, "toy", [scorer, member], scorer.user)


def test_the_pad_after_an_undo_is_the_pad_a_full_replay_draws(scorer_client, game):
    scores(game, 25)
    scorer_client.get(pad_url(game))  # the rows of events 6 … 25 are kept
    record(game, recording.UNDO)
    cheap = scorer_client.get(pad_url(game)).content.decode()
    forget_everything()
    full = scorer_client.get(pad_url(game)).content.decode()
    assert same_for_every_render(cheap) == same_for_every_render(full)
    assert 'class="history-row undo" data-seq="26"' in cheap
    assert "Sune Skrivare +24" in cheap.split('data-testid="undo"')[1].split("</button>")[0]


def test_a_cold_process_restores_the_state_from_the_snapshot_and_replays_nothing(game, monkeypatch):
    scores(game, 4)
    expected = recording.current_state(game)
    replay._STATE_CACHE.clear()

    def no_replay(*args):
        raise AssertionError("replayed the whole game")

    monkeypatch.setattr(replay, "_replay_with_nets", no_replay)
    assert recording.current_state(game) == expected
    monkeypatch.undo()  # the end-of-test check of the books replays games


def test_a_snapshot_made_by_another_engine_is_replayed_not_restored(game):
    scores(game, 3)
    snapshot = dict(game.snapshot, **{replay.RESTORE: {**game.snapshot[replay.RESTORE]}})
    snapshot[replay.RESTORE]["engine"] = "another"
    Game.objects.filter(pk=game.pk).update(snapshot=snapshot)
    assert replay._restored(game) is None
    replay._STATE_CACHE.clear()
    assert recording.current_state(game) == replay._replay_with_nets(
        game, list(game.events.order_by("seq"))
    )


def test_a_snapshot_of_another_shape_is_not_a_state(game):
    scores(game, 2)
    state_class = type(recording.current_state(game)[0])
    data = json.loads(game.snapshot[replay.RESTORE]["state"])
    del data["nets"]
    log = data.pop("log")
    assert restore(state_class, data, log) == recording.current_state(game)[0]
    with pytest.raises(SnapshotMismatch):
        restore(state_class, {**data, "a_field_from_elsewhere": 1}, log)
    with pytest.raises(SnapshotMismatch):
        restore(state_class, {k: v for k, v in data.items() if k != "players"}, log)


def test_a_snapshot_of_an_older_seq_is_not_restored(game):
    """Seq and snapshot are written together; a pad that read seq N never gets the state of
    another seq from the snapshot (a phone recorded meanwhile: the row no longer has seq N)."""
    scores(game, 2)
    stale = Game.objects.get(pk=game.pk)
    scores(game, 1, start=3)
    assert replay._restored(stale) is None


def test_the_pad_reads_as_many_rows_for_100_events_as_for_10(scorer_client, scorer, game):
    counts = {}
    for total in (10, 100):
        scores(game, total - game.seq, start=game.seq + 1, by=scorer.user)
        scorer_client.get(pad_url(game))  # the session warms
        for cold in (True, False):
            for headers in ({}, HTMX):
                if cold:
                    forget_everything()
                with CaptureQueriesContext(connection) as queries:
                    scorer_client.get(pad_url(game), **headers)
                counts[total, cold, bool(headers)] = len(queries)
    for cold in (True, False):
        for htmx in (True, False):
            assert counts[10, cold, htmx] == counts[100, cold, htmx], counts
    # Kept rows: a pad at a seq this process has drawn reads no events at all.
    assert counts[100, False, False] < counts[100, True, False]


def history_row(html: str, seq: int) -> str:
    return re.search(rf'data-seq="{seq}">(.*?)</li>', html, re.DOTALL)[1]


def test_kept_rows_follow_the_readers_language_and_the_players_names(scorer_client, game, member):
    record(game, "stake", {"player": "s1", "amount": 250})
    swedish = history_row(scorer_client.get(pad_url(game), **HTMX).content.decode(), 1)
    english = history_row(scorer_client.get(pad_url(game), **HTMX_IN_ENGLISH).content.decode(), 1)
    assert "2,50" in swedish
    assert "2.50" in english
    member.name = "Maja Nyman"
    member.save()
    renamed = history_row(scorer_client.get(pad_url(game), **HTMX).content.decode(), 1)
    assert "Maja Nyman" in renamed
    assert "Maja Medlem" not in renamed
