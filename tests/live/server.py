"""The app as production serves it, over ASGI (uvicorn, config.asgi), in a thread of the test
process: the same settings and test database as the test, a free port, stopped at the end.
Django's own live server is WSGI and does not serve ``/live/``."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    def __init__(self, url: str) -> None:
        self.url = url


@contextmanager
def asgi_server() -> Iterator[Served]:
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import application

    port = free_port()
    config = uvicorn.Config(
        ASGIStaticFilesHandler(application),  # static files as Django's live server serves them
        host="127.0.0.1",
        port=port,
        lifespan="on",
        log_level="warning",
        loop="asyncio",
        # Streams never end by themselves: at shutdown uvicorn cancels them after this.
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield Served(f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        assert not thread.is_alive(), "uvicorn did not stop"
