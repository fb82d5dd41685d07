"""``clubdata.people``: edit a member, the last admin, leave and return, the member list."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse

import evenings
import ledger
from club.members import set_roles
from club.models import Member, Role
from clubdata import people
from evenings.forms import CheckInForm
from league.models import Standing
from ledger.models import Source
from scoring import recording
from scoring.forms import StartGameForm
from tests.concurrency import at_once, postgres_only
from tests.conftest import client_for
from tests.evenings.test_evenings import tap
from tests.factories import make_member
from tests.scoring import conftest as scoring_fixtures

toy = scoring_fixtures.toy  # the toy game, as a fixture here too


def edit_url(club, person, what="edit"):
    return reverse(f"clubdata:member-{what}", args=[club.slug, person.pk])


def test_an_admin_edits_name_swish_email_and_roles(club, admin_client_, member):
    response = admin_client_.post(
        edit_url(club, member),
        {
            "name": "Maja Medlemsson",
            "swish_number": "070-123 45 67",
            "email": "maja@example.se",
            "roles": ["scorer", "treasurer"],
        },
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert (member.name, member.swish_number, member.email) == (
        "Maja Medlemsson",
        "070-123 45 67",
        "maja@example.se",
    )
    assert member.roles == {Role.MEMBER, Role.SCORER, Role.TREASURER}


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", "ARNE ADMIN"), ("swish_number", "070 abc"), ("email", "not-an-address")],
)
def test_a_taken_name_a_bad_swish_number_or_email_is_refused(
    club, admin_client_, member, field, value
):
    data = {"name": "Maja Medlem", "swish_number": "", "email": "", "roles": []}
    response = admin_client_.post(edit_url(club, member), {**data, field: value})
    assert response.status_code == 422
    member.refresh_from_db()
    assert (member.name, member.swish_number, member.email) == ("Maja Medlem", "", "")


def test_the_last_admin_keeps_his_role_and_cannot_leave(club, admin_client_, admin_member):
    data = {"name": admin_member.name, "swish_number": "", "email": "", "roles": []}
    response = admin_client_.post(edit_url(club, admin_member), data)
    assert response.status_code == 422
    assert "only admin" in response.content.decode() or "enda admin" in response.content.decode()
    assert Role.ADMIN in Member.objects.get(pk=admin_member.pk).roles
    admin_client_.post(edit_url(club, admin_member, "leave"))
    assert Member.objects.get(pk=admin_member.pk).active
    # With a second admin, he may step down.
    make_member(club, "Bea Admin", roles=[Role.ADMIN])
    assert admin_client_.post(edit_url(club, admin_member), data).status_code == 302
    assert Role.ADMIN not in Member.objects.get(pk=admin_member.pk).roles


@pytest.mark.django_db(transaction=True)
def test_two_admins_demoting_each_other_at_once_leave_one_admin():
    postgres_only()
    from tests.factories import make_club

    club = make_club()
    anna = make_member(club, "Anna", roles=[Role.ADMIN])
    bo = make_member(club, "Bo", roles=[Role.ADMIN])

    def demote(person):
        try:
            people.edit_member(person, name=person.name, swish_number="", email="", roles=[])
        except ValidationError as error:
            return error.code
        return "done"

    assert sorted(at_once(demote, [anna, bo])) == ["done", "last_admin"]
    admins = Member.objects.filter(club=club, memberships__role=Role.ADMIN, active=True)
    assert admins.count() == 1
    assert connection.vendor == "postgresql"


def test_a_member_who_left_is_not_offered_but_keeps_his_league_line(
    club,
    admin_client_,
    member,
    toy,
    django_capture_on_commit_callbacks,
):
    other = make_member(club, "Bo Ek")
    with django_capture_on_commit_callbacks(execute=True):
        game = recording.start_game(club, "toy", [member, other], None)
        tap(game, "stake", player="s1", amount=100)
        tap(game, "win", player="s0")
    assert admin_client_.post(edit_url(club, member, "leave")).status_code == 302
    member.refresh_from_db()
    assert not member.active
    assert member.left_at is not None
    # Not at a table's start form, not at check-in.
    start = StartGameForm(club=club)
    assert member not in start.fields["players"].queryset
    evening = evenings.open_evening(club, None, date=date(2026, 11, 5))
    check_in = CheckInForm(evening=evening)
    assert member not in check_in.fields["members"].queryset
    # His results stay in the league, and his login no longer opens the club.
    assert Standing.objects.get(member=member, game_key="toy").won == 1
    page = admin_client_.get(reverse("league:standings", args=[club.slug]))
    assert member.name in page.content.decode()
    assert client_for(member).get(reverse("club:club-home", args=[club.slug])).status_code == 404
    # The list shows him under "left"; he comes back.
    listing = admin_client_.get(reverse("club:member-list", args=[club.slug]))
    assert member in listing.context["left"]
    assert admin_client_.post(edit_url(club, member, "return")).status_code == 302
    member.refresh_from_db()
    assert member.active
    assert member.left_at is None
    assert member in StartGameForm(club=club).fields["players"].queryset
    assert client_for(member).get(reverse("club:club-home", args=[club.slug])).status_code == 200


def test_a_balance_is_shown_with_the_settle_up_and_leaving_still_works(club, admin_client_, member):
    account = ledger.member_account(member)
    cash = ledger.system_account(club, "cash")
    ledger.post(club, [(account, -12_000), (cash, 12_000)], "Skuld", Source.MANUAL, None)
    page = admin_client_.get(edit_url(club, member)).content.decode()
    assert "120" in page
    assert reverse("ledger:settle", args=[club.slug]) in page
    assert 'data-testid="member-balance"' in page
    admin_client_.post(edit_url(club, member, "leave"))
    member.refresh_from_db()
    assert not member.active
    assert people.balance_ore(member) == -12_000


def test_only_admins_edit_and_another_clubs_member_is_not_found(
    club, member_client, admin_client_, member, outsider
):
    assert member_client.get(edit_url(club, member)).status_code == 403
    assert member_client.post(edit_url(club, member, "leave")).status_code == 403
    assert admin_client_.get(edit_url(club, outsider)).status_code == 404
    assert admin_client_.post(edit_url(club, outsider, "leave")).status_code == 404
    assert Member.objects.get(pk=outsider.pk).active


def test_the_member_list_links_each_member_and_the_csv_and_merge_pages(
    club, admin_client_, member, django_assert_max_num_queries
):
    with django_assert_max_num_queries(12):
        page = admin_client_.get(reverse("club:member-list", args=[club.slug]))
    html = page.content.decode()
    assert edit_url(club, member) in html
    for name in ("members-import", "members-export", "member-merge"):
        assert reverse(f"clubdata:{name}", args=[club.slug]) in html


def test_roles_are_set_through_the_club(club, member):
    set_roles(member, [Role.SCORER])
    people.edit_member(member, name="Maja", swish_number="", email="", roles=[Role.TREASURER])
    assert Member.objects.get(pk=member.pk).roles == {Role.MEMBER, Role.TREASURER}
