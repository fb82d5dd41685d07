"""The evening's pot rule (``evenings.pots``): tables formed one after another share the club's
pot alike, a playing table keeps its pot, and the books' check replays every move against the
rule — a move the rule would not make is named."""

from __future__ import annotations

import pytest

import evenings
import ledger
from evenings import pots
from evenings.models import EveningOptions, PotPolicy
from ledger.models import Source, Transaction
from tests.evenings.test_evenings import (
    THURSDAY,
    balance,
    evening_with,
    seed_club_pot,
    start_at,
)
from tests.factories import make_member


@pytest.fixture
def nine(club):
    EveningOptions.objects.create(club=club, pot_policy=PotPolicy.MERGE)
    seed_club_pot(club, 900)
    return [make_member(club, f"Spelare {n}") for n in range(9)]


def test_tables_formed_one_by_one_before_play_share_alike(club, nine):
    evening, here = evening_with(club, nine)
    for group in (here[0:3], here[3:6], here[6:9]):
        evenings.form_tables(evening, "kille", [group], None)
    assert [balance(club, f"pot:kille:{n}") for n in (1, 2, 3)] == [300, 300, 300]
    assert pots.check_pot_moves(club) == []


def test_a_table_that_plays_keeps_its_pot_and_the_late_table_shares_the_rest(club, nine):
    seed_club_pot(club, 2)  # 902 öre: 451 each for two tables
    evening, here = evening_with(club, nine)
    (one,) = evenings.form_tables(evening, "kille", [here[0:3]], None)
    start_at(one)
    evenings.form_tables(evening, "kille", [here[3:6]], None)
    assert (balance(club, "pot:kille:1"), balance(club, "pot:kille:2")) == (902, 0)
    assert pots.check_pot_moves(club) == []


def test_the_odd_ore_waits_in_the_clubs_pot(club, nine):
    seed_club_pot(club, 2)
    evening, here = evening_with(club, nine)
    evenings.form_tables(evening, "kille", [here[0:3]], None)
    evenings.form_tables(evening, "kille", [here[3:6]], None)
    evenings.form_tables(evening, "kille", [here[6:9]], None)
    assert [balance(club, f"pot:kille:{n}") for n in (1, 2, 3)] == [300, 300, 300]
    assert balance(club, "pot:kille") == 2


def test_tables_cannot_share_a_pot_a_game_outside_the_evening_plays_from(club, nine):
    from scoring import games, recording

    outside = recording.start_game(
        club, "kille", nine[:3], None, setup=games.start_setup(club, "kille")
    )
    evening, here = evening_with(club, nine[3:])
    with pytest.raises(evenings.EveningError) as refusal:
        evenings.form_tables(evening, "kille", [here[0:3]], None)
    assert refusal.value.code == "club_pot_in_play"
    assert outside.setup["pot_ore"] == balance(club, "pot:kille") == 900


def test_a_pot_move_cannot_be_reversed_by_hand(club, nine):
    evening, here = evening_with(club, nine)
    evenings.form_tables(evening, "kille", [here[0:3], here[3:6]], None)
    move = Transaction.objects.get(ref__startswith=f"{evening.ref}:split:")
    with pytest.raises(ledger.LedgerError) as refusal:
        ledger.reverse(move, "Fel", None)
    assert refusal.value.code == "pot_move"


@pytest.mark.books_tampered
def test_the_check_names_a_share_the_rule_would_not_make(club, nine):
    evening, here = evening_with(club, nine)
    (one,) = evenings.form_tables(evening, "kille", [here[0:3]], None)
    start_at(one)  # table 1 plays from 900 öre
    ref = pots.share_ref(evening, "kille", [1, 2])
    pot_one = ledger.game_pot(club, "kille", table=1)
    pot_two = ledger.game_pot(club, "kille", table=2)
    ledger.post(club, [(pot_one, -450), (pot_two, 450)], "x", Source.EVENING, None, ref=ref)
    problems = pots.check_pot_moves(club)
    assert any("table 1 was already playing" in p for p in problems), problems
    assert any("not one of the evening's kille tables" in p for p in problems), problems


@pytest.mark.books_tampered
def test_the_check_names_unequal_shares_and_a_pot_left_full_after_a_merge(club, nine):
    evening, here = evening_with(club, nine)
    evenings.form_tables(evening, "kille", [here[0:3], here[3:6]], None)
    club_pot = ledger.game_pot(club, "kille")
    pot_one = ledger.game_pot(club, "kille", table=1)
    ledger.post(
        club,
        [(club_pot, 100), (pot_one, -100)],
        "x",
        Source.EVENING,
        None,
        ref=pots.merge_ref(evening, "kille"),
    )
    problems = pots.check_pot_moves(club)
    assert any("pot:kille:2 still held money" in p for p in problems), problems
    assert any("was not emptied" in p for p in problems), problems


@pytest.mark.books_tampered
def test_a_prize_pool_holds_only_fees_and_prizes(club, nine):
    evening = evenings.open_evening(club, None, date=THURSDAY)
    pool = evenings.prize_pool(evening)
    cash = ledger.system_account(club, "cash")
    ledger.post(club, [(cash, -100), (pool, 100)], "x", Source.MANUAL, None)
    assert any("neither a fee nor the prizes" in p for p in pots.check_pot_moves(club))
