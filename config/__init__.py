"""Project configuration: settings, root URLs, the Celery app, WSGI/ASGI."""

from config.celery import app as celery_app

__all__ = ("celery_app",)
