"""Erasing a member on request (clubdata.erase): the pseudonym everywhere a page shows him,
the login gone, the books still balancing and replaying, the erasure audited without the old
name, once, and never the last admin or oneself."""

from __future__ import annotations

import json

import pytest
from django.apps import apps
from django.db import models
from django.test import Client, RequestFactory
from django.urls import reverse

import ledger
from club.models import Member, Role, User
from clubdata import erase
from ledger import payments
from ledger.models import Account, AuditRecord
from tests.clubdata.test_mydata import small_club_fixture, toy_fixture  # noqa: F401 - fixtures
from tests.conftest import client_for
from tests.factories import PASSWORD, make_member

OLD = "Maja Medlem"
PSEUDONYM = "Före detta medlem 1"


def erase_url(club, person):
    return reverse("clubdata:member-erase", args=[club.slug, person.pk])


def confirm(client, club, person):
    page = client.get(erase_url(club, person))
    return page, page.context["form"]["submission"].value()


def post_erase(client, club, person, key=None):
    if key is None:
        _page, key = confirm(client, club, person)
    return client.post(erase_url(club, person), {"submission": key})


def test_erasure_replaces_the_name_on_every_page(
    admin_client_, treasurer_client, club, member, small_club
):
    pages = [
        reverse("club:member-list", args=[club.slug]),
        reverse("league:standings", args=[club.slug]),
        reverse("scoring:game-list", args=[club.slug]),
        reverse("scoring:game-detail", args=[club.slug, small_club["games"][1].pk]),
        reverse("ledger:account", args=[club.slug, ledger.member_account(member).pk]),
        reverse("evenings:summary", args=[club.slug, small_club["evening"].pk]),
    ]
    for url in pages:
        assert OLD in treasurer_client.get(url).content.decode(), url
    response = post_erase(admin_client_, club, member)
    assert response.status_code == 302
    for url in pages:
        page = treasurer_client.get(url).content.decode()
        assert OLD not in page, url
        assert PSEUDONYM in page, url
    assert ledger.verify_books(club) == []


def test_the_erased_login_cannot_sign_in_and_its_session_ends(
    admin_client_, club, member, member_client
):
    username = member.user.username
    user_id = member.user_id
    assert member_client.get(reverse("club:club-home", args=[club.slug])).status_code == 200
    post_erase(admin_client_, club, member)
    user = User.objects.get(pk=user_id)
    assert (user.is_active, user.has_usable_password(), user.email) == (False, False, "")
    assert user.username.startswith("erased-")
    assert not User.objects.filter(username=username).exists()
    member.refresh_from_db()
    assert member.user_id is None
    request = RequestFactory().post("/login/")
    assert not Client().login(request=request, username=username, password=PASSWORD)
    page = member_client.get(reverse("club:club-home", args=[club.slug]))
    assert page.status_code == 302  # signed out: to the login page


def test_the_erasure_is_an_audit_record_without_the_old_name(
    admin_client_, admin_member, club, member
):
    member.email = "maja@example.org"
    member.save()
    post_erase(admin_client_, club, member)
    (record,) = AuditRecord.objects.filter(club=club, action=AuditRecord.Action.ERASE)
    assert record.subject == f"member:{member.pk}"
    assert record.by_id == admin_member.user_id
    assert record.data["pseudonym"] == PSEUDONYM
    assert record.data["by_member"] == admin_member.pk
    assert record.data["login"] == "anonymised"
    assert OLD not in json.dumps(record.data, ensure_ascii=False)
    assert "maja@example.org" not in json.dumps(record.data)
    assert ledger.verify_audit(club) == []


def test_a_double_tap_erases_once(admin_client_, club, member):
    _page, key = confirm(admin_client_, club, member)
    first = post_erase(admin_client_, club, member, key)
    second = post_erase(admin_client_, club, member, key)
    assert (first.status_code, second.status_code) == (302, 302)
    assert AuditRecord.objects.filter(club=club, action=AuditRecord.Action.ERASE).count() == 1
    member.refresh_from_db()
    assert member.name == PSEUDONYM
    # The service itself, asked again, changes nothing.
    admin = Member.objects.get(club=club, name="Arne Admin")
    assert erase.erase_member(member, admin).name == PSEUDONYM
    assert AuditRecord.objects.filter(club=club, action=AuditRecord.Action.ERASE).count() == 1


def test_the_last_admin_and_oneself_are_refused(admin_client_, admin_member, club, member):
    page, _key = confirm(admin_client_, club, admin_member)
    assert "erase-member" not in page.content.decode()
    assert "erase-refused" in page.content.decode()
    response = post_erase(admin_client_, club, admin_member, key="k" * 32)
    assert response.status_code == 422
    admin_member.refresh_from_db()
    assert admin_member.name == "Arne Admin"
    assert admin_member.erased_at is None
    with pytest.raises(erase.ErasureRefused) as refused:
        erase.erase_member(admin_member, admin_member)
    assert refused.value.code == "last_admin"
    second = make_member(club, "Britt Admin", roles=[Role.ADMIN])
    with pytest.raises(erase.ErasureRefused) as refused:
        erase.erase_member(admin_member, admin_member)
    assert refused.value.code == "self"
    # Another admin may: then he is no longer an admin, and the club still has one.
    erased = erase.erase_member(admin_member, second)
    assert erased.roles == {Role.MEMBER}
    assert not erased.can(Role.ADMIN)
    assert AuditRecord.objects.filter(action=AuditRecord.Action.ERASE).count() == 1


