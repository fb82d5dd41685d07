from __future__ import annotations

from collections import OrderedDict
from unittest import mock

import pytest
from django.db import transaction

import ledger
from league.models import GameResult
from ledger.models import Account, Transaction
from scoring import recording
from scoring.models import Event, Game, GameStatus
from scoring.recording import EventRefused, StaleGame, replay
from tests.concurrency import at_once, postgres_only
from tests.factories import make_club, make_member

# Also on SQLite (tests/conftest.py): one transaction per tap: the lock, the seq, JSON payloads.
pytestmark = pytest.mark.sqlite


@pytest.fixture
def game(toy, club, scorer, member):
    return recording.start_game(club, "toy", [scorer, member, "Gästen Gunnar"], scorer.user)


def append(game, type_, payload, seq, key, by=None):
    game.refresh_from_db()
    return recording.append_event(
        game, type_, payload, expected_seq=seq, idempotency_key=key, by=by
    )


def pot(club):
    return Account.objects.get(club=club, key="pot:toy")


def test_an_event_is_stored_with_its_money_and_snapshot(game, club, scorer):
    result = append(game, "stake", {"player": "s0", "amount": 200}, 0, "k1", scorer.user)
    game.refresh_from_db()
    assert game.seq == 1
    assert game.snapshot["pot_ore"] == 200
    assert game.snapshot["nets"] == {"s0": -200, "pot": 200}
    assert result.event.summary == "s0 stakes 2 kr"
    assert ledger.balance(ledger.member_account(scorer)) == -200
    assert pot(club).balance_ore == 200
    assert result.event.money.ref == f"game:{game.pk}:event:1"


def test_a_double_tapped_submit_records_once(game, club):
    first = append(game, "stake", {"player": "s0", "amount": 200}, 0, "same-key")
    again = append(game, "stake", {"player": "s0", "amount": 200}, 0, "same-key")
    assert again.duplicate
    assert again.event.pk == first.event.pk
    assert Event.objects.filter(game=game).count() == 1
    assert pot(club).balance_ore == 200


def test_a_rolled_back_tap_leaves_no_state_in_the_cache_for_another_process_s_tap(
    game, django_capture_on_commit_callbacks
):
    """The state of a tap is cached only once its transaction commits: a tap rolled back after
    its event was applied must not leave its state under the seq that another process's tap
    then takes (each worker has a cache of its own)."""
    with django_capture_on_commit_callbacks(execute=True):
        append(game, "stake", {"player": "s0", "amount": 200}, 0, "a")

    def a_tap_whose_request_fails_after_the_event():
        with transaction.atomic():
            append(game, "stake", {"player": "s1", "amount": 900}, 1, "rolled-back")
            raise RuntimeError("the request failed after the event was applied")

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        a_tap_whose_request_fails_after_the_event()
    another_worker = mock.patch.object(replay, "_STATE_CACHE", OrderedDict())
    with another_worker, django_capture_on_commit_callbacks(execute=True):
        append(game, "stake", {"player": "s2", "amount": 300}, 1, "b")
    game.refresh_from_db()
    state, nets = replay.current_state(game)  # this worker again
    assert nets == {"s0": -200, "s2": -300, "pot": 500}
    assert state.pot_ore == 500


def test_a_stale_seq_is_refused_with_what_was_missed(game):
    append(game, "stake", {"player": "s0", "amount": 200}, 0, "a")
    append(game, "stake", {"player": "s1", "amount": 300}, 1, "b")
    with pytest.raises(StaleGame) as excinfo:
        append(game, "stake", {"player": "s2", "amount": 100}, 1, "c")
    assert excinfo.value.current_seq == 2
    assert [e.seq for e in excinfo.value.missed] == [2]
    assert Event.objects.filter(game=game).count() == 2


def test_an_illegal_event_stores_nothing(game, club):
    with pytest.raises(EventRefused, match="not allowed"):
        append(game, "stake", {"player": "s0", "amount": -5}, 0, "bad")
    with pytest.raises(EventRefused, match="no player"):
        append(game, "stake", {"player": "s9", "amount": 5}, 0, "bad2")
    game.refresh_from_db()
    assert game.seq == 0
    assert not Event.objects.exists()
    assert not Transaction.objects.exists()


