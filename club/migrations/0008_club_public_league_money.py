"""A club option: the public league page shows members' money only when the club turns it on."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0007_auditrecord_prev_digest"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="public_league_money",
            field=models.BooleanField(
                default=False, verbose_name="show money on the public league page"
            ),
        ),
    ]
