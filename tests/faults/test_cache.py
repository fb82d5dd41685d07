"""The cache goes away (a Redis at a closed port): members still sign in and use the app,
sessions read through to the database, the error is logged once a minute at most, reset mails
stay limited, and /healthz says the cache is down. With the real Redis everything is ok, and a
session logged out while the cache was away stays logged out when it is back."""

from __future__ import annotations

import uuid

import pytest
import redis
from django.contrib.auth import SESSION_KEY
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from config import cache as cache_guard
from tests.factories import PASSWORD
from tests.faults.conftest import closed_port, redis_answers

pytestmark = pytest.mark.django_db

REAL_REDIS = "redis://127.0.0.1:6379/15"


def redis_cache(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            # Each test its own keys: the suite runs in parallel against one Redis.
            "KEY_PREFIX": uuid.uuid4().hex,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }


@pytest.fixture
def use_cache(settings):
    """``use_cache(url)`` points the default cache at a Redis (Django drops the connections it
    holds when CACHES changes); the guard starts each test with the cache up."""
    cache_guard.state.reset()

    def point_at(url: str) -> None:
        settings.CACHES = redis_cache(url)

    yield point_at
    cache_guard.state.reset()


@pytest.fixture
def dead_cache(use_cache):
    use_cache(f"redis://127.0.0.1:{closed_port()}/0")


@pytest.fixture
def real_cache(use_cache, settings):
    if not redis_answers():
        pytest.skip("no Redis answers at 127.0.0.1:6379")
    use_cache(REAL_REDIS)
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    yield
    # This test's keys only: other workers use the same Redis database at the same time.
    with redis.Redis.from_url(REAL_REDIS) as server:
        for key in server.scan_iter(f"{prefix}:*"):
            server.delete(key)


def log_in(client: Client, member) -> None:
    response = client.post(
        reverse("login"), {"username": member.user.username, "password": PASSWORD}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    assert SESSION_KEY in client.session


def test_with_the_cache_down_a_member_logs_in_and_uses_the_app(
    dead_cache, client, member, club, caplog
):
    log_in(client, member)
    for _ in range(3):
        assert client.get(reverse("club:club-home", args=[club.slug])).status_code == 200
    assert client.post(reverse("logout")).status_code == 302
    assert client.get(reverse("club:club-home", args=[club.slug])).status_code == 302
    assert caplog.text.count("cache unreachable") == 1  # once a minute, not once a call


def test_with_the_cache_down_healthz_says_the_cache_is_down(dead_cache, client):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200  # the app serves: see config/health.py
    body = response.json()
    assert body["ok"] is False
    assert body["down"] == ["cache"]
    assert body["cache"].startswith("error: ")
    assert body["database"] == "ok"


def test_with_the_cache_down_reset_mails_stay_limited(dead_cache, client, member, settings):
    settings.PASSWORD_RESET_MAILS_PER_ADDRESS = 2
    member.user.email = "maja@example.se"
    member.user.save(update_fields=["email"])
    for _ in range(5):
        response = client.post(reverse("password-reset"), {"email": "maja@example.se"})
        assert response.status_code == 302
    assert len(mail.outbox) == 2


def test_with_the_real_redis_everything_is_ok(real_cache, client, member, club):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json()["ok"] is True
    assert response.json()["cache"] == "ok"
    log_in(client, member)
    assert client.get(reverse("club:club-home", args=[club.slug])).status_code == 200
    assert cache.get("django.contrib.sessions.cached_db" + client.session.session_key)


def test_a_session_logged_out_while_the_cache_was_away_stays_logged_out(
    real_cache, settings, client, member, club
):
    log_in(client, member)
    page = reverse("club:club-home", args=[club.slug])
    assert client.get(page).status_code == 200  # the session is in the cache now
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    up = settings.CACHES

    settings.CACHES = redis_cache(f"redis://127.0.0.1:{closed_port()}/0")
    assert client.post(reverse("logout")).status_code == 302  # deleted from the database only

    settings.CACHES = up  # back, with the logged-out session's copy still in it
    cache_guard.state.skip_until = 0  # the few seconds the guard waits have passed
    thief = Client()
    thief.cookies[settings.SESSION_COOKIE_NAME] = cookie
    assert thief.get(page).status_code == 302
