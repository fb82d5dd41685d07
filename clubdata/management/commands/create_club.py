"""Found a club from the command line, whatever ``CLUB_SIGNUP`` says (README "Starting your
club"): the way clubs are made on an instance where only its administrators make them.

    manage.py create_club --name "Kille i Kungsholmen" --admin anna [--slug kik]
        [--swish 1234567890] [--games kille,cribbage] [--create-admin]

The admin's login must exist, unless ``--create-admin`` makes it: its password is read from the
environment variable ``PROTOKOLL_ADMIN_PASSWORD``, else asked for at the terminal. The same
checks as the form (``clubdata.founding.found_club``); prints the club's start page's path.
"""

from __future__ import annotations

import getpass
import os
import sys

from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

from club.models import User
from clubdata import founding
from engine import registry

PASSWORD_VARIABLE = "PROTOKOLL_ADMIN_PASSWORD"


def _messages(error: ValidationError) -> str:
    return " ".join(error.messages)


class Command(BaseCommand):
    help = "Found a club with an existing login as its admin, and print its address."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--name", required=True, help="the club's name")
        parser.add_argument("--admin", required=True, metavar="USERNAME", help="its admin's login")
        parser.add_argument(
            "--slug", default="", help="short name in its URLs (default: from the name)"
        )
        parser.add_argument("--swish", default="", metavar="NUMBER", help="the club's Swish number")
        parser.add_argument(
            "--games",
            default="",
            metavar="KEYS",
            help="comma-separated games it plays (default: all): " + ",".join(registry.game_keys()),
        )
        parser.add_argument(
            "--create-admin",
            action="store_true",
            help=f"make the admin's login if it does not exist (password from ${PASSWORD_VARIABLE} "
            "or asked for)",
        )

    def handle(self, *args, **options) -> None:
        games = [key.strip() for key in options["games"].split(",") if key.strip()] or None
        with transaction.atomic():
            user = self._admin(options["admin"], create=options["create_admin"])
            try:
                club = founding.found_club(
                    user,
                    options["name"],
                    slug=options["slug"],
                    swish_number=options["swish"],
                    games=games,
                )
            except ValidationError as error:
                raise CommandError(_messages(error)) from None
        self.stdout.write(reverse("club:club-home", args=[club.slug]))

    def _admin(self, username: str, *, create: bool) -> User:
        user = User.objects.filter(username=username).first()
        if user is not None:
            if not user.is_active:
                raise CommandError(f"The login {username!r} is deactivated.")
            return user
        if not create:
            raise CommandError(
                f"No login {username!r}. Make it first (manage.py createsuperuser, or an invite "
                "link), or pass --create-admin."
            )
        try:
            User.username_validator(username)
        except ValidationError as error:
            raise CommandError(_messages(error)) from None
        password = os.environ.get(PASSWORD_VARIABLE) or self._ask_password()
        user = User(username=username)
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError(_messages(error)) from None
        user.set_password(password)
        user.save()
        self.stderr.write(f"Made the login {username!r}.")
        return user

    def _ask_password(self) -> str:
        if not sys.stdin.isatty():
            raise CommandError(f"Set {PASSWORD_VARIABLE} for the new login's password.")
        password = getpass.getpass("Password for the new login: ")
        if password != getpass.getpass("Again: "):
            raise CommandError("The two passwords differ.")
        return password
