"""``manage.py import_club FILE [--slug NEW] [--link-users] [--dry-run] [--summary]``: load a club
archive (``clubdata.archive_import``; docs/club-archive.md)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from clubdata import archive
from clubdata.archive import ArchiveError
from clubdata.archive_import import import_club


class Command(BaseCommand):
    help = (
        "Load a club archive as a new club (a new short name if its own is taken); the audit "
        "chain is re-sealed under this instance's AUDIT_KEY, starting with a record of the source."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the archive (.zip) written by export_club")
        parser.add_argument("--slug", help="the new club's short name (default: the source's)")
        parser.add_argument(
            "--link-users",
            action="store_true",
            help="give a member whose username exists here that existing login (only when it "
            "is the same person!); without it such a member is imported without a login",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="check everything, then change nothing"
        )
        parser.add_argument(
            "--summary",
            action="store_true",
            help="print the imported club's balances, standings and events as JSON",
        )

    def handle(self, *args, file: str, slug, link_users, dry_run, summary, **options) -> None:
        try:
            result = import_club(file, slug=slug, link_users=link_users, dry_run=dry_run)
        except ArchiveError as error:
            raise CommandError(f"Refused: {error}") from None
        source = result.source
        out = self.stderr
        out.write(
            f"Source: club {source['slug']} ({source['name']}) from {source['instance'] or '?'}, "
            f"format {source['format_version']}, archive SHA-256 {source['archive_sha256']}."
        )
        out.write(
            f"Source audit head: {source['head']['digest']} after {source['head']['seq']} records."
        )
        if result.source_seals_checked:
            out.write("The source's seals verify under this instance's AUDIT_KEY.")
        else:
            out.write(
                "The source's seals cannot be checked here (another AUDIT_KEY): to prove the "
                "archive unchanged, run `import_club --dry-run` on the source instance, or "
                "`check_ledger --expect <source head>` there."
            )
        for word, names in (
            ("created (no password: use 'forgot password' or a new invite)", result.created),
            ("linked to the existing login (--link-users)", result.linked),
            ("left out (the username is taken here; the member has no login)", result.left_out),
        ):
            if names:
                out.write(f"Logins {word}: {', '.join(names)}")
        if result.dry_run:
            out.write(self.style.SUCCESS("Dry run: the archive would import; nothing changed."))
            return
        head = result.head
        out.write(f"New audit head: {head.digest} after {head.seq} records.")
        out.write(
            self.style.SUCCESS(
                f"Imported as club {result.club.slug} ({result.club.name}); the books check."
            )
        )
        if summary:
            self.stdout.write(
                json.dumps(archive.summary(result.club), ensure_ascii=False, indent=1)
            )
