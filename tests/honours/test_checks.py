"""The books' checks of the hand prizes: a row, its transaction and the game's replay agree."""

from __future__ import annotations

import pytest

import ledger
from honours import checks
from honours.models import HonourPaid
from ledger.models import Account, Source
from scoring.recording import hand_honours
from tests.honours.helpers import cut_five, fund, prize, show_29, start_cribbage


@pytest.fixture
def paid(club, scorer, member):
    prize(club)
    fund(club, 50_000)
    game = start_cribbage(club, [scorer, member])
    cut_five(game)
    show_29(game)
    return HonourPaid.objects.get()


def test_the_books_agree_after_a_prize(club, paid):
    assert checks.check_prizes_paid(club) == []
    assert hand_honours.check_honours_replay(club) == []


@pytest.mark.books_tampered
def test_a_prize_for_a_hand_the_replay_does_not_hold_is_named(club, paid):
    HonourPaid.objects.filter(pk=paid.pk).update(deal=7)
    assert "the game's replay holds no such hand" in " ".join(
        hand_honours.check_honours_replay(club)
    )
    HonourPaid.objects.filter(pk=paid.pk).update(deal=1)


@pytest.mark.books_tampered
def test_a_row_that_says_another_amount_than_its_transaction_is_named(club, paid):
    HonourPaid.objects.filter(pk=paid.pk).update(amount_ore=1)
    assert "the books moved" in " ".join(checks.check_prizes_paid(club))
    HonourPaid.objects.filter(pk=paid.pk).update(amount_ore=paid.amount_ore)


@pytest.mark.books_tampered
def test_a_payment_reversed_behind_the_rows_back_is_named(club, paid):
    # The books refuse to reverse it by hand (it is a game's money) ...
    with pytest.raises(ledger.LedgerError):
        ledger.reverse(paid.transaction, "by hand", None)
    # ... so the test marks the row as taken back without a reversal.
    HonourPaid.objects.filter(pk=paid.pk).update(reversed_at=paid.created_at)
    assert "not reversed" in " ".join(checks.check_prizes_paid(club))
    HonourPaid.objects.filter(pk=paid.pk).update(reversed_at=None)


@pytest.mark.books_tampered
def test_a_stray_posting_with_a_prizes_ref_is_named(club, paid):
    pot = Account.objects.get(club=club, key=paid.pot_key)
    cash = ledger.system_account(club, "cash")
    tx = ledger.post(
        club, ledger.legs_for_transfer(pot, cash, 100), "x", Source.MANUAL, None, ref="honour:x"
    )
    assert f"transaction {tx.pk}: a hand prize's posting" in " ".join(
        checks.check_prizes_paid(club)
    )


@pytest.mark.books_tampered
def test_a_voided_games_prize_still_paid_is_named(club, paid):
    from scoring.models import Game

    Game.objects.filter(pk=int(paid.game_ref[5:])).update(status="voided")
    assert "the game is voided" in " ".join(hand_honours.check_honours_replay(club))
    Game.objects.filter(pk=int(paid.game_ref[5:])).update(status="open")
