"""``LeagueProgress``: how far each game kind's ratings and tables are up to date, so a finished
game is appended rather than its season rebuilt; and an index on a kind's rating points by time.
No data moves: a kind without a progress row is rebuilt once, on its next update."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0009_books_and_league_moved_out'),
        ('league', '0002_tables_renamed'),
    ]

    operations = [
        migrations.CreateModel(
            name='LeagueProgress',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_key', models.CharField(max_length=30)),
                ('through', models.DateTimeField(blank=True, null=True)),
                ('stale_from', models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.AddIndex(
            model_name='ratingpoint',
            index=models.Index(fields=['club', 'game_key', 'finished_at'], name='league_rating_game_time'),
        ),
        migrations.AddField(
            model_name='leagueprogress',
            name='club',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.club'),
        ),
        migrations.AddConstraint(
            model_name='leagueprogress',
            constraint=models.UniqueConstraint(fields=('club', 'game_key'), name='league_leagueprogress_one_per_game'),
        ),
    ]
