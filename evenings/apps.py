from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EveningsConfig(AppConfig):
    name = "evenings"
    verbose_name = _("Club evenings")

    def ready(self) -> None:
        from evenings import drives, memos, pots
        from league import services as league
        from ledger import services as ledger

        # A whist drive's results rank in the league like a game's.
        league.register_game_name(drives.LEAGUE_KEY, _("Whist drive"))

        # The memos of an evening's money, in the reader's language.
        ledger.register_describer(memos.describe_evening_money)

        # The books' check replays the evenings' pot moves against their rule.
        ledger.register_check(pots.check_pot_moves)
