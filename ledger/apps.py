from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Books")

    def ready(self) -> None:
        from ledger import hooks

        hooks.connect()
