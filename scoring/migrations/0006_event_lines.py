from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_femhundra_legacy_deals")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="lines",
            field=models.JSONField(blank=True, default=list),
        ),
    ]
