"""``scoring.audit``: ``manage.py check_ledger`` also finds where the books and the games
disagree. Most tests play the toy game; one plays the demo club's three evenings."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club import ledger
from club.models import Account, Entry, Source
from scoring import audit, recording
from scoring.models import Event, Game, GameStatus
from tests.scoring.test_demo import load


@pytest.fixture
def game(toy, club, scorer, member):
    return recording.start_game(club, "toy", [scorer, member, "Gästen Gunnar"], scorer.user)


def append(game, type_, payload, key):
    game.refresh_from_db()
    return recording.append_event(
        game, type_, payload, expected_seq=game.seq, idempotency_key=key, by=None
    )


def check_ledger(club) -> tuple[bool, str]:
    """Whether ``manage.py check_ledger`` passes for the club, and what it said."""
    out, err = StringIO(), StringIO()
    try:
        call_command("check_ledger", club=club.slug, stdout=out, stderr=err)
    except CommandError:
        return False, err.getvalue()
    return True, out.getvalue()


def pot(club) -> Account:
    return Account.objects.get(club=club, key="pot:toy")


def test_the_books_agree_with_games_played_undone_and_voided(game, toy, club, scorer, member):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    append(game, "stake", {"player": "s2", "amount": 300}, "b")  # the guest, through the box
    append(game, "stake", {"player": "s1", "amount": 50}, "c")
    append(game, "undo", {}, "d")
    append(game, "win", {"player": "s1"}, "e")
    voided = recording.start_game(club, "toy", [scorer, member], scorer.user)
    append(voided, "stake", {"player": "s1", "amount": 400}, "f")
    recording.void_game(voided, "Fel bord", None)
    still_open = recording.start_game(club, "toy", [member, scorer], scorer.user)
    append(still_open, "stake", {"player": "s0", "amount": 100}, "g")

    assert audit.check_game_money(club) == []
    ok, said = check_ledger(club)
    assert ok, said
    assert pot(club).balance_ore == 100


def test_it_names_the_pot_when_money_lands_there_outside_any_game(game, club):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    cash = ledger.system_account(club, "cash")
    ledger.post(club, ledger.legs_for_transfer(cash, pot(club), 150), "Strö", Source.MANUAL, None)

    ok, said = check_ledger(club)
    assert not ok
    assert f"{club.slug}: pot:toy: the games left 200 öre there, its balance is 350 öre" in said


def test_it_names_the_game_whose_posting_was_edited(game, club, scorer):
    event = append(game, "stake", {"player": "s0", "amount": 200}, "a").event
    # Both legs, so the transaction still balances: only the games can tell it is wrong.
    Entry.objects.filter(transaction=event.money, amount_ore=200).update(amount_ore=300)
    Entry.objects.filter(transaction=event.money, amount_ore=-200).update(amount_ore=-300)

    ok, said = check_ledger(club)
    assert not ok
    label = f"{club.slug}: game {game.pk} (toy, open)"
    assert f"{label}: pot:toy should hold 200 öre from it, the ledger holds 300 öre" in said
    member_key = f"member:{scorer.pk}"
    assert f"{label}: {member_key} should hold -200 öre from it, the ledger holds -300 öre" in said


def test_it_catches_game_money_reversed_behind_the_games_back(game, club):
    # What a treasurer could do before the books refused it: the money went back, the game
    # (and the next evening's pot) still counted it.
    event = append(game, "stake", {"player": "s1", "amount": 200}, "a").event
    ledger.reverse(event.money, "Återförd i kassan", None, game_recording=True)

    ok, said = check_ledger(club)
    assert not ok
    assert f"game {game.pk} (toy, open): pot:toy should hold 200 öre from it" in said
    assert "pot:toy: the games left 200 öre there, its balance is 0 öre" in said


def test_a_voided_game_must_net_zero(game, club):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    recording.void_game(game, "Fel bord", None)
    assert check_ledger(club)[0]
    ref = f"game:{game.pk}:event:9"
    cash = ledger.system_account(club, "cash")
    ledger.post(
        club, ledger.legs_for_transfer(cash, pot(club), 70), "x", Source.GAME, None, ref=ref
    )

    ok, said = check_ledger(club)
    assert not ok
    assert f"game {game.pk} (toy, voided): pot:toy should hold 0 öre from it, " in said
    assert f"game {game.pk} (toy, voided): cash should hold 0 öre from it, " in said


def test_it_names_money_posted_for_a_game_the_club_does_not_have(game, club):
    cash = ledger.system_account(club, "cash")
    ref = "game:999999:event:1"
    legs = ledger.legs_for_transfer(
        cash, ledger.member_account(game.seats.get(position=1).member), 50
    )
    ledger.post(club, legs, "x", Source.GAME, None, ref=ref)

    ok, said = check_ledger(club)
    assert not ok
    assert "game 999999 (no such game here): cash should hold 0 öre from it, " in said


def test_it_reports_a_game_whose_events_no_longer_replay(game, club):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    Event.objects.filter(game=game).update(payload={"player": "s9", "amount": 200})

    problems = audit.check_game_money(club)
    assert problems == [f"game {game.pk} (toy, open): its events no longer replay (no player 's9')"]


def test_it_reads_the_books_in_the_same_few_queries_however_many_games(game, toy, club, member):
    append(game, "stake", {"player": "s0", "amount": 200}, "a")
    with CaptureQueriesContext(connection) as one_game:
        assert audit.check_game_money(club) == []
    for n in range(4):
        more = recording.start_game(club, "toy", [member, "Gäst"], None)
        append(more, "stake", {"player": "s1", "amount": 10 + n}, f"m{n}")
        append(more, "stake", {"player": "s0", "amount": 10 + n}, f"n{n}")
    with CaptureQueriesContext(connection) as five_games:
        assert audit.check_game_money(club) == []
    assert len(five_games) == len(one_game) <= 5


def test_check_ledger_passes_on_the_demo_club_and_after_an_undo_and_a_void(
    db, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        club = load()
    ok, said = check_ledger(club)
    assert ok, said

    # A treasurer cannot take back a Polskt pass evening's money from the books…
    last = Game.objects.filter(club=club, game_key="polskt_pass").latest("started_at")
    money = last.events.filter(money__isnull=False).last().money
    with pytest.raises(ledger.LedgerError):
        ledger.reverse(money, "Fel", None)
    # …the game can: an undo there, and voiding a cribbage game, keep the books in step.
    last.refresh_from_db()
    recording.undo_last(last, expected_seq=last.seq, idempotency_key="audit-undo", by=None)
    cribbage = Game.objects.filter(club=club, game_key="cribbage").earliest("started_at")
    with django_capture_on_commit_callbacks(execute=True):
        recording.void_game(cribbage, "Fel spelare", None)
    assert Game.objects.get(pk=cribbage.pk).status == GameStatus.VOIDED
    ok, said = check_ledger(club)
    assert ok, said

    # A stray payment into a betar account shows, named, with both amounts.
    bet = Account.objects.filter(club=club, key__startswith="bet:polskt_pass:").first()
    cash = ledger.system_account(club, "cash")
    ledger.post(club, ledger.legs_for_transfer(cash, bet, 500), "Strö", Source.MANUAL, None)
    ok, said = check_ledger(club)
    assert not ok
    assert (
        f"{bet.key}: the games left {bet.balance_ore} öre there, "
        f"its balance is {bet.balance_ore + 500} öre"
    ) in said
