"""Send the mail still owed and due (``notices.outbox.sweep``): what the beat does every few
minutes, for an installation without a broker (and so without a beat), e.g. from cron."""

from django.core.management.base import BaseCommand

from notices import outbox


class Command(BaseCommand):
    help = "Send the club mail that is owed and due (what the beat's sweep does)."

    def handle(self, *args, **options) -> None:
        sent = outbox.sweep()
        self.stdout.write(f"{sent} sent")
