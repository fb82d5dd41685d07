"""Celery tasks of the mail: thin wrappers around ``notices.outbox``. Both are safe to run
twice: a row is sent by whoever claims it, once."""

from __future__ import annotations

from celery import shared_task

from notices import outbox


@shared_task
def send_owed_task(kind: str, object_id: int) -> int:
    """The mail just queued for one (kind, object), published after the queuing commit."""
    return outbox.send_owed(kind, object_id)


@shared_task
def sweep() -> int:
    """The beat's sweep: whatever is owed and due (a broker that was away, a back-off)."""
    return outbox.sweep()
