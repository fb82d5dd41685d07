"""The error pages: translated, in the app's style, a fragment for htmx, and a 500 page that needs
nothing from the request that failed. DEBUG is off in tests, as in production."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.template import loader
from django.test import Client
from django.urls import reverse
from django.utils import translation

from config import health
from tests.scoring.pad import HTMX

pytestmark = pytest.mark.django_db


@pytest.fixture
def crashing_client(monkeypatch):
    """A client whose /healthz raises, as a view does when its database connection drops."""

    def broken():
        raise connection.Database.OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(health, "report", broken)
    return Client(raise_request_exception=False)


def test_debug_is_off_so_these_are_the_production_pages():
    assert not django_settings.DEBUG


def test_a_crash_answers_the_styled_500_page_in_swedish(crashing_client):
    response = crashing_client.get(reverse("healthz"))
    assert response.status_code == 500
    page = response.content.decode()
    assert "Något gick fel" in page
    assert "Till startsidan" in page
    assert "css/app.css" in page
    assert 'lang="sv"' in page


def test_the_500_page_speaks_english_to_an_english_phone(crashing_client):
    response = crashing_client.get(reverse("healthz"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_htmx_gets_only_the_500_message(crashing_client):
    response = crashing_client.get(reverse("healthz"), **HTMX)
    assert response.status_code == 500
    page = response.content.decode()
    assert "Något gick fel" in page
    assert "<html" not in page


def test_the_500_page_renders_without_any_request_or_database():
    with translation.override("sv"), connection.execute_wrapper(refuse_queries):
        page = loader.get_template("500.html").render()
    assert "Något gick fel" in page


def refuse_queries(*args):
    raise AssertionError("the 500 page must not touch the database")


def test_a_missing_page_is_the_styled_404_in_the_base_layout(member_client):
    response = member_client.get("/c/no-such-club/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Sidan finns inte" in page
    assert 'class="topbar"' in page  # base.html
    assert "Klubbar" in page  # still signed in: the page knows the request


def test_htmx_gets_only_the_404_message(member_client, club):
    response = member_client.get(reverse("scoring:game-detail", args=[club.slug, 999]), **HTMX)
    assert response.status_code == 404
    page = response.content.decode()
    assert "Sidan finns inte" in page
    assert "<html" not in page


def test_a_role_refusal_is_the_styled_403_saying_why(member_client, club):
    response = member_client.get(reverse("ledger:payment", args=[club.slug]))
    assert response.status_code == 403
    page = response.content.decode()
    assert "Du får inte göra detta" in page
    assert "Din roll i klubben tillåter inte detta." in page


def test_an_oversized_request_is_the_styled_400(member_client, club):
    url = reverse("club:member-list", args=[club.slug])
    response = member_client.post(
        url, {"name": "x" * (django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}
    )
    assert response.status_code == 400
    assert "Begäran gick inte att läsa" in response.content.decode()


def test_too_many_fields_are_the_styled_400(member_client, club):
    url = reverse("club:member-list", args=[club.slug])
    fields = {f"f{n}": "1" for n in range(django_settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    response = member_client.post(url, fields)
    assert response.status_code == 400


def test_an_expired_form_is_the_styled_csrf_page(member, club):
    client = Client(enforce_csrf_checks=True)
    client.force_login(member.user)
    response = client.post(reverse("club:member-list", args=[club.slug]), {"name": "Ny"})
    assert response.status_code == 403
    assert "Formuläret hade gått ut" in response.content.decode()


def test_a_request_for_a_foreign_host_is_the_styled_400_before_any_middleware_ran(client):
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert "Begäran gick inte att läsa" in response.content.decode()
