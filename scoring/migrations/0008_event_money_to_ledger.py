"""``Event.money`` points at the ledger app's Transaction (the same ``club_transaction`` table
until ``ledger.0002`` renames it): a change of Django's state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
        ("scoring", "0007_event_lines_from_replay"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="money",
                    field=models.OneToOneField(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="ledger.transaction",
                    ),
                ),
            ],
        ),
    ]
