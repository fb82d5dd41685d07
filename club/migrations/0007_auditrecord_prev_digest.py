"""The keyed chain needs one digest per record: ``hash`` goes, ``prev_hash`` is the previous
record's digest. A migration of its own: after 0006 updated the rows, PostgreSQL may still hold
deferred constraint checks on the table, and refuses to alter it in the same transaction."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0006_auditrecord_keyed"),
    ]

    operations = [
        # A default first, so that reversing can add the column back to a table with rows.
        migrations.AlterField(
            model_name="auditrecord",
            name="hash",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.RemoveField(model_name="auditrecord", name="hash"),
        migrations.RenameField(
            model_name="auditrecord", old_name="prev_hash", new_name="prev_digest"
        ),
    ]
