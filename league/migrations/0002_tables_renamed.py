"""The league tables take their app's name (``club_gameresult`` → ``league_gameresult`` and so on):
a rename on both databases, every row, key and constraint kept."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0001_initial'),
        ('club', '0009_books_and_league_moved_out'),
    ]

    operations = [
        migrations.AlterModelTable(
            name='gameresult',
            table=None,
        ),
        migrations.AlterModelTable(
            name='headtohead',
            table=None,
        ),
        migrations.AlterModelTable(
            name='ratingpoint',
            table=None,
        ),
        migrations.AlterModelTable(
            name='standing',
            table=None,
        ),
    ]
