"""``/live/?t=<token>``: the server-sent events a page follows (``live``'s docstring §3).

A plain ASGI app, in front of Django (config/asgi.py): it reads the signed token, subscribes to
the hub and writes one event per signal::

    event: change          event: resync
    data: g:12 57          data: *

and a comment every ``HEARTBEAT`` seconds. It ends when the client goes away (``http.disconnect``)
or the server shuts down.
"""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest

from live import tokens
from live.hub import RESYNC, hub

PREFIX = "/live/"
HEARTBEAT = 20.0
RETRY_MS = 3000
HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),  # nginx: do not buffer this response
]


def offered(request) -> bool:
    """Whether pages offer the stream (``LIVE_STREAM``): ``auto`` when the page itself is served
    over ASGI (config/asgi.py serves ``/live/`` beside it; a WSGI server does not), ``on`` for a
    WSGI site whose proxy sends ``/live/`` to an ASGI server, ``off`` never."""
    mode = getattr(settings, "LIVE_STREAM", "auto")
    return mode == "on" or (mode == "auto" and isinstance(request, ASGIRequest))


def frame(signal: tuple[str, str]) -> bytes:
    if signal == RESYNC:
        return b"event: resync\ndata: *\n\n"
    channel, version = signal
    return f"event: change\ndata: {channel} {version}\n\n".encode()


async def refuse(send, status: int, text: str) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8")],
        }
    )
    await send({"type": "http.response.body", "body": text.encode()})


async def until_disconnect(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def app(scope, receive, send) -> None:
    if scope["method"] not in ("GET", "HEAD"):
        return await refuse(send, 405, "GET only")
    token = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("t", [""])[0]
    channels = tokens.read(token)
    if not channels:
        return await refuse(send, 403, "This live link has expired; reload the page.")
    subscriber = await hub.subscribe(channels)
    gone = asyncio.ensure_future(until_disconnect(receive))
    try:
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        await send(
            {
                "type": "http.response.body",
                "body": f"retry: {RETRY_MS}\n: open\n\n".encode(),
                "more_body": True,
            }
        )
        await follow(subscriber, gone, send)
    finally:
        gone.cancel()
        hub.unsubscribe(subscriber)


async def follow(subscriber, gone: asyncio.Future, send) -> None:
    while not gone.done():
        signal = asyncio.ensure_future(subscriber.queue.get())
        done, _ = await asyncio.wait(
            {signal, gone}, timeout=HEARTBEAT, return_when=asyncio.FIRST_COMPLETED
        )
        if signal in done:
            body = frame(signal.result())
        else:
            signal.cancel()
            if gone in done:
                return
            body = b": keep-alive\n\n"
        await send({"type": "http.response.body", "body": body, "more_body": True})