def test_undo_cancels_the_last_event_and_reverses_its_money(game, club, scorer):
    append(game, "stake", {"player": "s0", "amount": 200}, 0, "a")
    append(game, "stake", {"player": "s1", "amount": 300}, 1, "b")
    result = append(game, "undo", {}, 2, "u1")
    game.refresh_from_db()
    assert result.event.payload == {"undoes": 2}
    assert game.snapshot["pot_ore"] == 200
    assert pot(club).balance_ore == 200
    assert ledger.balance(ledger.member_account(scorer)) == -200
    # A second undo cancels the one before; the history keeps everything.
    append(game, "undo", {}, 3, "u2")
    game.refresh_from_db()
    assert game.snapshot["pot_ore"] == 0
    assert pot(club).balance_ore == 0
    assert [e.type for e in game.events.order_by("seq")] == ["stake", "stake", "undo", "undo"]
    with pytest.raises(EventRefused) as excinfo:
        append(game, "undo", {}, 4, "u3")
    assert excinfo.value.code == "nothing"


def test_only_the_game_takes_back_its_money_and_its_undo_and_void_still_do(
    game, club, scorer, admin_member
):
    stake = append(game, "stake", {"player": "s0", "amount": 200}, 0, "a").event
    with pytest.raises(ledger.LedgerError) as excinfo:
        ledger.reverse(stake.money, "Fel", admin_member.user)
    assert excinfo.value.code == "game_money"
    assert not Transaction.objects.filter(reverses=stake.money).exists()
    assert pot(club).balance_ore == 200

    append(game, "undo", {}, 1, "u")
    assert Transaction.objects.get(reverses=stake.money).ref == stake.money.ref
    assert pot(club).balance_ore == 0
    again = append(game, "stake", {"player": "s1", "amount": 300}, 2, "b").event
    recording.void_game(game, "Fel bord", admin_member.user)
    assert Transaction.objects.get(reverses=again.money).ref == again.money.ref
    assert set(Account.objects.filter(club=club).values_list("balance_ore", flat=True)) == {0}


def test_a_finished_game_records_its_result_after_commit(
    game, club, scorer, member, django_capture_on_commit_callbacks
):
    append(game, "stake", {"player": "s0", "amount": 200}, 0, "a")
    append(game, "stake", {"player": "s2", "amount": 300}, 1, "b")
    with django_capture_on_commit_callbacks(execute=True):
        append(game, "win", {"player": "s1"}, 2, "c")
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    rows = {r.seat: r for r in GameResult.objects.filter(game_ref=game.ref)}
    assert rows[1].member == member
    assert rows[1].placement == 1
    assert rows[1].net_ore == 500
    assert rows[0].net_ore == -200
    assert rows[2].guest_name == "Gästen Gunnar"
    # The guest's stake came through the club's cash box.
    assert ledger.balance(ledger.system_account(club, "cash")) == -300
    with pytest.raises(EventRefused):
        append(game, "stake", {"player": "s0", "amount": 1}, 3, "d")


def test_undoing_the_finish_reopens_the_game_and_forgets_the_result(
    game, club, django_capture_on_commit_callbacks
):
    append(game, "stake", {"player": "s0", "amount": 200}, 0, "a")
    with django_capture_on_commit_callbacks(execute=True):
        append(game, "win", {"player": "s1"}, 1, "b")
    with django_capture_on_commit_callbacks(execute=True):
        append(game, "undo", {}, 2, "c")
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN
    assert not GameResult.objects.filter(game_ref=game.ref).exists()
    assert pot(club).balance_ore == 200


