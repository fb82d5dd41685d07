"""Write a consistent copy of the whole database into the backup directory (``ledger.backups``):
pg_dump's custom format on PostgreSQL, SQLite's online backup on SQLite; keep the newest
``--keep``. The nightly beat task does the same when ``BACKUP_DIR`` is set."""

from django.core.management.base import BaseCommand, CommandError

from ledger import backups


class Command(BaseCommand):
    help = (
        "Back up the whole database (pg_dump custom format, or SQLite's online backup) into "
        "BACKUP_DIR or --dir, keeping the newest --keep backups."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dir", dest="directory", help="where to write (default: BACKUP_DIR)")
        parser.add_argument(
            "--keep",
            type=int,
            help="how many backups to keep in the directory (default: BACKUP_KEEP, else 14)",
        )

    def handle(self, *args, directory=None, keep=None, **options) -> None:
        try:
            made = backups.backup(directory, keep, progress=self.stdout.write)
        except backups.BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(str(made.path)))
