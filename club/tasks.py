"""Celery tasks of the club app: thin wrappers around service functions."""

from __future__ import annotations

from celery import shared_task


@shared_task
def ping(number: int) -> dict:
    """Proves a worker round trip: the answer depends on the argument."""
    return {"pong": number * 2}


# The league's tasks live beside its service functions; importing them here registers them
# with a worker, which autodiscovers <app>.tasks only.
from club.league import recompute_club_task, recompute_game_task  # noqa: E402, F401
