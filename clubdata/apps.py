from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubdataConfig(AppConfig):
    name = "clubdata"
    verbose_name = _("Club data")

    def ready(self) -> None:
        from clubdata import firstrun  # noqa: PLC0415 - registers the start page's checklist

        firstrun.connect()
