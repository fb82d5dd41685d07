"""The broker goes away while a game finishes, is undone or voided: the scorer's tap answers as
usual, the league's work is written down with the game (``league.owed``), and it is delivered
when the broker is back (the beat's sweep) or by ``manage.py recompute_league``; ``check_ledger``
names a finished game whose results are neither in the league nor owed."""

from __future__ import annotations

import time
import uuid

import pytest
from django.core.management import call_command

import ledger
from league.models import GameResult, OwedAction, OwedResult
from league.owed import deliver
from league.tasks import deliver_all_owed_task
from scoring import recording
from scoring.models import GameStatus
from tests.factories import make_member
from tests.faults.conftest import closed_port


def tap(game, event_type, key=None, **payload):
    game.refresh_from_db()
    return recording.append_event(
        game,
        event_type,
        payload,
        expected_seq=game.seq,
        idempotency_key=key or uuid.uuid4().hex,
        by=None,
    )


@pytest.fixture
def kille(club):
    players = [make_member(club, name) for name in ("Anna", "Bo", "Cissi")]
    return recording.start_game(club, "kille", players, None, setup={"pot_ore": 0})


def results_of(game) -> int:
    return GameResult.objects.filter(game_ref=game.ref).count()


def owed(game) -> OwedResult | None:
    return OwedResult.objects.filter(game_ref=game.ref, delivered_at__isnull=True).first()


def test_a_game_finished_with_the_broker_away_gets_its_results_when_it_is_back(
    club, kille, broker, django_capture_on_commit_callbacks, caplog
):
    broker(f"redis://127.0.0.1:{closed_port()}/0")
    started = time.perf_counter()
    with django_capture_on_commit_callbacks(execute=True):
        tap(kille, "end_evening")  # the tap that finishes the game answers as usual
    answered_ms = (time.perf_counter() - started) * 1000
    print(f"the finishing tap answered in {answered_ms:.0f} ms with the broker away")
    kille.refresh_from_db()
    assert kille.status == GameStatus.FINISHED
    assert results_of(kille) == 0
    assert owed(kille).action == OwedAction.RECORD
    assert "could not queue league.tasks.deliver_owed_task" in caplog.text
    assert ledger.verify_books(club) == []  # owed, not lost

    broker(None)  # back (tasks run in-process: a worker's stand-in); the beat's sweep runs
    with django_capture_on_commit_callbacks(execute=True):
        assert deliver_all_owed_task.delay().get() == [1, 0]
    assert results_of(kille) == 3
    assert owed(kille) is None
    assert ledger.verify_books(club) == []


def test_what_was_delivered_is_not_delivered_again(
    club, kille, broker, django_capture_on_commit_callbacks
):
    broker(f"redis://127.0.0.1:{closed_port()}/0")
    with django_capture_on_commit_callbacks(execute=True):
        tap(kille, "end_evening")
    assert deliver(kille.ref) is True
    # A second worker (or the sweep) that comes for the same game finds nothing owed.
    assert deliver(kille.ref) is False
    assert results_of(kille) == 3
    assert ledger.verify_books(club) == []


def test_an_undo_and_a_void_with_the_broker_away_take_the_results_out_later(
    club, kille, broker, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tap(kille, "end_evening")
    assert results_of(kille) == 3
    broker(f"redis://127.0.0.1:{closed_port()}/0")
    with django_capture_on_commit_callbacks(execute=True):
        tap(kille, recording.UNDO)
    assert owed(kille).action == OwedAction.REMOVE
    assert results_of(kille) == 3  # still there, but owed away: the books' check agrees
    assert ledger.verify_books(club) == []
    with django_capture_on_commit_callbacks(execute=True):
        tap(kille, "end_evening")
        kille.refresh_from_db()
        recording.void_game(kille, "Fel bord", None)
    assert owed(kille).action == OwedAction.REMOVE

    broker(None)
    with django_capture_on_commit_callbacks(execute=True):
        deliver_all_owed_task.delay()
    assert results_of(kille) == 0
    assert ledger.verify_books(club) == []


def test_the_phones_retry_of_the_finishing_tap_records_once(
    club, kille, broker, django_capture_on_commit_callbacks
):
    broker(f"redis://127.0.0.1:{closed_port()}/0")
    for _attempt in range(2):  # the phone did not hear the answer and sends the tap again
        with django_capture_on_commit_callbacks(execute=True):
            tap(kille, "end_evening", key="the-last-tap")
    assert kille.events.count() == 1
    assert OwedResult.objects.filter(game_ref=kille.ref).count() == 1


def test_recompute_league_delivers_what_is_owed_even_with_the_broker_away(
    club, kille, broker, django_capture_on_commit_callbacks
):
    broker(f"redis://127.0.0.1:{closed_port()}/0")
    with django_capture_on_commit_callbacks(execute=True):
        tap(kille, "end_evening")
    with django_capture_on_commit_callbacks(execute=True):
        call_command("recompute_league", club=club.slug)
    assert results_of(kille) == 3
    assert owed(kille) is None


@pytest.mark.books_tampered
def test_check_ledger_names_a_finished_game_whose_results_were_lost(
    club, kille, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tap(kille, "end_evening")
    GameResult.objects.filter(game_ref=kille.ref).delete()  # what the broken broker used to do
    assert f"{kille.ref} is finished with 3 players, the league holds 0 results and owes none" in (
        ledger.verify_books(club)
    )


@pytest.mark.books_tampered
def test_check_ledger_names_a_league_result_that_differs_from_the_replay(
    club, kille, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tap(kille, "ante")
        tap(kille, "end_evening")
    assert ledger.verify_books(club) == []
    GameResult.objects.filter(game_ref=kille.ref, seat=1).update(placement=1, net_ore=5000)
    problems = ledger.verify_books(club)
    assert len(problems) == 1
    assert problems[0].startswith(f"game {kille.pk} (kille, finished): the league has seat 1 at")
