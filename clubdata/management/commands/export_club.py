"""``manage.py export_club SLUG FILE``: a club's data as one archive (docs/club-archive.md)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from clubdata import archive


class Command(BaseCommand):
    help = "Write a club's whole data to one archive file (a zip; see docs/club-archive.md)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="the club's short name")
        parser.add_argument("file", help="where to write the archive (.zip)")
        parser.add_argument(
            "--summary",
            action="store_true",
            help="also print the club's balances, standings and events as JSON (to compare "
            "with import_club --summary)",
        )

    def handle(self, *args, slug: str, file: str, summary: bool, **options) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"No club with the short name {slug!r}.")
        try:
            manifest = archive.export_club(club, file)
        except OSError as error:
            raise CommandError(f"Cannot write {file}: {error.strerror or error}.") from None
        head = manifest["audit_head"]
        rows = sum(n for name, n in manifest["counts"].items() if name != "logins")
        self.stderr.write(
            f"Wrote {file}: club {club.slug} ({club.name}), {rows} rows, "
            f"{manifest['counts']['logins']} logins.\n"
            f"Audit head: {head['digest']} after {head['seq']} records."
        )
        if summary:
            self.stdout.write(json.dumps(archive.summary(club), ensure_ascii=False, indent=1))
