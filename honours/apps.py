from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HonoursConfig(AppConfig):
    name = "honours"
    verbose_name = _("Honours")

    def ready(self) -> None:
        import ledger
        from club import panels
        from honours import checks, memos, views

        # check_ledger: every prize paid is its transaction, and no hand-prize pot is negative.
        ledger.register_check(checks.check_prizes_paid)
        # The prizes' memos in the reader's language.
        ledger.register_describer(memos.describe_prizes)
        # The season's honours on the club's start page (only when the club has any).
        panels.register(40, "honours/_panel.html", views.panel_context)
