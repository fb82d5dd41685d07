"""Verify the books, per club: the keyed audit chain, every cached balance, and the checks other
apps register with ``ledger.register_check`` (scoring checks that the books hold what its
games' events say, and that the events are what the audit chain recorded; see
``scoring/audit.py``).

It prints each club's head (the digest of its newest audit record) and, for all clubs, one
digest over their heads. A chain that verifies can still have lost its newest records, so the
treasurer keeps a head printed earlier outside the database and passes it back with
``--expect <digest>`` (several times for several clubs): a head that is no longer in the chain
means records were deleted or the chain was rewritten.

Exits non-zero when anything does not match, so it can run from cron or a deploy check. Notes
that other apps register (``ledger.register_notice``: e.g. a game recorded before the
engine knew the cards, which holds a fact it now refuses) are printed and do not fail it.
"""

import re

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from ledger.audit import audit_head, find_in_chain, overall_head
from ledger.checks import book_notices, verify_books

_DIGEST = re.compile(r"[0-9a-f]{64}")


class Command(BaseCommand):
    help = (
        "Verify each club's audit trail, that every balance equals the sum of its entries, "
        "and that the books agree with the games; print each club's audit head."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", help="only the club with this short name")
        parser.add_argument(
            "--expect",
            action="append",
            default=[],
            metavar="DIGEST",
            help="a head printed earlier: it must still be in the audit trail (repeatable)",
        )

    def handle(self, *args, club=None, expect=(), **options) -> None:
        expected = [digest.strip().lower() for digest in expect]
        for digest in expected:
            if not _DIGEST.fullmatch(digest):
                raise CommandError(f"--expect {digest!r} is not a digest (64 hex digits)")
        clubs = Club.objects.order_by("pk")
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"no club {club!r}")
        failures = 0
        heads = {}
        for each in clubs:
            problems = verify_books(each)
            for problem in problems:
                self.stderr.write(f"{each.slug}: {problem}")
            failures += len(problems)
            for notice in book_notices(each):
                self.stdout.write(f"{each.slug}: note: {notice}")
            if not problems:
                self.stdout.write(f"{each.slug}: the books, the audit trail and the games agree")
            heads[each.pk] = head = audit_head(each)
            self.stdout.write(f"{each.slug}: audit head {head.digest} (record {head.seq})")
        overall = overall_head(heads)
        if not club:
            clubs_counted = f"{len(heads)} club" + ("" if len(heads) == 1 else "s")
            self.stdout.write(f"all clubs: audit head {overall} ({clubs_counted})")
        for digest in expected:
            failures += not self._found(clubs, heads, overall, digest)
        if failures:
            raise CommandError(f"{failures} problem(s) found")

    def _found(self, clubs, heads, overall: str, digest: str) -> bool:
        if digest == overall:
            self.stdout.write(f"{digest}: the expected head, unchanged")
            return True
        found = find_in_chain(clubs, digest)
        if found is None:
            self.stderr.write(
                f"{digest}: the expected head is not in the audit trail: the record it names "
                "was deleted (with any after it), or the chain was rewritten"
            )
            return False
        each, seq = found
        since = heads[each.pk].seq - seq
        self.stdout.write(
            f"{each.slug}: the expected head is record {seq}, "
            + ("still the newest" if since == 0 else f"{since} record(s) added since")
        )
        return True
