"""The Celery app. Tasks live in ``<app>/tasks.py`` as thin wrappers around service functions.

With no ``CELERY_BROKER_URL`` the settings make every task run eagerly in-process, so a laptop
needs no broker; production runs a worker and beat against Redis.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("protokoll")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
