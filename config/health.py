"""``/healthz``: reachability of the database, the cache and the Celery broker, for a load
balancer or an uptime check. Each part says "ok" or the error's name, ``down`` lists the parts
that do not answer, and ``ok`` is true when none is down.

503 only when the database is down: without it nothing works, and a load balancer should take
this instance out. The cache and the broker are reported but answer 200, because the app keeps
serving without them — sessions read through to the database (``config.sessions``), tasks are
written down and delivered by a sweep when the broker is back (``core.tasks``, ``league.owed``).
They are shared by every instance, so a 503 for either would take the whole site out of the
load balancer for an outage the site survives; an uptime check alerts on ``down`` instead.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

from config import cache


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # noqa: BLE001 - any failure means "unreachable"
        return f"error: {type(error).__name__}"
    return "ok"


def broker_status() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:  # noqa: BLE001
        return f"error: {type(error).__name__}"
    return "ok"


def report() -> dict:
    parts = {
        "database": database_status(),
        "cache": cache.status(),
        "broker": broker_status(),
    }
    down = [name for name, status in parts.items() if status not in ("ok", "eager")]
    return {"ok": not down, **parts, "down": down}


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    result = report()
    return JsonResponse(result, status=503 if "database" in result["down"] else 200)
