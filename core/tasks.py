"""Handing work to Celery without letting the broker fail a request.

``enqueue_on_commit(task, *args)`` publishes the task once the caller's database transaction
has committed. With a broker configured, a publish that fails (the broker is away, the result
store unreachable) is logged and dropped: whatever the task was to do must already be written
down in the database (``league.owed``, ``ledger.exports``' jobs) so that a periodic sweep does
it later. Settings bound how long a publish may take (``CELERY_BROKER_TRANSPORT_OPTIONS``:
connect and socket timeouts, no retries), so a tap answers in its usual time with the broker
gone. Without a broker the task runs eagerly, in-process, and its errors propagate as any
other code's would.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

log = logging.getLogger("protokoll.tasks")


def publish(task: Any, *args) -> bool:
    """Send the task now; False (logged) when the broker did not take it."""
    if task.app.conf.task_always_eager:
        task.apply_async(args=args)
        return True
    try:
        task.apply_async(args=args, retry=False)
    except Exception as error:  # noqa: BLE001 - any failure to publish is the broker's
        log.warning("could not queue %s%r: %s", task.name, args, error)
        return False
    return True


def enqueue_on_commit(task: Any, *args) -> None:
    """``task``: a Celery task (core imports nothing but Django: it is duck-typed)."""
    transaction.on_commit(lambda: publish(task, *args))
