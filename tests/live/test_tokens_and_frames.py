"""The stream's ticket (live.tokens) and the stream itself (live.stream) without a server: an
ASGI call with a hand-made receive and send, on the in-process hub."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import time_machine

from live import stream, tokens
from live.hub import RESYNC, hub


def test_a_ticket_names_its_channels_and_nothing_else_reads():
    token = tokens.sign(["g:12", "e:3", "g:12"], user_id=7)
    assert tokens.read(token) == ["e:3", "g:12"]
    assert tokens.read(token[:-2] + ("aa" if not token.endswith("aa") else "bb")) is None
    assert tokens.read("") is None
    assert tokens.read("g:12") is None


def test_a_ticket_expires():
    with time_machine.travel("2026-11-27 18:00", tick=False):
        token = tokens.sign(["g:1"], user_id=None)
    with time_machine.travel("2026-11-28 05:59", tick=False):
        assert tokens.read(token) == ["g:1"]
    with time_machine.travel("2026-11-28 06:01", tick=False):
        assert tokens.read(token) is None


def test_a_ticket_follows_at_most_so_many_channels():
    token = tokens.sign([f"g:{n}" for n in range(500)], user_id=None)
    assert len(tokens.read(token)) == tokens.MAX_CHANNELS


class Phone:
    """One ASGI request to ``stream.app``: what it sent, and a way to hang up."""

    def __init__(self, query: bytes, method: str = "GET") -> None:
        self.scope = {"type": "http", "method": method, "path": "/live/", "query_string": query}
        self.sent: list[dict] = []
        self.hang_up = asyncio.Event()

    async def receive(self) -> dict:
        await self.hang_up.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        self.sent.append(message)

    @property
    def status(self) -> int:
        return self.sent[0]["status"]

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


def run(coroutine):
    """``asyncio.run`` in a thread of its own: the test's thread may already hold a running loop
    (a Playwright test earlier in the same worker leaves one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def test_a_forged_or_missing_ticket_is_refused_and_only_get_is_served():
    async def scenario():
        for query in (b"", b"t=forged"):
            phone = Phone(query)
            await stream.app(phone.scope, phone.receive, phone.send)
            assert phone.status == 403
        phone = Phone(b"t=" + tokens.sign(["g:1"], None).encode(), method="POST")
        await stream.app(phone.scope, phone.receive, phone.send)
        assert phone.status == 405

    run(scenario())


def test_a_phone_hears_its_channels_only_and_leaves_no_trace_when_it_hangs_up():
    async def scenario():
        phone = Phone(b"t=" + tokens.sign(["g:1", "e:9"], None).encode())
        call = asyncio.create_task(stream.app(phone.scope, phone.receive, phone.send))
        while hub.connected() == 0:
            await asyncio.sleep(0.001)
        hub.deliver("g:2", "5")  # another table's game
        hub.deliver("g:1", "5")
        hub.deliver("e:9", "changed")
        hub.resync_all()
        await asyncio.sleep(0.05)
        phone.hang_up.set()
        await asyncio.wait_for(call, 1)
        return phone

    phone = run(scenario())
    assert phone.status == 200
    assert dict(phone.sent[0]["headers"])[b"content-type"].startswith(b"text/event-stream")
    assert phone.body == (
        b"retry: 3000\n: open\n\n"
        b"event: change\ndata: g:1 5\n\n"
        b"event: change\ndata: e:9 changed\n\n"
        b"event: resync\ndata: *\n\n"
    )
    assert hub.connected() == 0
    assert not hub.followers


def test_a_phone_that_does_not_read_is_told_to_resync_instead_of_its_queue_growing():
    async def scenario():
        subscriber = await hub.subscribe(["g:1"])
        for seq in range(1, 200):
            hub.deliver("g:1", str(seq))
        queued = [subscriber.queue.get_nowait() for _ in range(subscriber.queue.qsize())]
        hub.unsubscribe(subscriber)
        return queued

    queued = run(scenario())
    assert len(queued) < 40
    assert RESYNC in queued
    assert queued[-1] == ("g:1", "199")


def test_an_idle_stream_sends_a_keep_alive(monkeypatch):
    monkeypatch.setattr(stream, "HEARTBEAT", 0.02)

    async def scenario():
        phone = Phone(b"t=" + tokens.sign(["g:1"], None).encode())
        call = asyncio.create_task(stream.app(phone.scope, phone.receive, phone.send))
        await asyncio.sleep(0.1)
        phone.hang_up.set()
        await asyncio.wait_for(call, 1)
        return phone

    assert b": keep-alive\n\n" in run(scenario()).body


def test_the_listen_connection_goes_past_pgbouncer_when_told(settings):
    from live.hub import conninfo

    settings.LIVE_LISTEN_URL = "postgresql://protokoll@db:5432/protokoll"
    assert conninfo() == {"conninfo": "postgresql://protokoll@db:5432/protokoll"}
    settings.LIVE_LISTEN_URL = ""
    assert "conninfo" not in conninfo()
