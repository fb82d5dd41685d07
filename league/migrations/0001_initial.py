"""The league moves out of ``club`` into an app of their own without touching a row: the
models are created in Django's state on the existing ``club_*`` tables (``0002`` renames them).
"""

import django.db.models.deletion
from django.db import migrations, models


MODELS = ['gameresult', 'standing', 'ratingpoint', 'headtohead']


def move_content_types(apps, schema_editor, old="club", new="league"):
    """Admin history and permissions follow the models to their new app."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not content_type.objects.filter(app_label=new, model=model).exists():
            content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, old="league", new="club")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('club', '0008_club_public_league_money'),
    ]

    operations = [
        # The tables stay where they are (club_*) for now: only Django's idea of them moves.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                    migrations.CreateModel(
                        name='GameResult',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('game_ref', models.CharField(max_length=40)),
                            ('game_key', models.CharField(max_length=30, verbose_name='game')),
                            ('finished_at', models.DateTimeField(verbose_name='finished')),
                            ('guest_name', models.CharField(blank=True, max_length=100)),
                            ('seat', models.PositiveSmallIntegerField()),
                            ('team', models.PositiveSmallIntegerField(blank=True, null=True)),
                            ('placement', models.PositiveSmallIntegerField(verbose_name='placement')),
                            ('score', models.IntegerField(verbose_name='score')),
                            ('net_ore', models.BigIntegerField(default=0, verbose_name='net money (öre)')),
                            ('players', models.PositiveSmallIntegerField(verbose_name='players')),
                            ('details', models.JSONField(blank=True, default=dict)),
                            ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='club.club')),
                            ('member', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='results', to='club.member')),
                        ],
                        options={
                            'verbose_name': 'game result',
                            'verbose_name_plural': 'game results',
                            'db_table': 'club_gameresult',
                            'ordering': ['-finished_at', 'game_ref', 'placement'],
                            'indexes': [models.Index(fields=['club', 'game_key', 'finished_at'], name='club_result_game_time')],
                            'constraints': [models.UniqueConstraint(fields=('game_ref', 'seat'), name='club_gameresult_one_per_seat')],
                        },
                    ),
                    migrations.CreateModel(
                        name='HeadToHead',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('game_key', models.CharField(max_length=30)),
                            ('wins', models.PositiveIntegerField(default=0)),
                            ('losses', models.PositiveIntegerField(default=0)),
                            ('draws', models.PositiveIntegerField(default=0)),
                            ('member', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.member')),
                            ('opponent', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.member')),
                            ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.season')),
                        ],
                        options={
                            'db_table': 'club_headtohead',
                            'constraints': [models.UniqueConstraint(fields=('season', 'game_key', 'member', 'opponent'), name='club_h2h_one_per_pair')],
                        },
                    ),
                    migrations.CreateModel(
                        name='RatingPoint',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('game_key', models.CharField(max_length=30)),
                            ('game_ref', models.CharField(max_length=40)),
                            ('finished_at', models.DateTimeField()),
                            ('mu', models.FloatField()),
                            ('sigma', models.FloatField()),
                            ('ordinal', models.FloatField()),
                            ('change', models.FloatField()),
                            ('games', models.PositiveIntegerField()),
                            ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='club.club')),
                            ('member', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_points', to='club.member')),
                        ],
                        options={
                            'db_table': 'club_ratingpoint',
                            'ordering': ['finished_at', 'id'],
                            'indexes': [models.Index(fields=['member', 'game_key', 'finished_at'], name='club_rating_member')],
                        },
                    ),
                    migrations.CreateModel(
                        name='Standing',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('game_key', models.CharField(max_length=30)),
                            ('rank', models.PositiveSmallIntegerField()),
                            ('played', models.PositiveIntegerField()),
                            ('won', models.PositiveIntegerField()),
                            ('points', models.IntegerField()),
                            ('net_ore', models.BigIntegerField()),
                            ('form', models.CharField(blank=True, max_length=20)),
                            ('rating', models.FloatField(null=True)),
                            ('rating_change', models.FloatField(null=True)),
                            ('rated_games', models.PositiveIntegerField(default=0)),
                            ('extra', models.JSONField(blank=True, default=dict)),
                            ('member', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='club.member')),
                            ('season', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='club.season')),
                        ],
                        options={
                            'db_table': 'club_standing',
                            'ordering': ['season', 'game_key', 'rank'],
                            'constraints': [models.UniqueConstraint(fields=('season', 'game_key', 'member'), name='club_standing_one_per_member')],
                        },
                    ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
