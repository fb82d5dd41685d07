from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Books")

    def ready(self) -> None:
        from ledger import hooks, opening, ownership, services, statements

        hooks.connect()
        # The paper books' opening: its reversal guarded, its line read as such everywhere.
        opening.connect()
        services.register_describer(statements.describe_opening)
        # Dues charges read in the reader's language, not the club's at the time of the charge.
        services.register_describer(statements.describe_dues)
        # Owners, roles and Swish numbers are sealed as they change, and checked.
        ownership.connect()
        services.register_check(ownership.check_ownership)
