"""Verify the books, per club: the hash-chained audit trail, every cached balance, and the
checks other apps register with ``club.ledger.register_check`` (scoring checks that the books
hold what its games' events say, see ``scoring/audit.py``).

Exits non-zero when anything does not match, so it can run from cron or a deploy check.
"""

from django.core.management.base import BaseCommand, CommandError

from club import ledger
from club.models import Club


class Command(BaseCommand):
    help = (
        "Verify each club's audit trail, that every balance equals the sum of its entries, "
        "and that the books agree with the games."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", help="only the club with this short name")

    def handle(self, *args, club=None, **options) -> None:
        clubs = Club.objects.all()
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"no club {club!r}")
        failures = 0
        for each in clubs:
            problems = (
                ledger.verify_audit(each)
                + ledger.verify_balances(each)
                + ledger.verify_registered(each)
            )
            for problem in problems:
                self.stderr.write(f"{each.slug}: {problem}")
            failures += len(problems)
            if not problems:
                self.stdout.write(f"{each.slug}: the books, the audit trail and the games agree")
        if failures:
            raise CommandError(f"{failures} problem(s) found")
