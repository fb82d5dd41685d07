from __future__ import annotations

import pytest
import time_machine
from django.urls import reverse

from club.models import Member, Role, User
from tests.conftest import client_for
from tests.factories import PASSWORD, make_member


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
    assert response.status_code == 404
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
