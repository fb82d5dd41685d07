"""A special hand pays its prize once, in the game's own transaction; an undo takes it back."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

import ledger
from honours import services
from honours.models import HandPrize, HonourPaid
from ledger.models import Transaction
from scoring import recording
from scoring.models import Game, GameStatus
from scoring.recording import hand_honours
from tests.concurrency import at_once, postgres_only
from tests.factories import make_club, make_member
from tests.honours.helpers import (
    A_29,
    PRIZE,
    append,
    cut_five,
    first_to_show,
    fund,
    pot_balance,
    prize,
    show_29,
    start_cribbage,
    undo,
)


@pytest.fixture
def table(club, scorer, member):
    prize(club)
    fund(club, 50_000)
    return start_cribbage(club, [scorer, member], scorer.user)


def seat_member(game, player):
    return game.seats_by_key[player].member


def test_a_29_hand_pays_its_prize_once_from_the_pot(club, table):
    cut_five(table)
    _result, player = show_29(table)
    winner = seat_member(table, player)
    (row,) = HonourPaid.objects.all()
    assert (row.kind, row.deal, row.seat, row.member) == (
        "cribbage:29:hand",
        1,
        int(player[1:]),
        winner,
    )
    assert row.amount_ore == PRIZE
    assert row.detail == "5C 5D 5H JS 5S"
    assert pot_balance(club) == 50_000 - PRIZE
    assert row.transaction.key == f"honour:{table.ref}:1:{row.seat}:cribbage:29:hand:0"
    assert ledger.balance(ledger.member_account(winner)) == PRIZE
    # The same tap again (its idempotency key) is the same event: nothing more is paid.
    again = append(table, "show", {"player": player, "cards": A_29}, "show")
    assert again.event.seq == 2
    assert HonourPaid.objects.count() == 1
    assert pot_balance(club) == 50_000 - PRIZE


def test_an_undo_takes_the_prize_back_and_doing_it_again_pays_once_more(club, table):
    cut_five(table)
    _result, player = show_29(table)
    undo(table, "undo")
    (row,) = HonourPaid.objects.all()
    assert row.reversed_at is not None
    assert row.reversal.reverses == row.transaction
    assert pot_balance(club) == 50_000
    assert ledger.balance(ledger.member_account(seat_member(table, player))) == 0
    show_29(table, key="show-again")
    rows = list(HonourPaid.objects.order_by("pk"))
    assert len(rows) == 2
    assert rows[1].reversed_at is None
    assert rows[1].transaction.key.endswith(":cribbage:29:hand:1")
    assert pot_balance(club) == 50_000 - PRIZE
    # An undo of a later event leaves the hand (and its prize) alone.
    other = next(p for p in ("s0", "s1") if p != player)
    append(table, "show", {"player": other, "points": 2}, "other")
    undo(table, "undo-other")
    assert HonourPaid.objects.filter(reversed_at__isnull=True).count() == 1


def test_a_pot_that_holds_less_pays_what_it_holds_and_an_empty_one_nothing(club, scorer, member):
    prize(club)
    prize(club, "cribbage:24:hand")
    fund(club, 4_000)
    game = start_cribbage(club, [scorer, member])
    cut_five(game)
    show_29(game)
    (row,) = HonourPaid.objects.all()
    assert row.amount_ore == 4_000
    assert pot_balance(club) == 0
    # The other hand: 24 (4-4-6-6 with a five cut? 4+5+6 ×4 = 8, pairs 4, runs 4×3 = 12).
    dealer = next(p for p in ("s0", "s1") if p != first_to_show(game))
    append(game, "show", {"player": dealer, "cards": ["4H", "4S", "6H", "6C"]}, "dealer")
    empty = HonourPaid.objects.get(kind="cribbage:24:hand")
    assert (empty.amount_ore, empty.transaction) == (0, None)
    assert pot_balance(club) == 0


def test_the_whole_pot_prize_takes_the_pot(club, scorer, member):
    prize(club, whole_pot=True, amount=0)
    fund(club, 12_345)
    game = start_cribbage(club, [scorer, member])
    cut_five(game)
    show_29(game)
    assert HonourPaid.objects.get().amount_ore == 12_345
    assert pot_balance(club) == 0


def test_a_29_crib_pays_the_dealer(club, scorer, member):
    prize(club, "cribbage:29:crib")
    fund(club, 50_000)
    game = start_cribbage(club, [scorer, member])
    cut_five(game)
    first = first_to_show(game)
    dealer = next(p for p in ("s0", "s1") if p != first)
    append(game, "show", {"player": first, "points": 2}, "a")
    append(game, "show", {"player": dealer, "points": 2}, "b")
    append(game, "crib", {"cards": A_29}, "crib")
    row = HonourPaid.objects.get()
    assert (row.kind, row.seat) == ("cribbage:29:crib", int(dealer[1:]))


def test_a_prize_set_up_after_the_game_started_does_not_reach_into_it(club, scorer, member):
    game = start_cribbage(club, [scorer, member])
    prize(club)
    fund(club, 50_000)
    cut_five(game)
    show_29(game)
    assert not HonourPaid.objects.exists()


def test_a_voided_game_gives_its_prizes_back(club, table, admin_member):
    cut_five(table)
    show_29(table)
    recording.void_game(table, "wrong table", None)
    table.refresh_from_db()
    assert table.status == GameStatus.VOIDED
    assert HonourPaid.objects.get().reversed_at is not None
    assert pot_balance(club) == 50_000


def test_a_guest_at_no_evening_is_paid_from_the_cash_box_as_his_winnings_are(club, scorer):
    prize(club)
    fund(club, 50_000)
    game = start_cribbage(club, [scorer, "Gästen Gunnar"])
    cut_five(game)
    if game.seats_by_key[first_to_show(game)].member_id:
        pytest.skip("the guest deals: covered by the other seat")
    show_29(game)
    row = HonourPaid.objects.get()
    assert (row.member, row.guest_name, row.payee_key) == (None, "Gästen Gunnar", "cash")


def test_a_won_la_vola_pays(club, scorer, member):
    prize(club, "polskt_pass:la_vola", amount=5_000)
    fund(club, 50_000)
    third = make_member(club, "Tredje Spelaren", login=False)
    game = recording.start_game(
        club, "polskt_pass", [scorer, member, third], None, setup={"pot_ore": 0}
    )
    append(game, "deal", {"suit": "H", "rank": "J", "cutter_jack": False}, "deal")
    state, _nets = recording.current_state(game)
    (player,) = state.current.spelforare
    for n in range(2):
        append(game, "trick", {"winner": player}, f"t{n}")
    append(game, "la_vola", {"player": player}, "lv")
    for n in range(2, 5):
        append(game, "trick", {"winner": player}, f"t{n}")
    row = HonourPaid.objects.get()
    assert (row.kind, row.amount_ore, row.seat) == ("polskt_pass:la_vola", 5_000, int(player[1:]))


def locked(game):
    """The game as ``turns._store`` holds it: read with its club."""
    return Game.objects.select_related("club").get(pk=game.pk)


def test_a_game_with_no_prize_costs_one_query_and_no_write(club, scorer, member):
    game = start_cribbage(club, [scorer, member])
    cut_five(game)
    game = locked(game)
    state, _nets = recording.current_state(game)
    with CaptureQueriesContext(connection) as queries:
        hand_honours.game_stored(game, state)  # no honours in the state
    assert len(queries) == 1
    _result, _player = show_29(game)
    game = locked(game)
    state, _nets = recording.current_state(game)
    assert state.honours
    with CaptureQueriesContext(connection) as queries:
        hand_honours.game_stored(game, state)  # an honour, and no prize for it
    sql = [q["sql"].lstrip().upper() for q in queries.captured_queries]
    assert all(s.startswith("SELECT") for s in sql), sql
    assert len(sql) == 2, sql
    assert not HonourPaid.objects.exists()
    assert not Transaction.objects.filter(ref__startswith="honour:").exists()


def test_a_game_without_honours_in_its_engine_costs_nothing(club, scorer, member):
    third = make_member(club, "Tredje Spelaren", login=False)
    game = locked(
        recording.start_game(club, "kille", [scorer, member, third], None, setup={"pot_ore": 0})
    )
    state, _nets = recording.current_state(game)
    with CaptureQueriesContext(connection) as queries:
        hand_honours.game_stored(game, state)
    assert len(queries) == 0


def test_the_replay_check_is_registered_once_django_is_set_up():
    assert hand_honours.check_honours_replay in ledger.registered_checks()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_phones_recording_the_29_at_once_pay_it_once():
    postgres_only()
    club = make_club()
    players = [make_member(club, name, login=False) for name in ("Ada", "Bea")]
    prize(club)
    fund(club, 50_000)
    game = start_cribbage(club, players)
    cut_five(game)
    player = first_to_show(game)

    def tap(n: int) -> str:
        try:
            recording.append_event(
                Game.objects.get(pk=game.pk),
                "show",
                {"player": player, "cards": A_29},
                expected_seq=1,
                idempotency_key=f"phone-{n}",
                by=None,
            )
        except recording.StaleGame:
            return "stale"
        return "recorded"

    outcomes = at_once(tap, range(10))
    assert outcomes.count("recorded") == 1
    assert HonourPaid.objects.filter(club=club).count() == 1
    assert pot_balance(club) == 50_000 - PRIZE
    assert ledger.verify_books(club) == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_ten_double_taps_of_the_same_show_at_once_pay_it_once():
    postgres_only()
    club = make_club()
    players = [make_member(club, name, login=False) for name in ("Ada", "Bea")]
    prize(club)
    fund(club, 50_000)
    game = start_cribbage(club, players)
    cut_five(game)
    player = first_to_show(game)

    def tap(_n: int) -> int:
        return recording.append_event(
            Game.objects.get(pk=game.pk),
            "show",
            {"player": player, "cards": A_29},
            expected_seq=1,
            idempotency_key="the-same-tap",
            by=None,
        ).event.seq

    assert set(at_once(tap, range(10))) == {2}
    assert HonourPaid.objects.filter(club=club).count() == 1
    assert pot_balance(club) == 50_000 - PRIZE
    assert ledger.verify_books(club) == []


def test_a_prize_is_one_per_hand_and_its_pot_is_a_hand_pot(club):
    first = prize(club, amount=100)
    again = prize(club, amount=200)
    assert first.pk == again.pk
    assert HandPrize.objects.get().amount_ore == 200
    assert HandPrize.objects.get().pot_key == services.pot_key("Handpotten") == "hands-handpotten"


def test_the_database_refuses_a_second_unreversed_prize_for_one_hand(club, table):
    cut_five(table)
    show_29(table)
    row = HonourPaid.objects.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        HonourPaid.objects.create(
            club=club,
            game_ref=row.game_ref,
            game_key=row.game_key,
            deal=row.deal,
            seat=row.seat,
            kind=row.kind,
            pot_key=row.pot_key,
            payee_key=row.payee_key,
        )
