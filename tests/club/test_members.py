from __future__ import annotations

import pytest
import time_machine
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from club import members
from club.models import Member, Role, User
from tests.concurrency import at_once, postgres_only
from tests.conftest import client_for
from tests.factories import PASSWORD, make_club, make_member


def test_an_admin_adds_a_member_with_roles(admin_client_, club):
    response = admin_client_.post(
        reverse("club:member-list", args=[club.slug]),
        {"name": "Nils Ny", "swish_number": "0709999999", "roles": ["scorer"]},
    )
    assert response.status_code == 302
    nils = Member.objects.get(club=club, name="Nils Ny")
    assert nils.user is None
    assert nils.has_role(Role.SCORER)
    assert not nils.has_role(Role.TREASURER)


def test_a_duplicate_name_is_a_form_error_and_nothing_is_added(admin_client_, club, member):
    response = admin_client_.post(
        reverse("club:member-list", args=[club.slug]), {"name": member.name.upper()}
    )
    assert response.status_code == 200
    assert response.context["form"].has_error("name", code="duplicate")
    assert "är redan medlem" in response.content.decode()
    assert Member.objects.filter(club=club).count() == 2


def test_a_plain_member_cannot_add_members(member_client, club):
    response = member_client.post(
        reverse("club:member-list", args=[club.slug]), {"name": "Smyg Smygsson"}
    )
    assert response.status_code == 403
    assert not Member.objects.filter(name="Smyg Smygsson").exists()


def test_an_invite_link_lets_the_person_set_a_password_once(admin_client_, club, client):
    invited = make_member(club, "Ingrid Inbjuden", login=False)
    response = admin_client_.post(reverse("club:member-invite", args=[club.slug, invited.pk]))
    link = response.context["link"]
    path = link.split("testserver", 1)[1]

    page = client.get(path)
    assert page.status_code == 200
    assert "Ingrid Inbjuden" in page.content.decode()
    response = client.post(
        path, {"username": "ingrid", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    invited.refresh_from_db()
    assert invited.user == User.objects.get(username="ingrid")
    # The link is used up.
    assert client.get(path).status_code == 404


def test_an_invite_expires_after_two_weeks(admin_client_, club, client):
    invited = make_member(club, "Sen Svensson", login=False)
    response = admin_client_.post(reverse("club:member-invite", args=[club.slug, invited.pk]))
    path = response.context["link"].split("testserver", 1)[1]
    with time_machine.travel("2099-01-01"):
        assert client.get(path).status_code == 404


def test_only_admins_invite(member_client, club):
    invited = make_member(club, "Nej Nejsson", login=False)
    response = member_client.post(reverse("club:member-invite", args=[club.slug, invited.pk]))
    assert response.status_code == 403


def test_a_user_in_two_clubs_switches_between_them(club, other_club, member):
    from club.members import add_member

    add_member(other_club, "Maja Medlem", user=member.user)
    client = client_for(member)
    response = client.post(reverse("club:club-switch", args=[other_club.slug]))
    assert response["Location"] == reverse("club:club-home", args=[other_club.slug])
    assert client.get(reverse("club:home"))["Location"] == reverse(
        "club:club-home", args=[other_club.slug]
    )
    page = client.get(reverse("club:club-list")).content.decode()
    assert club.name in page
    assert other_club.name in page


def test_switching_to_a_club_one_is_not_in_is_404(member_client, other_club):
    assert (
        member_client.post(reverse("club:club-switch", args=[other_club.slug])).status_code == 404
    )


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_the_login_page_speaks_both_languages(client, lang):
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=lang)
    text = response.content.decode()
    assert ("Logga in" if lang == "sv" else "Log in") in text


# --- hostile input and races ------------------------------------------------------------------


def invite_path(admin_client_, club, member) -> str:
    response = admin_client_.post(reverse("club:member-invite", args=[club.slug, member.pk]))
    return response.context["link"].split("testserver", 1)[1]


def accept(client, path, username):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(path, data)


def test_an_invite_accepted_by_a_second_request_at_once_is_a_clean_refusal(
    admin_client_, club, client, monkeypatch
):
    invited = make_member(club, "Ingrid Inbjuden", login=False)
    path = invite_path(admin_client_, club, invited)
    # The second phone read the invite before the first one used it (a double tap).
    stale = Member.objects.get(pk=invited.pk)
    assert accept(client, path, "ingrid").status_code == 302
    monkeypatch.setattr(members, "member_for_invite", lambda token: stale)
    response = accept(Client(), path, "ingrid2")
    assert response.status_code == 409
    assert "fungerar inte" in response.content.decode()  # "This invite link does not work"
    assert list(User.objects.filter(members__club=club, username__startswith="ingrid")) == [
        User.objects.get(username="ingrid")
    ]


def test_a_user_name_taken_a_moment_ago_is_refused_without_a_database_error(club):
    invited = make_member(club, "Ingrid Inbjuden", login=False)
    invited.new_invite()
    User.objects.create_user("ingrid", password=PASSWORD)
    with pytest.raises(ValidationError) as excinfo:
        members.accept_invite(invited, "ingrid", PASSWORD)
    assert excinfo.value.code == "username_taken"
    invited.refresh_from_db()
    assert invited.user is None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_accepting_one_invite_at_once_make_one_login():
    postgres_only()
    club = make_club()
    invited = make_member(club, "Ingrid Inbjuden", login=False)
    path = reverse("invite-accept", args=[invited.new_invite()])

    def phone(username: str) -> int:
        return accept(Client(raise_request_exception=False), path, username).status_code

    statuses = at_once(phone, ["ingrid", "ingrid2"])
    assert sorted(statuses)[0] == 302
    assert sorted(statuses)[1] in (404, 409)  # the invite was used a moment before
    invited.refresh_from_db()
    assert invited.user is not None
    assert User.objects.filter(username__startswith="ingrid").count() == 1


@pytest.mark.parametrize("token", ["\x00", "a\x00" * 30, "x" * 300, "ö" * 43])
def test_an_invite_link_that_the_app_never_made_is_not_found(client, token):
    response = client.get(reverse("invite-accept", args=[token]))
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "Nils\x00"),
        ("name", "Nils\x1b[31m"),
        ("name", "N" * 101),
        ("swish_number", "٠٧٠٩٩٩٩٩٩٩"),
        ("swish_number", "07\x0099"),
    ],
)
def test_a_name_or_swish_number_no_column_can_hold_is_a_form_error(
    admin_client_, club, field, value
):
    data = {"name": "Nils Ny", "swish_number": "0709999999"} | {field: value}
    response = admin_client_.post(reverse("club:member-list", args=[club.slug]), data)
    assert response.status_code == 200
    assert response.context["form"].has_error(field)
    assert not Member.objects.filter(club=club, name__startswith="N").exists()
