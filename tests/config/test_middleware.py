"""Headers every answer gets: private pages are not stored, powerful browser features are denied;
and the address failed logins are counted against, behind zero or more proxies."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils.cache import get_max_age

from club.seasons import current_season
from config.middleware import client_ip, permissions_policy_header
from ledger import exports, season_statements
from tests.factories import ledger_url_name, make_member

pytestmark = pytest.mark.django_db


def directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


def test_a_signed_in_page_is_private_and_never_stored(member_client, club):
    response = member_client.get(reverse("club:club-home", args=[club.slug]))
    assert response.status_code == 200
    assert directives(response) == {"private", "no-store"}


def test_a_redirect_for_a_signed_in_member_is_not_stored_either(member_client):
    response = member_client.get(reverse("club:home"))
    assert response.status_code == 302
    assert directives(response) == {"private", "no-store"}


def test_a_public_page_for_a_visitor_is_left_to_the_browser(client):
    response = client.get(reverse("scoring:calculators"))
    assert response.status_code == 200
    assert not response.has_header("Cache-Control")


def test_the_invite_page_is_not_stored_even_signed_out(client, club):
    invited = make_member(club, "Ivar Inbjuden", login=False)
    token = invited.new_invite()
    response = client.get(reverse("invite-accept", args=[token]))
    assert response.status_code == 200
    assert directives(response) == {"private", "no-store"}
    # A dead link too: the token is in the address either way.
    assert directives(client.get(reverse("invite-accept", args=["nope"]))) == {
        "private",
        "no-store",
    }


def test_exports_and_statements_are_not_stored(treasurer_client, club):
    job = exports.start_season_statement(club, current_season(club), None, None, "sv")
    season_statements.build_season_statement(job.pk)
    urls = [
        reverse(ledger_url_name(name), args=[club.slug])
        for name in ("export-transactions", "export-balances", "export-list")
    ] + [
        reverse(ledger_url_name(name), args=[club.slug, job.pk])
        for name in ("export-job", "export-document")
    ]
    # …and one's own statement, where "my statement" leads.
    urls.append(treasurer_client.get(reverse("ledger:me", args=[club.slug]))["Location"])
    for url in urls:
        response = treasurer_client.get(url)
        assert response.status_code == 200, url
        assert directives(response) == {"private", "no-store"}, url


def test_the_manifest_and_the_worker_keep_their_own_cache_rules(member_client):
    manifest = member_client.get(reverse("manifest"))
    assert directives(manifest) == {"public", "max-age=3600"}
    assert get_max_age(manifest) == 3600
    worker = member_client.get(reverse("service-worker"))
    assert directives(worker) == {"no-cache"}


def test_every_answer_denies_the_features_the_app_never_uses(client, member_client, club):
    answers = [
        client.get(reverse("login")),
        client.get(reverse("healthz")),
        client.get("/no-such-page/"),
        client.get("/calc"),  # CommonMiddleware's redirect to "/calc/"
        member_client.get(reverse("club:club-home", args=[club.slug])),
        member_client.post(reverse("scoring:game-event", args=[club.slug, 999])),
    ]
    for response in answers:
        policy = response["Permissions-Policy"]
        for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
            assert f"{feature}=()" in policy, (response.status_code, feature)
        assert "interest-cohort=()" in policy


def test_the_policy_header_is_written_as_the_standard_says():
    assert permissions_policy_header({"camera": [], "fullscreen": ["self"]}) == (
        "camera=(), fullscreen=(self)"
    )


def test_the_content_security_policy_stays_strict(client):
    csp = client.get(reverse("login"))["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "object-src 'none'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp
    assert "unsafe-eval" not in csp


# --- client_ip: the address django-axes counts against -----------------------------------


def request_from(remote: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post("/login/", **extra)


def test_without_a_proxy_the_forwarded_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = 0
    assert client_ip(request_from("203.0.113.7", "198.51.100.1")) == "203.0.113.7"


def test_behind_one_proxy_the_client_is_the_address_the_proxy_appended(settings):
    settings.TRUSTED_PROXIES = 1
    # The client wrote "1.2.3.4" itself; the proxy appended what it saw.
    request = request_from("127.0.0.1", "1.2.3.4, 198.51.100.20")
    assert client_ip(request) == "198.51.100.20"


def test_behind_two_proxies_the_outer_proxys_entry_counts(settings):
    settings.TRUSTED_PROXIES = 2
    request = request_from("10.0.0.2", "1.2.3.4, 198.51.100.20, 10.0.0.1")
    assert client_ip(request) == "198.51.100.20"


@pytest.mark.parametrize("forwarded", [None, "", "not-an-address", "1.2.3.4\x00"])
def test_a_missing_or_broken_forwarded_header_falls_back_to_the_peer(settings, forwarded):
    settings.TRUSTED_PROXIES = 1
    assert client_ip(request_from("127.0.0.1", forwarded)) == "127.0.0.1"
