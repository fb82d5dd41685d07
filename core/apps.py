from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Shared parts with no models: money formatting, request inputs, the one-time submission
    form, the read-only admin, the reader's language and handing work to Celery."""

    name = "core"
