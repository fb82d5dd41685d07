from django.apps import AppConfig


class CoreConfig(AppConfig):
    """Shared parts with no models: money formatting, inputs, forms, the facade."""

    name = "core"
