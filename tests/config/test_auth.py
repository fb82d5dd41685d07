"""Logins: password guessing is throttled per username and address (django-axes), members change
their password and reset a forgotten one by e-mail, and the mail settings come from the
environment."""

from __future__ import annotations

import re
import runpy
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse
from django.utils.http import urlsafe_base64_encode

from tests.factories import PASSWORD, make_member

pytestmark = pytest.mark.django_db

SETTINGS_FILE = Path(django_settings.BASE_DIR) / "config" / "settings.py"
NEW_PASSWORD = "nytt-lösen-för-kortbordet-7"


def log_in(client: Client, username: str, password: str, address: str = "127.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def signed_in(client: Client) -> bool:
    return SESSION_KEY in client.session


# --- throttling -----------------------------------------------------------------------------


@pytest.fixture
def limit(settings) -> int:
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    return 3


def test_the_nth_wrong_password_locks_out_and_says_how_long_to_wait(client, member, limit):
    name = member.user.username
    for _ in range(limit - 1):
        response = log_in(client, name, "fel")
        assert response.status_code == 200  # the login form with its error
    response = log_in(client, name, "fel")
    assert response.status_code == 429
    page = response.content.decode()
    assert "För många försök" in page
    assert "Vänta 15 minuter" in page
    assert 'href="/static/css/app.css"' in page  # the base layout, not a bare message


def test_the_right_password_is_refused_until_the_cool_off_is_over(client, member, limit):
    name = member.user.username
    with time_machine.travel("2026-05-02 20:00 +0200", tick=False) as clock:
        for _ in range(limit):
            log_in(client, name, "fel")
        clock.shift(timedelta(minutes=14))
        assert log_in(client, name, PASSWORD).status_code == 429
        assert not signed_in(client)
        # That refused try counts as a failure: the wait starts again from it.
        clock.shift(timedelta(minutes=14))
        assert log_in(client, name, PASSWORD).status_code == 429
        clock.shift(timedelta(minutes=16))
        assert log_in(client, name, PASSWORD).status_code == 302
        assert signed_in(client)


def test_a_locked_out_member_does_not_lock_out_another(client, member, limit):
    other = make_member(member.club, "Greta Granne")
    for _ in range(limit):
        log_in(client, member.user.username, "fel")
    # Same phone, same address, another member: in.
    response = log_in(Client(), other.user.username, PASSWORD)
    assert response.status_code == 302
    # And the guessed-at member from another address: in too.
    response = log_in(Client(), member.user.username, PASSWORD, address="198.51.100.23")
    assert response.status_code == 302


def test_a_good_login_forgets_the_earlier_typos(client, member, limit):
    name = member.user.username
    for _ in range(limit - 1):
        log_in(client, name, "fel")
    assert log_in(client, name, PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for _ in range(limit - 1):
        assert log_in(client, name, "fel").status_code == 200
    assert log_in(client, name, PASSWORD).status_code == 302


@pytest.mark.parametrize(
    "username", ["maja\x00", "x" * 10_000, "'; DROP TABLE axes_accessattempt; --", "١٢٣"]
)
def test_a_hostile_username_is_a_form_error_not_a_server_error(client, member, username):
    response = log_in(client, username, "fel")
    assert response.status_code == 200
    assert not signed_in(client)


def test_the_lockout_page_speaks_english_too(client, member, limit):
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    for _ in range(limit):
        response = log_in(client, member.user.username, "fel")
    assert response.status_code == 429
    assert "Wait 15 minutes before you try again" in response.content.decode()


# --- changing the password -------------------------------------------------------------------


def test_a_member_changes_her_password_and_stays_signed_in(member_client, member):
    response = member_client.post(
        reverse("password-change"),
        {
            "old_password": PASSWORD,
            "new_password1": NEW_PASSWORD,
            "new_password2": NEW_PASSWORD,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password-change-done")
    assert "Lösenordet är bytt" in member_client.get(response["Location"]).content.decode()
    member.user.refresh_from_db()
    assert member.user.check_password(NEW_PASSWORD)
    assert member_client.get(reverse("club:club-list")).status_code == 200


def test_a_wrong_old_password_changes_nothing(member_client, member):
    response = member_client.post(
        reverse("password-change"),
        {"old_password": "fel", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert "gamla lösenord var felaktigt" in response.content.decode()
    member.user.refresh_from_db()
    assert member.user.check_password(PASSWORD)


def test_changing_the_password_needs_a_login(client):
    response = client.get(reverse("password-change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_club_list_leads_to_the_password_and_the_address(member_client):
    page = member_client.get(reverse("club:club-list")).content.decode()
    assert f'href="{reverse("password-change")}"' in page
    assert f'href="{reverse("account")}"' in page


# --- the address for a forgotten password ----------------------------------------------------


def test_a_member_saves_the_address_a_reset_link_goes_to(member_client, member):
    response = member_client.post(reverse("account"), {"email": "maja@example.se"})
    assert response.status_code == 302
    member.user.refresh_from_db()
    assert member.user.email == "maja@example.se"
    assert "sparad" in member_client.get(reverse("account")).content.decode()


def test_a_broken_address_is_refused_and_changes_nothing(member_client, member):
    response = member_client.post(reverse("account"), {"email": "maja@\x00example"})
    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    member.user.refresh_from_db()
    assert member.user.email == ""


# --- resetting a forgotten password ----------------------------------------------------------


def test_the_login_page_offers_a_reset(client):
    page = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password-reset")}"' in page
    assert "Glömt lösenordet?" in page


def test_a_forgotten_password_is_reset_through_the_mailed_link(client, member):
    member.user.email = "maja@example.se"
    member.user.save(update_fields=["email"])

    response = client.post(reverse("password-reset"), {"email": "MAJA@example.se"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password-reset-sent")
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["maja@example.se"]
    assert sent.from_email == django_settings.DEFAULT_FROM_EMAIL
    assert sent.subject == "Ett nytt lösenord till Protokoll"
    assert member.user.username in sent.body
    link = re.search(r"http://testserver(/password-reset/\S+/\S+/)", sent.body).group(1)

    form_page = client.get(link, follow=True)
    assert form_page.status_code == 200
    assert "Välj ett nytt lösenord" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    response = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("password-reset-done")

    assert log_in(Client(), member.user.username, PASSWORD).status_code == 200
    assert log_in(Client(), member.user.username, NEW_PASSWORD).status_code == 302
    # The link works once.
    again = Client().get(link, follow=True).content.decode()
    assert "Länken fungerar inte" in again


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client, member):
    response = client.post(reverse("password-reset"), {"email": "okand@example.se"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password-reset-sent")
    assert mail.outbox == []


@pytest.mark.parametrize("email", ["maja\x00@example.se", "m" * 10_000 + "@example.se", "١@٢.se"])
def test_a_hostile_address_gets_a_form_error_and_no_mail(client, member, email):
    response = client.post(reverse("password-reset"), {"email": email})
    assert response.status_code == 200
    assert mail.outbox == []


@pytest.mark.parametrize(
    "uidb64",
    [
        "A" * 4000,
        urlsafe_base64_encode(b"99999999999999999999999999"),
        urlsafe_base64_encode(b"1\x00"),
        "%00",
    ],
)
def test_a_forged_reset_link_says_it_does_not_work(client, member, uidb64):
    url = reverse("password-reset-confirm", args=[uidb64, "set-password"])
    response = client.get(url, follow=True)
    assert response.status_code == 200
    assert "Länken fungerar inte" in response.content.decode()


def test_the_reset_mail_is_in_english_for_an_english_page(client, member):
    member.user.email = "maja@example.se"
    member.user.save(update_fields=["email"])
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    client.post(reverse("password-reset"), {"email": "maja@example.se"})
    assert mail.outbox[0].subject == "A new password for Protokoll"
    assert "Choose a new password here" in mail.outbox[0].body


# --- mail settings from the environment ------------------------------------------------------


def settings_with(monkeypatch, **environ) -> dict:
    """The settings module as it reads this environment (on a laptop unless DEBUG=0)."""
    for name in ("DEBUG", "EMAIL_BACKEND", "EMAIL_USE_SSL", "EMAIL_USE_TLS", "EMAIL_PORT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "a-long-random-production-secret-key-with-enough-entropy-1234567890",
    "AUDIT_KEY": "a-long-random-audit-key-kept-outside-the-database-1234567890",
}


def test_mail_goes_to_the_console_on_a_laptop(monkeypatch):
    conf = settings_with(monkeypatch)
    assert conf["MAILERS"]["default"] == {
        "BACKEND": "django.core.mail.backends.console.EmailBackend",
        "OPTIONS": {},
    }


def test_production_sends_mail_by_smtp_unless_told_otherwise(monkeypatch):
    conf = settings_with(monkeypatch, **PRODUCTION)
    assert conf["MAILERS"]["default"]["BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    console = settings_with(
        monkeypatch, **PRODUCTION, EMAIL_BACKEND="django.core.mail.backends.console.EmailBackend"
    )
    assert console["MAILERS"]["default"]["OPTIONS"] == {}


def test_a_mail_server_that_does_not_answer_is_logged_not_a_server_error(
    client, member, settings, caplog
):
    member.user.email = "maja@example.se"
    member.user.save(update_fields=["email"])
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            # Port 9 (discard) on this machine: nothing listens, the connection is refused.
            "OPTIONS": {"host": "127.0.0.1", "port": 9, "timeout": 2, "use_tls": False},
        }
    }
    response = client.post(reverse("password-reset"), {"email": "maja@example.se"})
    assert response.status_code == 302
    assert "Failed to send password reset email" in caplog.text


def test_smtp_is_configured_from_the_environment(monkeypatch):
    conf = settings_with(
        monkeypatch,
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="smtp.example.se",
        EMAIL_HOST_USER="klubben",
        EMAIL_HOST_PASSWORD="hemligt",
        DEFAULT_FROM_EMAIL="Klubben <klubben@example.se>",
    )
    options = conf["MAILERS"]["default"]["OPTIONS"]
    assert options["host"] == "smtp.example.se"
    assert (options["port"], options["use_tls"], options["use_ssl"]) == (587, True, False)
    assert (options["username"], options["password"]) == ("klubben", "hemligt")
    assert conf["DEFAULT_FROM_EMAIL"] == "Klubben <klubben@example.se>"

    ssl = settings_with(
        monkeypatch, EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend", EMAIL_USE_SSL="1"
    )
    options = ssl["MAILERS"]["default"]["OPTIONS"]
    assert (options["port"], options["use_tls"], options["use_ssl"]) == (465, False, True)


@pytest.mark.parametrize(
    "name",
    [
        "LOGIN_FAILURE_LIMIT",
        "LOGIN_IP_FAILURE_LIMIT",
        "LOGIN_COOLOFF_MINUTES",
        "PASSWORD_RESET_MAILS_PER_ADDRESS",
        "PASSWORD_RESET_MAILS_PER_CLIENT",
        "CACHE_TIMEOUT_SECONDS",
    ],
)
def test_a_throttle_of_zero_stops_the_app(monkeypatch, name):
    monkeypatch.setenv(name, "0")
    with pytest.raises(ImproperlyConfigured):
        runpy.run_path(str(SETTINGS_FILE))


def test_the_throttle_defaults_are_five_tries_and_a_quarter_of_an_hour(monkeypatch):
    monkeypatch.delenv("LOGIN_FAILURE_LIMIT", raising=False)
    monkeypatch.delenv("LOGIN_COOLOFF_MINUTES", raising=False)
    conf = runpy.run_path(str(SETTINGS_FILE))
    assert conf["AXES_FAILURE_LIMIT"] == 5
    assert conf["AXES_COOLOFF_TIME"] == timedelta(minutes=15)
    assert conf["AXES_LOCKOUT_PARAMETERS"] == [["username", "ip_address"], "ip_address"]
    assert conf["LOGIN_IP_FAILURE_LIMIT"] == 20
