from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EveningsConfig(AppConfig):
    name = "evenings"
    verbose_name = _("Club evenings")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        import league
        import ledger
        from evenings import drive_results, memos, options, pots
        from evenings.models import EveningOptions

        # A whist drive's results rank in the league like a game's.
        league.register_game_name(drive_results.LEAGUE_KEY, _("Whist drive"))

        # The memos of an evening's money, in the reader's language.
        ledger.register_describer(memos.describe_evening_money)

        # The books' check replays the evenings' pot moves against their rule.
        ledger.register_check(pots.check_pot_moves)
        # …and the options that decide where an evening's money goes: sealed as they are saved,
        # checked against their seal.
        post_save.connect(
            options.seal_options, sender=EveningOptions, dispatch_uid="evenings-seal-options"
        )
        ledger.register_check(options.check_options_sealed)
