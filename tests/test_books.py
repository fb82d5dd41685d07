"""The suite's own check of the books (tests/books.py, run by tests/conftest.py after every
database test): it asks as far as the rows say, and money posted by a side door never escapes."""

from __future__ import annotations

import pytest
from django.utils import timezone

import ledger
from ledger.models import Account, Entry, Source, Transaction
from tests import conftest
from tests.books import MONEY_CHECKS, SEAL_CHECKS, books_problems, money_rows_exist
from tests.factories import make_member


class _ADatabaseTest:
    """What the end-of-test hook reads of a pytest item: a database fixture, no marks."""

    fixturenames = ("db",)

    def get_closest_marker(self, name):
        return None


def _hook_after(body_result=None):
    """Run tests/conftest.py's end-of-test hook around a body that already ran."""
    hook = conftest.pytest_runtest_call(_ADatabaseTest())
    next(hook)
    try:
        hook.send(body_result)
    except StopIteration:
        return


def test_every_registered_check_says_when_it_is_asked():
    assert set(ledger.registered_checks()) == SEAL_CHECKS | MONEY_CHECKS
    assert not SEAL_CHECKS & MONEY_CHECKS


def test_a_club_of_people_only_has_no_money_rows_and_clean_books(club, member, treasurer):
    assert not money_rows_exist()
    assert books_problems() == []


def test_a_posting_through_the_ledger_counts_as_money(club, member, treasurer):
    ledger.post(
        club,
        [(ledger.member_account(member), 500), (ledger.system_account(club, "cash"), -500)],
        memo="Insättning",
        source=Source.MANUAL,
        by=treasurer.user,
    )
    assert money_rows_exist()
    assert books_problems() == []


@pytest.mark.books_tampered
def test_an_entry_written_by_a_side_door_fails_the_test_that_wrote_it(club, member):
    account = ledger.member_account(member)
    today = timezone.localdate()
    side = Transaction.objects.create(club=club, date=today, memo="bakvägen", source=Source.MANUAL)
    Entry.objects.create(transaction=side, account=account, amount_ore=10_000, date=today)
    assert money_rows_exist()
    assert books_problems()
    with pytest.raises(AssertionError, match="check_ledger after the test"):
        _hook_after()


@pytest.mark.books_tampered
def test_a_balance_changed_by_a_side_door_fails_the_test_that_changed_it(club, member):
    Account.objects.filter(pk=ledger.member_account(member).pk).update(balance_ore=4_200)
    assert money_rows_exist()
    with pytest.raises(AssertionError, match="check_ledger after the test"):
        _hook_after()


@pytest.mark.books_tampered
def test_a_swish_number_changed_by_a_side_door_fails_a_test_that_moved_no_money(club, member):
    # Payments go to a member's Swish number: who owns what is sealed (ledger.ownership).
    type(member).objects.filter(pk=member.pk).update(swish_number="0709999999")
    assert not money_rows_exist()
    with pytest.raises(AssertionError, match="changed behind the app's back"):
        _hook_after()


@pytest.mark.books_tampered
def test_money_written_by_a_fixture_is_checked_too(club, member, pot_by_a_side_door):
    with pytest.raises(AssertionError, match="check_ledger after the test"):
        _hook_after()


@pytest.fixture
def pot_by_a_side_door(club):
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    Account.objects.filter(pk=pot.pk).update(balance_ore=300)
    return pot


def test_a_second_member_added_the_app_s_way_keeps_the_books_clean(club, member):
    make_member(club, "Nils Nyman")
    _hook_after()
