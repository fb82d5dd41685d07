from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        import ledger
        from club import panels
        from evenings import board, tonight
        from scoring import audit, confirming, evening_status, messages

        # check_ledger verifies that the books hold what the games say (club never imports us).
        ledger.register_check(audit.check_game_money)
        # …and that the events are still what the audit chain recorded.
        ledger.register_check(audit.check_game_events)
        # …and that the league holds every finished game's results, or still owes them.
        ledger.register_check(audit.check_game_results)
        # Games marked as recorded before the engines knew the cards: named, not failed.
        ledger.register_notice(audit.legacy_fact_notices)
        # The memos of game money, in the reader's language from the events' lines.
        ledger.register_describer(messages.describe_game_money)
        # What a club evening's board shows of the games at its tables.
        board.register_table_status(evening_status.table_statuses)
        # What a table's QR code opens: its game, or a read-only follow page (scoring.guest).
        from evenings import table_links
        from scoring import guest

        table_links.register_link(guest.table_path)
        # Results the table confirms: tonight's settle-up waits for them when the club says so,
        # and a disputed game is flagged for the host and the treasurer.
        tonight.register_settle_gate(confirming.settle_holds)
        tonight.register_flags(confirming.evening_flags)
        panels.register(15, "scoring/_disputes_panel.html", confirming.home_panel)
        # A competition table's link: its pad (issue 29; competitions never imports us).
        from competitions import links as competition_links
        from scoring import views_competition

        competition_links.register_table_link(views_competition.table_path)