def test_voiding_reverses_all_money_and_removes_the_result(
    game, club, admin_member, django_capture_on_commit_callbacks
):
    append(game, "stake", {"player": "s0", "amount": 200}, 0, "a")
    append(game, "stake", {"player": "s1", "amount": 300}, 1, "b")
    with django_capture_on_commit_callbacks(execute=True):
        append(game, "win", {"player": "s0"}, 2, "c")
    with django_capture_on_commit_callbacks(execute=True):
        recording.void_game(game, "Fel spel", admin_member.user)
    game.refresh_from_db()
    assert game.status == GameStatus.VOIDED
    assert set(Account.objects.filter(club=club).values_list("balance_ore", flat=True)) == {0}
    assert not GameResult.objects.exists()
    assert ledger.verify_balances(club) == []
    assert ledger.verify_audit(club) == []


def test_start_refuses_bad_player_lists(toy, club, member, other_club):
    with pytest.raises(EventRefused):
        recording.start_game(club, "toy", [member], None)
    with pytest.raises(EventRefused):
        recording.start_game(club, "toy", [member, member], None)
    stranger = make_member(other_club, "Främling")
    with pytest.raises(EventRefused):
        recording.start_game(club, "toy", [member, stranger], None)
    with pytest.raises(EventRefused) as excinfo:
        recording.start_game(club, "toy", [member, "Gäst"], None, rules={"nonsense": 1})
    assert excinfo.value.code == "rules"


def test_a_stake_above_the_engines_bound_is_refused_in_the_users_language(club, member):
    with pytest.raises(EventRefused) as excinfo:
        recording.start_game(club, "cribbage", [member, "Gäst"], None, rules={"stake_ore": 10**9})
    assert excinfo.value.code == "rules"
    assert excinfo.value.messages == [
        "Ett belopp i reglerna får vara högst 1000000 kr, inte 10000000 kr"
    ]
    assert not Game.objects.exists()


def test_a_skunk_at_the_highest_stake_still_posts_the_winning_count(club, member, scorer):
    """The probe set a stake so large that the winning peg always failed. A stake is now at
    most the ceiling, and the books take what the engine makes of it — twice the stake for a
    skunk is more than the ceiling on a single typed amount, and still the game's money."""
    game = recording.start_game(
        club, "cribbage", [scorer, member], None, rules={"target": 61, "stake_ore": 100_000_000}
    )
    events = [
        ("starter", {"card": "5D"}),
        ("show", {"player": "s1", "points": 29}),
        ("show", {"player": "s0", "points": 2}),
        ("crib", {"points": 2}),  # with a five cut no crib scores 0
        ("starter", {"card": "4C"}),  # with a two cut no hand scores 24
        ("peg", {"player": "s1", "points": 2}),
        ("show", {"player": "s0", "points": 4}),
        ("show", {"player": "s1", "points": 24}),
        ("crib", {"points": 6}),  # 61: Maja wins, Sune has 8: a skunk
    ]
    for seq, (type_, payload) in enumerate(events):
        append(game, type_, payload, seq, f"k{seq}")
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert ledger.balance(ledger.member_account(member)) == 200_000_000
    assert ledger.verify_balances(club) == []


def test_the_state_replayed_from_scratch_equals_the_snapshot(game):
    for seq, (player, amount) in enumerate([("s0", 100), ("s1", 250), ("s2", 75)]):
        append(game, "stake", {"player": player, "amount": amount}, seq, f"k{seq}")
    append(game, "undo", {}, 3, "u")
    game.refresh_from_db()
    replay._STATE_CACHE.clear()
    state, nets = recording.current_state(game)
    assert replay._snapshot(state, nets) == game.snapshot


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_taps_on_start_at_once_make_one_game():
    postgres_only()
    club = make_club()
    table = [make_member(club, name, login=False) for name in ("Ada", "Bea", "Cid")]

    def tap(_tap) -> int:
        # Kille plays from the club's pot: a second game would also be refused as open.
        game = recording.start_game(
            club, "kille", table, None, setup={"pot_ore": 0}, key="samma-tryck"
        )
        return game.pk

    games = at_once(tap, range(10))
    assert len(set(games)) == 1
    assert Game.objects.filter(club=club).count() == 1
