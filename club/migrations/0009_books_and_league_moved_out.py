"""The books and the league are apps of their own now (``ledger.0001``, ``league.0001``): their
models leave ``club``'s state. No table is touched (``SeparateDatabaseAndState``)."""

from django.db import migrations

# In an order where no model left behind still points at one already gone.
MOVED = [
    "Entry",
    "PeriodBalance",
    "AuditRecord",
    "Transaction",
    "Period",
    "DuesPlan",
    "ExportJob",
    "Account",
    "Standing",
    "HeadToHead",
    "RatingPoint",
    "GameResult",
]


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0008_club_public_league_money"),
        ("ledger", "0001_initial"),
        ("league", "0001_initial"),
        ("scoring", "0008_event_money_to_ledger"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name=name) for name in MOVED],
        ),
    ]
