from django.core.management.base import BaseCommand

from club.demo import DEMO_PASSWORD, DEMO_USERNAME, load_demo
from club.models import User
from scoring.demo import record_evenings


class Command(BaseCommand):
    help = "Load the demo club with a few recorded evenings (idempotent) and print the login."

    def handle(self, *args, **options) -> None:
        club = load_demo()
        record_evenings(club, User.objects.get(username=DEMO_USERNAME))
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club '{club.name}' is ready. Log in at http://127.0.0.1:8000/ "
                f"as '{DEMO_USERNAME}' with password '{DEMO_PASSWORD}'."
            )
        )
