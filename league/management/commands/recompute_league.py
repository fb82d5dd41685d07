from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from league import incremental, owed


class Command(BaseCommand):
    help = (
        "Deliver the results the league still owes (league.owed), then recompute every league "
        "table and rating from the recorded results (idempotent)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", help="only the club with this short name")

    def handle(self, *args, club=None, **options) -> None:
        clubs = Club.objects.all()
        if club:
            clubs = clubs.filter(slug=club)
            if not clubs.exists():
                raise CommandError(f"no club {club!r}")
        for each in clubs:
            delivered, failed = owed.deliver_all(each)
            if delivered or failed:
                self.stdout.write(
                    f"{each.slug}: {delivered} owed result(s) delivered, {failed} failed"
                )
            incremental.recompute_club(each)
            self.stdout.write(f"{each.slug}: recomputed")
