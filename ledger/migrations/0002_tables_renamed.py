"""The ledger tables take their app's name (``club_account`` → ``ledger_account`` and so on):
a rename on both databases, every row, key and constraint kept."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0001_initial'),
        ('club', '0009_books_and_league_moved_out'),
    ]

    operations = [
        migrations.AlterModelTable(
            name='account',
            table=None,
        ),
        migrations.AlterModelTable(
            name='auditrecord',
            table=None,
        ),
        migrations.AlterModelTable(
            name='duesplan',
            table=None,
        ),
        migrations.AlterModelTable(
            name='entry',
            table=None,
        ),
        migrations.AlterModelTable(
            name='exportjob',
            table=None,
        ),
        migrations.AlterModelTable(
            name='period',
            table=None,
        ),
        migrations.AlterModelTable(
            name='periodbalance',
            table=None,
        ),
        migrations.AlterModelTable(
            name='transaction',
            table=None,
        ),
    ]
