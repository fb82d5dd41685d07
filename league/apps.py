from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("League")

    def ready(self) -> None:
        # The tasks, registered with Celery here: the league's modules publish them by name
        # (they cannot import ``league.tasks``, which imports them).
        from league import hooks, tasks  # noqa: F401

        hooks.connect()