def test_only_admins_erase_and_only_in_their_club(
    member_client, treasurer_client, admin_client_, club, member, treasurer, outsider
):
    assert treasurer_client.get(erase_url(club, member)).status_code == 403
    assert (
        treasurer_client.post(erase_url(club, member), {"submission": "x" * 32}).status_code == 403
    )
    assert admin_client_.get(erase_url(club, outsider)).status_code == 404
    assert (
        admin_client_.post(erase_url(club, outsider), {"submission": "x" * 32}).status_code == 404
    )
    outsider.refresh_from_db()
    assert outsider.erased_at is None


def test_a_post_without_its_key_changes_nothing(admin_client_, club, member):
    for data in ({}, {"submission": ""}, {"submission": "<script>" * 50}):
        response = admin_client_.post(erase_url(club, member), data)
        assert response.status_code == 422
    member.refresh_from_db()
    assert member.name == OLD
    assert member.erased_at is None


def test_a_member_with_a_balance_may_be_erased_and_the_page_says_so(
    admin_client_, treasurer, club, member
):
    payments.record_payment(
        club, payments.PaymentKind.CASH_IN, 5000, "Swish", treasurer.user, member=member
    )
    page, _key = confirm(admin_client_, club, member)
    text = page.content.decode()
    assert "balance-warning" in text
    assert "50,00" in text
    assert PSEUDONYM in text  # the name he will have
    assert "bokföringslagen" in text
    post_erase(admin_client_, club, member)
    account = Account.objects.get(member=member)
    assert (account.balance_ore, account.label) == (5000, PSEUDONYM)
    assert ledger.verify_books(club) == []


def test_pseudonyms_count_up_and_skip_a_taken_name(club, admin_member, member):
    make_member(club, "Före detta medlem 2", login=False)
    bo = make_member(club, "Bo Ek")
    assert erase.erase_member(member, admin_member).name == PSEUDONYM
    assert erase.erase_member(bo, admin_member).name == "Före detta medlem 3"


def test_a_login_that_is_a_member_elsewhere_is_only_detached(
    admin_member, club, other_club, member
):
    elsewhere = make_member(other_club, OLD, login=False)
    elsewhere.user = member.user
    elsewhere.save()
    user = member.user
    page_facts = erase.facts(member, admin_member)
    assert page_facts.login == "detached"
    erase.erase_member(member, admin_member)
    user.refresh_from_db()
    assert user.is_active
    assert user.has_usable_password()
    assert Member.objects.get(pk=member.pk).user_id is None
    assert (
        client_for(elsewhere).get(reverse("club:club-home", args=[other_club.slug])).status_code
        == 200
    )


def _text_columns(model) -> list[str]:
    kinds = (models.CharField, models.TextField, models.JSONField)
    return [f.name for f in model._meta.concrete_fields if isinstance(f, kinds)]


def where_it_remains(text: str) -> set[tuple[str, str]]:
    """Every (model, column) of every installed app where ``text`` is still stored."""
    found = set()
    for model in apps.get_models():
        for column in _text_columns(model):
            for value in model.objects.values_list(column, flat=True).iterator():
                shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
                if shown and text.lower() in shown.lower():
                    found.add((model._meta.label_lower, column))
                    break
    return found


def test_the_old_name_and_contacts_are_stored_nowhere_but_the_sealed_books(
    admin_member, club, member, small_club
):
    username = member.user.username
    login_email = member.user.email
    assert ("club.member", "name") in where_it_remains(OLD)
    assert ("ledger.account", "name") in where_it_remains(OLD)
    erase.erase_member(member, admin_member)
    # Two games' memos ("Maja Medlem stakes", "… takes the pot") and the evening's fee.
    record = AuditRecord.objects.get(club=club, action=AuditRecord.Action.ERASE)
    assert record.data["memos_kept"] == 3
    # The stored memos of his games and fee name him, and the audit chain seals those memos:
    # they stay as written (pages render them with today's names). Nothing else does.
    assert where_it_remains(OLD) == {("ledger.transaction", "memo"), ("ledger.auditrecord", "data")}
    for gone in (username, login_email, "maja@example.org"):
        assert where_it_remains(gone) == set(), gone
    # The Swish number stays only in the audit chain's earlier seals of his member row.
    assert where_it_remains("0701234567") == {("ledger.auditrecord", "data")}
    for model, column in ((Member, "name"), (Account, "name"), (User, "username")):
        assert not model.objects.filter(**{f"{column}__icontains": OLD}).exists()
    assert ledger.verify_books(club) == []
