from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "competitions"
    verbose_name = _("Competitions")

    def ready(self) -> None:
        # The books' check: each competition's pool against its fees and prizes.
        import ledger  # noqa: PLC0415 - the ledger's public names load with the app registry
        from competitions import memos, money  # noqa: PLC0415

        ledger.register_check(money.check_competition_money)
        # The fees' and prizes' memos in the reader's language.
        ledger.register_describer(memos.describe_competition_money)

        # The start page's panel (C3): the running competitions and their rounds, the announced
        # ones with "enter", else a link to the list.
        from club import panels  # noqa: PLC0415
        from competitions import views  # noqa: PLC0415

        panels.register(17, "competitions/_panel.html", views.panel_context)
