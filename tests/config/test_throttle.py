"""Limits on strangers (``config.throttle``): a few reset mails per address and per client an
hour, the page answering the same either way; login guesses counted per address across
usernames too, with a higher limit."""

from __future__ import annotations

import pytest
from django.contrib.auth import SESSION_KEY
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD, make_member

pytestmark = pytest.mark.django_db


def ask_reset(client: Client, email: str, address: str = "127.0.0.1"):
    response = client.post(reverse("password-reset"), {"email": email}, REMOTE_ADDR=address)
    assert response.status_code == 302
    assert response["Location"] == reverse("password-reset-sent")  # whatever happened
    return response


@pytest.fixture
def maja(member):
    member.user.email = "maja@example.se"
    member.user.save(update_fields=["email"])
    return member


def test_thirty_requests_for_one_address_send_three_mails(client, maja, settings):
    assert settings.PASSWORD_RESET_MAILS_PER_ADDRESS == 3
    for number in range(30):
        ask_reset(client, "maja@example.se", address=f"10.0.0.{number}")
    assert len(mail.outbox) == 3


def test_the_address_is_counted_whatever_its_case(client, maja, settings):
    settings.PASSWORD_RESET_MAILS_PER_ADDRESS = 1
    ask_reset(client, "maja@example.se")
    ask_reset(client, "MAJA@Example.se", address="10.0.0.2")
    assert len(mail.outbox) == 1


def test_one_client_gets_a_few_mails_an_hour_for_any_addresses(client, club, settings):
    settings.PASSWORD_RESET_MAILS_PER_CLIENT = 4
    members = [make_member(club, f"Spelare {number}") for number in range(8)]
    for number, someone in enumerate(members):
        someone.user.email = f"spelare{number}@example.se"
        someone.user.save(update_fields=["email"])
        ask_reset(client, someone.user.email, address="10.1.1.1")
    assert len(mail.outbox) == 4
    ask_reset(client, "spelare7@example.se", address="10.2.2.2")  # another client
    assert len(mail.outbox) == 5


def test_the_limit_is_per_hour(client, maja, settings, time_machine):
    settings.PASSWORD_RESET_MAILS_PER_ADDRESS = 1
    time_machine.move_to("2026-03-01 12:10:00+01:00", tick=False)
    ask_reset(client, "maja@example.se")
    ask_reset(client, "maja@example.se")
    assert len(mail.outbox) == 1
    time_machine.move_to("2026-03-01 13:10:00+01:00", tick=False)
    ask_reset(client, "maja@example.se")
    assert len(mail.outbox) == 2


def test_an_unknown_address_over_the_limit_answers_the_same(client, maja, settings):
    settings.PASSWORD_RESET_MAILS_PER_ADDRESS = 1
    answers = [ask_reset(client, email) for email in ("okand@example.se",) * 3]
    known = [ask_reset(client, "maja@example.se", address="10.9.9.9") for _ in range(3)]
    assert {(r.status_code, r["Location"], r.content) for r in answers + known} == {
        (302, reverse("password-reset-sent"), b"")
    }


# --- login guesses per address ---------------------------------------------------------------


def guess(username: str, address: str, password: str = "fel"):
    return Client().post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_guesses_spread_over_many_usernames_lock_out_the_address(club, member, settings):
    assert settings.LOGIN_IP_FAILURE_LIMIT == 20
    statuses = [
        guess(f"gissning{name}", "203.0.113.7").status_code
        for name in range(20)
        for _ in range(4)  # below the per-username limit of 5 for each
    ]
    assert statuses.count(429) == 80 - 19  # the 20th guess locks the address
    # Even the right password, from there; another address is not affected.
    assert guess(member.user.username, "203.0.113.7", PASSWORD).status_code == 429
    assert guess(member.user.username, "198.51.100.1", PASSWORD).status_code == 302


def test_a_good_login_resets_only_its_own_count_not_the_address(club, member, settings):
    settings.LOGIN_IP_FAILURE_LIMIT = 6
    for name in range(5):
        assert guess(f"gissning{name}", "203.0.113.8").status_code == 200
    signed_in = Client()
    response = signed_in.post(
        reverse("login"),
        {"username": member.user.username, "password": PASSWORD},
        REMOTE_ADDR="203.0.113.8",
    )
    assert response.status_code == 302
    assert SESSION_KEY in signed_in.session
    assert guess("gissning9", "203.0.113.8").status_code == 429  # the sixth guess from there
