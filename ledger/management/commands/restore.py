"""Bring a backup made by ``manage.py backup`` back into an empty database, then run
``check_ledger`` on the result: the books, the audit trail and the games must agree, and each
club's head is printed; ``--expect`` finds a head saved before the backup, as check_ledger's
does. The database must have none of the app's tables: a restore never mixes with what is
there (create an empty database, or point DATABASE_URL at a new SQLite file)."""

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from ledger import backups, restores


class Command(BaseCommand):
    help = (
        "Restore a backup (protokoll-….dump or .sqlite3) into an empty database, then verify "
        "the books as check_ledger does."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the backup file")
        parser.add_argument(
            "--expect",
            action="append",
            default=[],
            metavar="DIGEST",
            help="a head saved before the backup: it must be in the restored audit trail",
        )

    def handle(self, *args, file, expect=(), **options) -> None:
        try:
            restored = restores.restore(file, progress=self.stdout.write)
        except backups.BackupError as error:
            raise CommandError(str(error)) from error
        if restored.unapplied_migrations:
            # The backup is from an older version of the app: its tables lack what the code
            # checks. Migrating first also re-seals where the upgrade does (README).
            self.stdout.write(
                f"the backup is from an older version ({len(restored.unapplied_migrations)} "
                "migration(s) to apply): run `manage.py migrate`, then `manage.py check_ledger`"
                + "".join(f" --expect {digest}" for digest in expect)
            )
            return
        self.stdout.write("checking the books (check_ledger)")
        call_command("check_ledger", expect=list(expect), stdout=self.stdout, stderr=self.stderr)
        self.stdout.write(self.style.SUCCESS(f"restored {restored.path}"))
