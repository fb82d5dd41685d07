"""Celery tasks of the club app: thin wrappers around service functions."""

from __future__ import annotations

from celery import shared_task


@shared_task
def ping(number: int) -> dict:
    """Proves a worker round trip: the answer depends on the argument."""
    return {"pong": number * 2}
