"""Who owns what and who may do what is sealed in the audit chain (``ledger.ownership``):
changes the app makes are sealed as they happen; the same changes made behind the app's back
are named by ``check_ledger``."""

from __future__ import annotations

import pytest

import ledger
from club.members import set_roles
from club.models import Member, Membership, Role
from ledger import ownership
from ledger.models import Account, AccountKind, Source
from tests.factories import make_member, make_user


@pytest.fixture
def debt(club):
    """Anna owes the club 30 kr; Bo owes nothing."""
    anna, bo = make_member(club, "Anna"), make_member(club, "Bo")
    cash = ledger.system_account(club, AccountKind.CASH)
    ledger.post(
        club,
        ledger.legs_for_transfer(ledger.member_account(anna), cash, 3000),
        "Lån",
        Source.MANUAL,
        None,
    )
    return anna, bo


def test_what_the_app_changes_is_sealed_and_checks_clean(club, debt):
    anna, bo = debt
    set_roles(anna, {Role.TREASURER})
    anna.swish_number = "0701234567"
    anna.save()
    bo.user = make_user("bo")
    bo.save()
    ledger.close_account(ledger.pot_account(club, "pot:x", "X"))
    assert ownership.check_ownership(club) == []
    assert ownership.latest_seals(club)[f"member:{anna.pk}"]["roles"] == ["member", "treasurer"]


@pytest.mark.books_tampered
def test_an_owner_swapped_behind_the_apps_back_is_named(club, debt):
    anna, _bo = debt
    cecilia = Member.objects.bulk_create([Member(club=club, name="Cecilia")])[0]  # no signal
    account = ledger.member_account(anna)
    Account.objects.filter(pk=account.pk).update(member=cecilia)  # Anna's debt is Cecilia's
    assert ownership.check_ownership(club) == [
        f"account:{account.pk} changed behind the app's back (member)",
        f"member:{cecilia.pk} has no sealed record: it was added behind the app's back",
    ]
    assert any("account:" in problem for problem in ledger.verify_books(club))


@pytest.mark.books_tampered
def test_a_role_a_login_and_a_swish_number_changed_in_the_database_are_named(club, debt):
    anna, bo = debt
    Membership.objects.bulk_create([Membership(member=bo, role=Role.TREASURER)])  # no signal
    Member.objects.filter(pk=anna.pk).update(user=make_user("inkräktare"))
    club.__class__.objects.filter(pk=club.pk).update(swish_number="1239999999")
    assert ownership.check_ownership(club) == [
        "club changed behind the app's back (swish_number)",
        f"member:{anna.pk} changed behind the app's back (user)",
        f"member:{bo.pk} changed behind the app's back (roles)",
    ]


@pytest.mark.books_tampered
def test_an_account_added_or_deleted_behind_the_apps_back_is_named(club, debt):
    anna, _bo = debt
    added = Account.objects.bulk_create(
        [Account(club=club, key="pot:smuggel", kind=AccountKind.POT, name="Smuggel")]
    )[0]
    Member.objects.filter(pk=anna.pk).update(active=False)
    problems = ownership.check_ownership(club)
    assert f"account:{added.pk} has no sealed record: it was added behind the app's back" in (
        problems
    )
    assert f"member:{anna.pk} changed behind the app's back (active)" in problems


def test_sealing_again_without_a_change_adds_no_record(club, debt):
    anna, _bo = debt
    head = ledger.audit_head(club)
    anna.save()  # nothing that matters changed
    ownership.seal_everything(club)
    assert ledger.audit_head(club) == head
