"""The pad's history and the state it is drawn from: the latest lines on the pad and every line
one tap away; what Undo takes back when the pad shows only undos; a process that is a few
events behind catches up instead of replaying the game; the pad reads a fixed number of rows."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import recording, views
from scoring.recording import replay
from tests.scoring.pad import HTMX, pad_url


@pytest.fixture
def game(toy, club, scorer, member):
    return recording.start_game(club, "toy", [scorer, member], scorer.user)


def record(game, type_, payload=None, by=None):
    game.refresh_from_db()
    result = recording.append_event(
        game,
        type_,
        payload or {},
        expected_seq=game.seq,
        idempotency_key=f"k{game.seq + 1}",
        by=by,
    )
    game.refresh_from_db()
    return result


def scores(game, count, start=1, by=None):
    """``count`` score events, the n-th worth n points (so each line reads differently)."""
    for points in range(start, start + count):
        record(game, "score", {"player": "s0", "points": points}, by=by)


def history_seqs(html: str) -> list[int]:
    return [int(seq) for seq in re.findall(r'class="history-row[^"]*" data-seq="(\d+)"', html)]


def test_the_pad_lists_the_latest_lines_and_links_to_all(scorer_client, game):
    scores(game, views.PAD_HISTORY + 5)
    html = scorer_client.get(pad_url(game)).content.decode()
    total = views.PAD_HISTORY + 5
    assert history_seqs(html) == list(range(total, 5, -1))  # the newest 20, newest first
    assert "?history=all#history" in html
    assert f"Alla {total} händelser" in html

    everything = scorer_client.get(pad_url(game), {"history": "all"}).content.decode()
    assert history_seqs(everything) == list(range(total, 0, -1))
    assert 'data-testid="history-all"' not in everything
    # The open history stays whole when another phone's event brings a fresh pad.
    assert "history=all" in re.search(r'hx-get="([^"]*)"', everything)[1]


def test_a_short_game_shows_every_line_and_no_link(scorer_client, game):
    scores(game, 3)
    html = scorer_client.get(pad_url(game), **HTMX).content.decode()
    assert history_seqs(html) == [3, 2, 1]
    assert 'data-testid="history-all"' not in html


def test_undo_names_the_event_it_takes_back_when_the_pad_shows_only_undos(scorer_client, game):
    # 30 events, then more undos than the pad shows: the last one that counts is event 8.
    scores(game, 30)
    for _ in range(views.PAD_HISTORY + 2):
        record(game, recording.UNDO)
    html = scorer_client.get(pad_url(game)).content.decode()
    assert set(history_seqs(html)) <= set(range(31, game.seq + 1))  # undos only
    assert "Sune Skrivare +8" in html.split('data-testid="undo"')[1].split("</button>")[0]


def test_the_pad_reads_as_many_rows_for_a_long_game_as_for_a_short_one(scorer_client, scorer, game):
    scores(game, 2, by=scorer.user)
    scorer_client.get(pad_url(game))  # the session and the caches warm
    with CaptureQueriesContext(connection) as short:
        scorer_client.get(pad_url(game), **HTMX)
    scores(game, 60, start=3, by=scorer.user)
    scorer_client.get(pad_url(game))
    with CaptureQueriesContext(connection) as long:
        scorer_client.get(pad_url(game), **HTMX)
    assert len(long) == len(short)


def forget_from(game, seq: int) -> None:
    """Drop this process's cached states of the game from ``seq`` on: as if another process
    had recorded those events."""
    for key in [k for k in replay._STATE_CACHE if k[0] == game.pk and k[2] >= seq]:
        del replay._STATE_CACHE[key]


def replayed(game):
    return replay._replay_with_nets(game, list(game.events.order_by("seq")))


def test_a_process_a_few_events_behind_applies_only_those(game, monkeypatch):
    record(game, "stake", {"player": "s0", "amount": 200})
    scores(game, 5)
    record(game, "stake", {"player": "s1", "amount": 300})
    forget_from(game, 3)
    expected = replayed(game)

    def no_replay(*args):
        raise AssertionError("replayed the whole game")

    monkeypatch.setattr(replay, "_replay_with_nets", no_replay)
    state, nets = recording.current_state(game)
    assert (state, nets) == expected
    assert nets == {"s0": -200, "s1": -300, "pot": 500}
    monkeypatch.undo()  # the end-of-test check of the books replays games


def test_an_undo_among_the_missed_events_means_a_replay(game):
    record(game, "stake", {"player": "s0", "amount": 200})
    record(game, "stake", {"player": "s1", "amount": 300})
    record(game, recording.UNDO)
    forget_from(game, 2)
    state, nets = recording.current_state(game)
    assert (state, nets) == replayed(game)
    assert state.pot_ore == 200


def test_a_cold_process_replays_the_game(game):
    scores(game, 4)
    forget_from(game, 0)
    assert recording.current_state(game) == replayed(game)


@pytest.mark.books_tampered
def test_a_table_games_pad_compares_its_pot_with_the_tables_pot_account(
    club, scorer, scorer_client
):
    """At a club evening the game plays from its table's pot (``pot:kille:1``), not the
    club's: the pad says "the club's pot account holds …" only when that account differs."""
    import evenings  # noqa: PLC0415
    import ledger  # noqa: PLC0415
    from ledger.models import AccountKind, Source  # noqa: PLC0415
    from scoring import games  # noqa: PLC0415
    from tests.factories import make_member  # noqa: PLC0415

    people = [scorer, make_member(club, "Bo Ek"), make_member(club, "Cilla Ros")]
    evening = evenings.open_evening(club, None, games=["kille"])
    here = [evenings.check_in(evening, None, member=m) for m in people]
    (table,) = evenings.form_tables(evening, "kille", [here], None)
    setup = games.start_setup(club, "kille", table=table.number)
    game = recording.start_game(club, "kille", people, scorer.user, setup=setup, table=table)
    record(game, "ante")
    # Money in the club's own Kille pot (from before the evening) is no business of this pad.
    cash = ledger.system_account(club, AccountKind.CASH)
    club_pot = ledger.game_pot(club, "kille")
    ledger.post(club, [(cash, -5000), (club_pot, 5000)], "Pott", Source.MANUAL, None)
    html = scorer_client.get(pad_url(game)).content.decode()
    assert ledger.game_pot(club, "kille", table=table.number).balance_ore == 600
    assert "50,00" not in html
