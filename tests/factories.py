"""The one place tests make clubs, people and logins."""

from __future__ import annotations

import itertools

from club.members import add_member
from club.models import Club, Member, User

PASSWORD = "correct-horse-battery-staple"
# The people who sit down with the scorer in the pad tests, in seat order after the scorer.
TABLE = ("Bo Ek", "Cilla Ros", "Dan Ås", "Eva Al")
_counter = itertools.count(1)


def make_club(name: str | None = None) -> Club:
    n = next(_counter)
    name = name or f"Klubb {n}"
    return Club.objects.create(name=name, slug=f"klubb-{n}")


def make_user(username: str | None = None) -> User:
    return User.objects.create_user(username or f"user{next(_counter)}", password=PASSWORD)


def make_member(
    club: Club, name: str | None = None, roles=(), login: bool = True, **fields
) -> Member:
    user = make_user() if login else None
    return add_member(club, name or f"Spelare {next(_counter)}", roles=roles, user=user, **fields)


def make_table(club: Club, first: Member, count: int) -> list[Member]:
    """``first`` and the next ``count - 1`` people of ``TABLE``, in seat order."""
    return [first, *(make_member(club, name) for name in TABLE[: count - 1])]


def ledger_url_name(name: str) -> str:
    """The books' URL name in its own namespace, from the name it had under ``club:`` before
    the ledger became an app (``ledger-payment`` → ``ledger:payment``)."""
    if name == "ledger":
        return "ledger:overview"
    return "ledger:" + name.removeprefix("ledger-")
