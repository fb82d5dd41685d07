from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = _("Mail")

    def ready(self) -> None:
        # The tasks, registered with Celery here: ``notices.outbox`` publishes them by name
        # (it cannot import ``notices.tasks``, which imports it).
        from notices import tasks  # noqa: F401
