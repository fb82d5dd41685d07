from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Books")

    def ready(self) -> None:
        from ledger import hooks, ownership, services

        hooks.connect()
        # Owners, roles and Swish numbers are sealed as they change, and checked.
        ownership.connect()
        services.register_check(ownership.check_ownership)
