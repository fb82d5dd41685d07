"""The books move out of ``club`` into an app of their own without touching a row: the models
are created in Django's state on the existing ``club_*`` tables (``0002`` renames them).
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


MODELS = ['account', 'transaction', 'entry', 'period', 'periodbalance', 'auditrecord', 'duesplan', 'exportjob']


def move_content_types(apps, schema_editor, old="club", new="ledger"):
    """Admin history and permissions follow the models to their new app."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MODELS:
        if not content_type.objects.filter(app_label=new, model=model).exists():
            content_type.objects.filter(app_label=old, model=model).update(app_label=new)


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, old="ledger", new="club")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('club', '0008_club_public_league_money'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # The tables stay where they are (club_*) for now: only Django's idea of them moves.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                    migrations.CreateModel(
                        name='Account',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('kind', models.CharField(choices=[('member', 'member'), ('pot', 'pot'), ('bet', 'bet'), ('treasury', 'treasury'), ('dues_income', 'dues income'), ('expenses', 'expenses'), ('cash', 'cash')], max_length=20, verbose_name='kind')),
                            ('key', models.CharField(max_length=80, verbose_name='key')),
                            ('name', models.CharField(max_length=100, verbose_name='name')),
                            ('balance_ore', models.BigIntegerField(default=0, verbose_name='balance (öre)')),
                            ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created')),
                            ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed')),
                            ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='accounts', to='club.club')),
                            ('member', models.ForeignKey(blank=True, help_text='The member whose account this is, or who owns a bet.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='accounts', to='club.member', verbose_name='member')),
                        ],
                        options={
                            'verbose_name': 'account',
                            'verbose_name_plural': 'accounts',
                            'db_table': 'club_account',
                            'ordering': ['kind', 'name'],
                        },
                    ),
                    migrations.CreateModel(
                        name='DuesPlan',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('fee_ore', models.BigIntegerField(verbose_name='fee (öre)')),
                            ('interval', models.CharField(choices=[('monthly', 'monthly'), ('yearly', 'yearly')], default='yearly', max_length=10, verbose_name='period')),
                            ('active', models.BooleanField(default=True, verbose_name='active')),
                            ('club', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='dues_plan', to='club.club')),
                        ],
                        options={
                            'verbose_name': 'dues plan',
                            'verbose_name_plural': 'dues plans',
                            'db_table': 'club_duesplan',
                        },
                    ),
                    migrations.CreateModel(
                        name='ExportJob',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('kind', models.CharField(choices=[('season_statement', 'season statement')], max_length=30, verbose_name='kind')),
                            ('params', models.JSONField(blank=True, default=dict)),
                            ('title', models.CharField(max_length=200, verbose_name='title')),
                            ('status', models.CharField(choices=[('pending', 'waiting'), ('running', 'running'), ('done', 'done'), ('failed', 'failed')], default='pending', max_length=10, verbose_name='status')),
                            ('done', models.PositiveIntegerField(default=0)),
                            ('total', models.PositiveIntegerField(default=0)),
                            ('content', models.TextField(blank=True)),
                            ('error', models.CharField(blank=True, max_length=300)),
                            ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created')),
                            ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                            ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='export_jobs', to='club.club')),
                            ('requested_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ],
                        options={
                            'verbose_name': 'export',
                            'verbose_name_plural': 'exports',
                            'db_table': 'club_exportjob',
                            'ordering': ['-created_at', '-id'],
                        },
                    ),
                    migrations.CreateModel(
                        name='Period',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('name', models.CharField(max_length=100, verbose_name='name')),
                            ('start', models.DateField(verbose_name='start')),
                            ('end', models.DateField(verbose_name='end')),
                            ('closed_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='closed')),
                            ('closed_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                            ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='periods', to='club.club')),
                        ],
                        options={
                            'verbose_name': 'closed period',
                            'verbose_name_plural': 'closed periods',
                            'db_table': 'club_period',
                            'ordering': ['-end'],
                        },
                    ),
                    migrations.CreateModel(
                        name='PeriodBalance',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('opening_ore', models.BigIntegerField()),
                            ('closing_ore', models.BigIntegerField()),
                            ('account', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ledger.account')),
                            ('period', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='balances', to='ledger.period')),
                        ],
                        options={
                            'db_table': 'club_periodbalance',
                            'ordering': ['account'],
                        },
                    ),
                    migrations.CreateModel(
                        name='Transaction',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('date', models.DateField(verbose_name='date')),
                            ('memo', models.CharField(max_length=200, verbose_name='memo')),
                            ('source', models.CharField(choices=[('manual', 'manual'), ('game', 'game event'), ('dues', 'dues'), ('settlement', 'settlement')], max_length=20, verbose_name='source')),
                            ('key', models.CharField(blank=True, max_length=120, null=True)),
                            ('ref', models.CharField(blank=True, db_index=True, max_length=120, verbose_name='reference')),
                            ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created')),
                            ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='transactions', to='club.club')),
                            ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                            ('reverses', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='reversed_by', to='ledger.transaction', verbose_name='reverses')),
                        ],
                        options={
                            'verbose_name': 'transaction',
                            'verbose_name_plural': 'transactions',
                            'db_table': 'club_transaction',
                            'ordering': ['-date', '-id'],
                        },
                    ),
                    migrations.CreateModel(
                        name='Entry',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('amount_ore', models.BigIntegerField(verbose_name='amount (öre)')),
                            ('date', models.DateField(verbose_name='date')),
                            ('account', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='ledger.account')),
                            ('transaction', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='ledger.transaction')),
                        ],
                        options={
                            'verbose_name': 'entry',
                            'verbose_name_plural': 'entries',
                            'db_table': 'club_entry',
                            'ordering': ['id'],
                        },
                    ),
                    migrations.CreateModel(
                        name='AuditRecord',
                        fields=[
                            ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                            ('seq', models.PositiveIntegerField()),
                            ('action', models.CharField(choices=[('post', 'posting'), ('reverse', 'reversal'), ('close', 'closing'), ('event', 'game event'), ('void', 'voided game')], max_length=10)),
                            ('subject', models.CharField(blank=True, max_length=120)),
                            ('data', models.JSONField(blank=True, default=dict)),
                            ('at', models.DateTimeField(default=django.utils.timezone.now)),
                            ('digest', models.CharField(max_length=64)),
                            ('prev_digest', models.CharField(max_length=64)),
                            ('by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                            ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='audit_records', to='club.club')),
                            ('period', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ledger.period')),
                            ('transaction', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='ledger.transaction')),
                        ],
                        options={
                            'verbose_name': 'audit record',
                            'verbose_name_plural': 'audit records',
                            'db_table': 'club_auditrecord',
                            'ordering': ['club', 'seq'],
                        },
                    ),
                    migrations.AddConstraint(
                        model_name='account',
                        constraint=models.UniqueConstraint(fields=('club', 'key'), name='club_account_unique_key'),
                    ),
                    migrations.AddConstraint(
                        model_name='account',
                        constraint=models.UniqueConstraint(condition=models.Q(('kind', 'member')), fields=('member',), name='club_account_one_per_member'),
                    ),
                    migrations.AddConstraint(
                        model_name='account',
                        constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'member'), _negated=True), ('member__isnull', False), _connector='OR'), name='club_account_member_kind_has_member'),
                    ),
                    migrations.AddConstraint(
                        model_name='duesplan',
                        constraint=models.CheckConstraint(condition=models.Q(('fee_ore__gt', 0)), name='club_duesplan_fee_positive'),
                    ),
                    migrations.AddIndex(
                        model_name='exportjob',
                        index=models.Index(fields=['club', 'created_at'], name='club_export_club_created'),
                    ),
                    migrations.AddConstraint(
                        model_name='exportjob',
                        constraint=models.CheckConstraint(condition=models.Q(('done__lte', models.F('total'))), name='club_exportjob_done_le_total'),
                    ),
                    migrations.AddConstraint(
                        model_name='period',
                        constraint=models.CheckConstraint(condition=models.Q(('start__lte', models.F('end'))), name='club_period_start_before_end'),
                    ),
                    migrations.AddConstraint(
                        model_name='periodbalance',
                        constraint=models.UniqueConstraint(fields=('period', 'account'), name='club_periodbalance_one_per_account'),
                    ),
                    migrations.AddIndex(
                        model_name='transaction',
                        index=models.Index(fields=['club', 'date'], name='club_tx_club_date'),
                    ),
                    migrations.AddConstraint(
                        model_name='transaction',
                        constraint=models.UniqueConstraint(condition=models.Q(('key__isnull', False)), fields=('club', 'key'), name='club_transaction_unique_key'),
                    ),
                    migrations.AddIndex(
                        model_name='entry',
                        index=models.Index(fields=['account', 'date', 'id'], name='club_entry_account_date'),
                    ),
                    migrations.AddConstraint(
                        model_name='entry',
                        constraint=models.CheckConstraint(condition=models.Q(('amount_ore', 0), _negated=True), name='club_entry_amount_not_zero'),
                    ),
                    migrations.AddConstraint(
                        model_name='auditrecord',
                        constraint=models.UniqueConstraint(fields=('club', 'seq'), name='club_auditrecord_unique_seq'),
                    ),
            ],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
