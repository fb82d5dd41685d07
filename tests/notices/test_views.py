"""The unsubscribe link (no login; GET asks, POST and the mail client's one-click POST turn the
kind off; idempotent; hostile tokens 404) and the member's mail page."""

from __future__ import annotations

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from notices import mail as mails
from notices.models import MailChoice, OwedMail
from tests.conftest import client_for
from tests.notices.conftest import with_address


@pytest.fixture
def anna(club):
    return with_address(club, "Anna Ås", "anna@example.org")


def link(member, kind="report"):
    return reverse("notices:unsubscribe", args=[mails.unsubscribe_token(member, kind)])


def wants(member, kind="report"):
    choice = MailChoice.objects.filter(member=member).first()
    return choice is None or choice.wants(kind)


def test_get_asks_and_does_not_unsubscribe(anna):
    response = Client().get(link(anna))
    assert response.status_code == 200
    assert "Sluta skicka e-post om kvällsrapporten till mig" in response.text
    assert wants(anna)


def test_the_one_click_post_unsubscribes_without_login_or_csrf_and_again_changes_nothing(anna):
    client = Client(enforce_csrf_checks=True)
    for _attempt in range(2):
        response = client.post(
            link(anna),
            "List-Unsubscribe=One-Click",
            content_type="application/x-www-form-urlencoded",
        )
        assert response.status_code == 200
        assert "skickar ingen mer e-post om kvällsrapporten" in response.text
    assert not wants(anna)
    assert wants(anna, "invitation")  # only the kind the link names
    assert MailChoice.objects.filter(member=anna).count() == 1


def test_the_page_s_button_unsubscribes_in_english(anna, in_english):
    response = Client().post(link(anna, "reminder"))
    assert "sends you no more mail about reminders the day before" in response.text
    assert not wants(anna, "reminder")


def _signed(payload, salt=None):
    """A signed token made when the test runs: a signature carries the time, so made at
    collection it would differ between xdist workers and fail the run."""
    return lambda: signing.dumps(payload, salt=salt or mails.UNSUBSCRIBE_SALT)


@pytest.mark.parametrize(
    "token",
    [
        "x",
        "eyJtIjoxLCJrIjoicmVwb3J0In0:1xX7kH:forged",
        _signed({"m": 1, "k": "report"}, salt="another.salt"),
        _signed({"m": 1, "k": "spam"}),
        _signed({"m": "1", "k": "report"}),
        _signed([1, "report"]),
        _signed({"m": 10**30, "k": "report"}),
        "%00",
        "a" * 500,
    ],
    ids=[
        "short",
        "forged",
        "another-salt",
        "unknown-kind",
        "member-as-text",
        "a-list",
        "huge-member",
        "nul",
        "long",
    ],
)
def test_hostile_tokens_are_not_found(db, token):
    token = token() if callable(token) else token
    for method in ("get", "post"):
        response = getattr(Client(), method)(f"/mail/unsubscribe/{token}/")
        assert response.status_code == 404


def test_a_token_for_a_member_who_is_gone_is_not_found(db):
    token = signing.dumps({"m": 999999, "k": "report"}, salt=mails.UNSUBSCRIBE_SALT)
    assert Client().get(f"/mail/unsubscribe/{token}/").status_code == 404


def test_the_member_chooses_his_mail_and_its_language(club, anna):
    client = client_for(anna)
    url = reverse("notices:choices", args=[club.slug])
    response = client.get(url)
    assert response.status_code == 200
    assert "Vilken e-post vill du ha?" in response.text
    assert "Mail that could not be sent" not in response.text
    assert "E-post som inte kunde skickas" not in response.text  # not an admin
    response = client.post(
        url, {"invitation": "on", "reminder": "on", "promotion": "", "language": "en"}
    )
    assert response.status_code == 302
    choice = MailChoice.objects.get(member=anna)
    assert (choice.invitation, choice.reminder, choice.promotion, choice.report) == (
        True,
        True,
        False,
        False,
    )
    assert choice.language == "en"


def test_the_choice_is_made_in_the_language_of_the_page_it_was_first_seen_on(club, anna):
    client = client_for(anna)
    client.cookies["django_language"] = "en"
    client.get(reverse("notices:choices", args=[club.slug]))
    assert MailChoice.objects.get(member=anna).language == "en"


def test_a_member_without_an_address_is_told_so(club, member_client):
    response = member_client.get(reverse("notices:choices", args=[club.slug]))
    assert "Klubben har ingen e-postadress till dig" in response.text


def test_the_admin_sees_mail_that_failed(club, anna, admin_member):
    OwedMail.objects.create(
        club=club,
        kind="report",
        object_id=1,
        member=anna,
        status="failed",
        attempts=8,
        last_error="ConnectionRefusedError: the mail server is away",
    )
    response = client_for(admin_member).get(reverse("notices:choices", args=[club.slug]))
    assert "E-post som inte kunde skickas" in response.text
    assert "Anna Ås" in response.text
    assert "the mail server is away" in response.text


def test_another_club_s_member_gets_404(club, outsider):
    response = client_for(outsider).get(reverse("notices:choices", args=[club.slug]))
    assert response.status_code == 404


def test_the_start_page_links_to_the_mail_page_and_tells_the_admin_of_failures(
    club, anna, admin_member
):
    home = reverse("club:club-home", args=[club.slug])
    mail_page = reverse("notices:choices", args=[club.slug])
    assert mail_page in client_for(anna).get(home).text
    OwedMail.objects.create(
        club=club, kind="report", object_id=1, member=anna, status="failed", attempts=8
    )
    assert "1 e-brev kunde inte skickas" in client_for(admin_member).get(home).text
    assert "kunde inte skickas" not in client_for(anna).get(home).text
