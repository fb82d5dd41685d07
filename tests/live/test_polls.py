"""The poll that finds nothing new, answered from the shared cache (live.polls) — on a real
Redis, as production shares it between processes: no session and no query for the newest seq;
an older seq, a forged proof, a cache turned off or down, all go to the ordinary poll view,
which asks the database. A stale mark always wins over a late "current"."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from django.test import Client
from django.urls import reverse

from config import cache as cache_guard
from live import polls
from tests.faults.conftest import closed_port
from tests.faults.test_cache import REAL_REDIS, redis_cache
from tests.live.taps import stake, stake_then_fail

# Also on SQLite (tests/conftest.py): the poll's seq marks against each database's transactions.
pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]


@pytest.fixture
def shared_cache(settings, real_redis):
    settings.LIVE_POLL_CACHE = True


@pytest.fixture
def real_redis(settings):
    from tests.faults.conftest import redis_answers

    if not redis_answers():
        pytest.fail("no Redis answers at 127.0.0.1:6379: the test command starts one")
    cache_guard.state.reset()
    settings.CACHES = redis_cache(REAL_REDIS)
    yield  # the keys expire within a minute (polls.TTL); each test writes under its own prefix
    cache_guard.state.reset()


def poll_url(game, seq: int, proof: str | None = None) -> str:
    url = reverse("scoring:game-poll", args=[game.club.slug, game.pk])
    return f"{url}?seq={seq}&v={proof if proof is not None else polls.proof(game.pk, seq)}"


def committed(callback_runner, work):
    """``work()`` as if its transaction committed (the test's own transaction never does)."""
    with callback_runner(execute=True):
        work()


def test_the_newest_seq_is_answered_without_a_session_or_a_query(
    shared_cache, game, django_capture_on_commit_callbacks, django_assert_num_queries
):
    committed(django_capture_on_commit_callbacks, lambda: stake(game, 0, "a"))
    anonymous = Client()  # no login at all: the answer came before any session was read
    url = poll_url(game, 1)
    with django_assert_num_queries(0):
        response = anonymous.get(url)
    assert response.status_code == 204
    assert response["Cache-Control"] == "no-store"


def test_an_older_seq_a_forged_proof_or_no_proof_goes_to_the_poll_view(
    shared_cache, game, django_capture_on_commit_callbacks
):
    committed(django_capture_on_commit_callbacks, lambda: stake(game, 0, "a"))
    committed(django_capture_on_commit_callbacks, lambda: stake(game, 1, "b"))
    anonymous = Client()
    for url in (
        poll_url(game, 1),  # an event came after it
        poll_url(game, 2, proof="0" * 20),
        poll_url(game, 2, proof=polls.proof(game.pk + 1, 2)),
        poll_url(game, 2, proof=""),
    ):
        assert anonymous.get(url).status_code == 302, url  # the view: log in first


def test_a_member_on_an_old_seq_gets_the_pad(
    shared_cache, game, scorer_client, django_capture_on_commit_callbacks
):
    committed(django_capture_on_commit_callbacks, lambda: stake(game, 0, "a"))
    committed(django_capture_on_commit_callbacks, lambda: stake(game, 1, "b"))
    response = scorer_client.get(poll_url(game, 1))
    assert response.status_code == 200
    assert 'data-seq="2"' in response.content.decode()


def test_a_late_current_mark_never_covers_a_stale_one(
    shared_cache, django_capture_on_commit_callbacks
):
    committed(django_capture_on_commit_callbacks, lambda: polls.mark(9001, 6))
    committed(django_capture_on_commit_callbacks, lambda: polls.mark(9001, 7))  # 6 is stale
    polls.remember(9001, 6)  # seq 6's commit hook, late; or a poll that read 6 just before 7
    assert not polls.nothing_new("/c/k/games/9001/poll/", {"seq": "6", "v": polls.proof(9001, 6)})
    assert polls.nothing_new("/c/k/games/9001/poll/", {"seq": "7", "v": polls.proof(9001, 7)})


def test_a_rolled_back_event_leaves_its_seq_to_the_database(
    shared_cache, game, scorer_client, django_capture_on_commit_callbacks
):
    committed(django_capture_on_commit_callbacks, lambda: stake(game, 0, "a"))
    with pytest.raises(RuntimeError):
        stake_then_fail(game, 1, "b")
    # The stale mark stays (for polls.TTL): polls at seq 1 ask the database, which says 1.
    assert Client().get(poll_url(game, 1)).status_code == 302
    assert scorer_client.get(poll_url(game, 1)).status_code == 204
    assert Client().get(poll_url(game, 1)).status_code == 302


def test_without_a_shared_cache_every_poll_goes_to_the_view(
    settings, real_redis, game, django_capture_on_commit_callbacks
):
    settings.LIVE_POLL_CACHE = False
    committed(django_capture_on_commit_callbacks, lambda: stake(game, 0, "a"))
    assert Client().get(poll_url(game, 1)).status_code == 302


def test_a_cache_that_is_down_sends_every_poll_to_the_view(
    settings, game, scorer_client, django_capture_on_commit_callbacks
):
    cache_guard.state.reset()
    settings.LIVE_POLL_CACHE = True
    settings.CACHES = redis_cache(f"redis://127.0.0.1:{closed_port()}/0")
    try:
        committed(django_capture_on_commit_callbacks, lambda: stake(game, 0, "a"))
        assert Client().get(poll_url(game, 1)).status_code == 302
        assert scorer_client.get(poll_url(game, 1)).status_code == 204  # the database says so
    finally:
        cache_guard.state.reset()


def test_the_asgi_router_answers_the_same_before_django(
    shared_cache, game, django_capture_on_commit_callbacks
):
    committed(django_capture_on_commit_callbacks, lambda: stake(game, 0, "a"))
    from config.asgi import application

    async def ask(url):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.get(url)

    url = poll_url(game, 1)
    with ThreadPoolExecutor(1) as thread:  # the test's thread may hold a running loop already
        response = thread.submit(asyncio.run, ask(url)).result()
    assert response.status_code == 204
    assert response.headers["cache-control"] == "no-store"


def test_hostile_polls_go_to_the_view_and_never_fail(shared_cache):
    polls.remember(1, 12)  # seq 12 is game 1's newest: only a well-formed poll may hear so
    assert polls.nothing_new("/c/k/games/1/poll/", {"seq": "12", "v": polls.proof(1, 12)})
    for query in (
        {"seq": "١٢", "v": polls.proof(1, 12)},  # digits, but not ASCII ones
        {"seq": "9" * 40, "v": "f" * 10_000},
        {"seq": "\x00", "v": "\x00"},
        {"seq": "1"},
        {},
    ):
        assert not polls.nothing_new("/c/k/games/1/poll/", query)
