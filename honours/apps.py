from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HonoursConfig(AppConfig):
    name = "honours"
    verbose_name = _("Honours")
