"""Breaking real parts: the Celery app pointed at a broker that is not there, or at the real
Redis the suite already uses, and put back afterwards."""

from __future__ import annotations

import socket

import pytest
from kombu import pools

from config.celery import app


def closed_port() -> int:
    """A port on this machine where nothing listens (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_answers() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5):
            return True
    except OSError:
        return False


def use_broker(url: str | None) -> None:
    """Point the Celery app at ``url`` (a broker and result store), or back to running tasks
    eagerly in-process (None), dropping the connections it holds."""
    app.conf.task_always_eager = url is None
    app.conf.broker_url = url or "memory://localhost/"
    app.conf.result_backend = url
    pools.reset()  # kombu's process-wide connection and producer pools, per broker
    app._pool = None
    app.amqp._producer_pool = None
    app._local.__dict__.pop("backend", None)


@pytest.fixture
def broker():
    """``broker(url)`` points the app at a broker for the rest of the test; put back after."""
    saved = (app.conf.task_always_eager, app.conf.broker_url, app.conf.result_backend)
    yield use_broker
    use_broker(None)
    app.conf.task_always_eager, app.conf.broker_url, app.conf.result_backend = saved
