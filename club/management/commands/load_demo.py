from django.core.management.base import BaseCommand

from club.demo import DEMO_PASSWORD, DEMO_USERNAME, load_demo


class Command(BaseCommand):
    help = "Load the demo club (idempotent) and print the demo login."

    def handle(self, *args, **options) -> None:
        club = load_demo()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo club '{club.name}' is ready. Log in at http://127.0.0.1:8000/ "
                f"as '{DEMO_USERNAME}' with password '{DEMO_PASSWORD}'."
            )
        )
