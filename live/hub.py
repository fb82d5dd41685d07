"""One hub per process: who follows which channel, and where the signals come from.

Runs on the ASGI server's event loop. Subscribers hold a bounded queue each; ``deliver`` puts a
signal in the queue of everyone following its channel. A queue that is full (a phone that does
not read) is emptied and told to resync: it loses no information, it polls once.

The signals come from PostgreSQL (``LISTEN protokoll_live``) when the database is PostgreSQL —
one connection per process, opened on the first subscriber; ``subscribe`` returns once it
listens, so a page that polls when its stream opens misses nothing in between. A dropped
connection is reopened with back-off and every subscriber is told to resync. On SQLite (one
process) ``live.signals`` hands signals to ``deliver_threadsafe`` after commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings

log = logging.getLogger("protokoll.live")

PG_CHANNEL = "protokoll_live"
QUEUE_SIZE = 32
LISTEN_READY_TIMEOUT = 5.0
RESYNC = ("*", "resync")


@dataclass(eq=False)
class Subscriber:
    channels: tuple[str, ...]
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(QUEUE_SIZE))

    def offer(self, signal: tuple[str, str]) -> None:
        try:
            self.queue.put_nowait(signal)
        except asyncio.QueueFull:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(RESYNC)


def uses_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def conninfo() -> dict:
    """Where to LISTEN: ``LIVE_LISTEN_URL`` when set (straight to PostgreSQL, past a PgBouncer
    in transaction mode, which cannot hold a LISTEN), else the default database."""
    direct = getattr(settings, "LIVE_LISTEN_URL", "")
    if direct:
        return {"conninfo": direct}
    db = settings.DATABASES["default"]
    params = {
        "dbname": db.get("NAME"),
        "user": db.get("USER"),
        "password": db.get("PASSWORD"),
        "host": db.get("HOST"),
        "port": db.get("PORT"),
    }
    return {k: v for k, v in params.items() if v not in (None, "")}


class Hub:
    def __init__(self) -> None:
        self.followers: dict[str, set[Subscriber]] = defaultdict(set)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listener: asyncio.Task | None = None
        self.listening = asyncio.Event()

    # --- following -----------------------------------------------------------------------
    async def subscribe(self, channels: Iterable[str]) -> Subscriber:
        self._bind_to_running_loop()
        subscriber = Subscriber(tuple(channels))
        for channel in subscriber.channels:
            self.followers[channel].add(subscriber)
        if uses_postgres():
            self._start_listening()
            try:
                await asyncio.wait_for(self.listening.wait(), LISTEN_READY_TIMEOUT)
            except TimeoutError:
                subscriber.offer(RESYNC)  # not listening yet: the page keeps polling meanwhile
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        for channel in subscriber.channels:
            followers = self.followers.get(channel)
            if followers is not None:
                followers.discard(subscriber)
                if not followers:
                    del self.followers[channel]

    def connected(self) -> int:
        return len({s for followers in self.followers.values() for s in followers})

    # --- delivering ----------------------------------------------------------------------
    def deliver(self, channel: str, version: str) -> None:
        for subscriber in tuple(self.followers.get(channel, ())):
            subscriber.offer((channel, version))

    def deliver_payload(self, payload: str) -> None:
        channel, _, version = payload.partition(" ")
        self.deliver(channel, version)

    def deliver_threadsafe(self, channel: str, version: str) -> None:
        """From any thread (a sync view's commit hook); nothing when no loop follows yet."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.deliver, channel, version)

    def resync_all(self) -> None:
        for subscriber in {s for followers in self.followers.values() for s in followers}:
            subscriber.offer(RESYNC)

    # --- PostgreSQL ----------------------------------------------------------------------
    def _bind_to_running_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self.loop is loop:
            return
        # A new loop (a test's server, a restarted one): the old loop's listener stops.
        old_loop, old_listener = self.loop, self.listener
        if old_listener is not None and old_loop is not None and not old_loop.is_closed():
            old_loop.call_soon_threadsafe(old_listener.cancel)
        self.loop, self.listener, self.listening = loop, None, asyncio.Event()

    def _start_listening(self) -> None:
        if self.listener is None or self.listener.done():
            self.listener = asyncio.get_running_loop().create_task(self._listen())

    async def _listen(self) -> None:
        import psycopg  # only the PostgreSQL mode needs it

        delay = 0.5
        mine = asyncio.get_running_loop()
        while self.loop is mine:
            try:
                async with await psycopg.AsyncConnection.connect(
                    **conninfo(), autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {PG_CHANNEL}")
                    log.info("live: listening")
                    if not self.listening.is_set():
                        self.listening.set()
                    else:
                        self.resync_all()
                    delay = 0.5
                    async for notify in conn.notifies():
                        self.deliver_payload(notify.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # noqa: BLE001 - any failure: resync, back off, retry
                log.warning("live: LISTEN failed (%s); retrying in %.1f s", error, delay)
                self.resync_all()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)

    async def close(self) -> None:
        if self.listener is not None:
            self.listener.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # shutting down
                await self.listener
            self.listener = None


hub = Hub()
