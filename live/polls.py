"""The poll that finds nothing new, answered from the shared cache (see ``live``'s docstring §4).

Cache keys, per game and seq: ``live:g:<game>:<seq>`` is ``"current"`` once the event that made
that seq committed, ``"stale"`` as soon as a later event is on its way. ``mark`` runs inside the
event's transaction: it marks the previous seq stale at once (harmless if the transaction rolls
back: a stale mark only sends the poll to the database) and the new seq current after commit,
with ``add`` so that a late commit hook can never call current a seq that a later event has
already marked stale. A cache that is down answers nothing (``config.cache.guarded``): every
poll then goes to the database, as it did before.

Only a *shared* cache can answer (``LIVE_POLL_CACHE``, on when ``CACHE_URL`` is set): a cache in
each worker's memory would answer from a worker that never saw the newer event.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare, salted_hmac

from config.cache import guarded

CURRENT = "current"
STALE = "stale"
# Short, so that a stale mark the cache missed (it was down) cannot outlive a minute; the
# ordinary poll puts "current" back (``remember``) for a game nobody taps in.
TTL = 60
POLL_PATH = re.compile(r"^/c/[-\w]+/games/(?P<game>\d+)/poll/$")


def key(game_id: int, seq: int) -> str:
    return f"live:g:{game_id}:{seq}"


def proof(game_id: int, seq: int) -> str:
    """What a pad rendered at ``seq`` sends with its polls: only its viewers can make it."""
    return salted_hmac("protokoll.live.poll", f"{game_id}:{seq}", algorithm="sha256").hexdigest()[
        :20
    ]


def enabled() -> bool:
    return bool(getattr(settings, "LIVE_POLL_CACHE", False))


def mark(game_id: int, seq: int) -> None:
    """Inside the transaction that takes the game to ``seq``."""
    if not enabled():
        return
    if seq > 0:
        stale = key(game_id, seq - 1)
        guarded(lambda: cache.set(stale, STALE, TTL), None, stale_key=stale)
    transaction.on_commit(lambda: remember(game_id, seq))


def remember(game_id: int, seq: int) -> None:
    """``seq`` is the game's newest, as the database said a moment ago. ``add``: a stale mark
    a later event wrote meanwhile wins."""
    if enabled():
        guarded(lambda: cache.add(key(game_id, seq), CURRENT, TTL), None)


def nothing_new(path: str, query: dict[str, str]) -> bool:
    """True when the poll at ``path`` with ``query`` may be answered 204 without Django."""
    if not enabled():
        return False
    found = POLL_PATH.match(path)
    seq, sent = query.get("seq", ""), query.get("v", "")
    if not found or not (seq.isascii() and seq.isdigit()) or len(seq) > 9 or not sent:
        return False
    game_id = int(found["game"])
    if not constant_time_compare(sent, proof(game_id, int(seq))):
        return False
    return guarded(lambda: cache.get(key(game_id, int(seq))), None) == CURRENT


def nothing_new_response() -> HttpResponse:
    response = HttpResponse(status=204)
    response["Cache-Control"] = "no-store"
    return response


class FastPollMiddleware:
    """First in ``MIDDLEWARE``: a poll the cache can answer never reaches a session."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET" and nothing_new(request.path_info, request.GET):
            return nothing_new_response()
        return self.get_response(request)


async def answer_asgi(send) -> None:
    """``nothing_new_response`` for the ASGI router (config/asgi.py), without Django's handler."""
    await send(
        {"type": "http.response.start", "status": 204, "headers": [(b"cache-control", b"no-store")]}
    )
    await send({"type": "http.response.body", "body": b""})
