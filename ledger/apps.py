from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Books")

    def ready(self) -> None:
        # The tasks, registered with Celery here: the export jobs queue their build by name
        # (``ledger.exports`` cannot import ``ledger.tasks``, which imports it).
        from ledger import checks, hooks, memos, opening, ownership, tasks  # noqa: F401

        hooks.connect()
        # The paper books' opening: its reversal guarded, its line read as such everywhere.
        opening.connect()
        memos.register_describer(memos.describe_opening)
        # Dues charges read in the reader's language, not the club's at the time of the charge.
        memos.register_describer(memos.describe_dues)
        # Owners, roles and Swish numbers are sealed as they change, and checked.
        ownership.connect()
        checks.register_check(ownership.check_ownership)
