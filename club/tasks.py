"""Celery tasks of the club app."""

from __future__ import annotations

from celery import shared_task


@shared_task
def ping(number: int) -> dict:
    """Proves a worker round trip (tests/test_celery.py): the answer depends on the argument."""
    return {"pong": number * 2}
