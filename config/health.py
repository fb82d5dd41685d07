"""``/healthz``: reachability of the database and the Celery broker, for a load balancer or
an uptime check (200 when both answer, else 503)."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe


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
    database = database_status()
    broker = broker_status()
    return {
        "ok": database == "ok" and broker in ("ok", "eager"),
        "database": database,
        "broker": broker,
    }


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    result = report()
    return JsonResponse(result, status=200 if result["ok"] else 503)
