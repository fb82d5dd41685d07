"""The cache may go away (Redis restarted, the network cut); nothing on the request path fails
with it (issue 23 §3). Everything the app keeps in the cache is a copy or a counter: sessions
are written through to the database (``config.sessions``), the password-reset counters
(``config.passwords``) fall back to this process's memory.

``guarded(call, default)`` runs one cache call. When the cache's connection fails it returns
``default`` instead, logs the error at most once a minute, and leaves the cache alone for
``RETRY_SECONDS`` — a cache that hangs costs one timeout (settings: ``CACHES`` OPTIONS), not
one per request.

A write or delete that could not reach the cache leaves a stale copy there if the cache comes
back with its old contents (a network cut, not a restart): a session logged out meanwhile would
come back. ``forget(key)`` remembers such keys and the first call that reaches the cache again
deletes them (or clears the cache, if too many piled up). The list lives in this process; a
process that stops during an outage takes its list with it — the copies then expire with the
session (``SESSION_COOKIE_AGE``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import cache as default_cache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger("protokoll.cache")

# What a cache that is not there raises (redis-py's errors; a socket's, under them).
CACHE_ERRORS: tuple[type[BaseException], ...] = (RedisConnectionError, RedisTimeoutError, OSError)
RETRY_SECONDS = 5.0
LOG_EVERY_SECONDS = 60.0
MAX_STALE_KEYS = 10_000


class _State:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.skip_until = 0.0
        self.logged_at: float | None = None
        self.stale: set[str] = set()
        self.clear_all = False

    def reset(self) -> None:
        with self.lock:
            self.__init__()


state = _State()


def is_down() -> bool:
    """True while the cache is left alone after a failure."""
    return time.monotonic() < state.skip_until


def _failed(error: BaseException) -> None:
    now = time.monotonic()
    with state.lock:
        state.skip_until = now + RETRY_SECONDS
        if state.logged_at is None or now - state.logged_at >= LOG_EVERY_SECONDS:
            state.logged_at = now
            log.error("cache unreachable, reading through to the database: %r", error)


def _flush_stale() -> None:
    with state.lock:
        keys, clear_all = state.stale, state.clear_all
        state.stale, state.clear_all = set(), False
    try:
        if clear_all:
            default_cache.clear()
        elif keys:
            default_cache.delete_many(list(keys))
    except CACHE_ERRORS:
        with state.lock:
            state.stale |= keys
            state.clear_all |= clear_all
        raise


def forget(key: str) -> None:
    """``key``'s copy in the cache (if any) is out of date: delete it once the cache answers."""
    with state.lock:
        if len(state.stale) >= MAX_STALE_KEYS:
            state.clear_all = True
            state.stale = set()
        elif not state.clear_all:
            state.stale.add(key)


def guarded[T](call: Callable[[], T], default: T, *, stale_key: str | None = None) -> T:
    """``call()``, or ``default`` when the cache is down. ``stale_key``: the call writes or
    deletes this key, so a failed call leaves a stale copy to delete later."""
    if is_down():
        if stale_key is not None:
            forget(stale_key)
        return default
    try:
        if state.stale or state.clear_all:
            _flush_stale()
        return call()
    except CACHE_ERRORS as error:
        _failed(error)
        if stale_key is not None:
            forget(stale_key)
        return default


def status() -> str:
    """For /healthz: "ok" when a value makes the round trip, else the error's name."""
    key = "protokoll.healthz"
    try:
        default_cache.set(key, 1, 10)
        answer: Any = default_cache.get(key)
    except CACHE_ERRORS as error:
        _failed(error)
        return f"error: {type(error).__name__}"
    return "ok" if answer == 1 else "error: the cache lost a value"
