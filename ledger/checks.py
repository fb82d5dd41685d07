"""The checks of the books that ``manage.py check_ledger`` runs for every club.

``verify_books`` is everything asked of one club's books: the audit chain
(``ledger.audit.verify_audit``), the balances (``ledger.balances.verify_balances``) and every
check another app registered. Apps that keep money here add their own consistency checks with
``register_check`` (scoring: the games' money against the engines' replay; evenings: the pot
moves) from ``AppConfig.ready``, so ``club`` and the ledger never import those apps. A check
takes a club and returns its problems in words; a notice (``register_notice``) says what a
treasurer should know but is not wrong, and does not fail the check.
"""

from __future__ import annotations

from collections.abc import Callable

from club.models import Club
from ledger.audit import verify_audit
from ledger.balances import verify_balances

# Checks that apps keeping money in the books add: each takes a club and returns its problems,
# in words, as verify_audit and verify_balances do.
BookCheck = Callable[[Club], list[str]]
_BOOK_CHECKS: list[BookCheck] = []


def register_check(check: BookCheck) -> BookCheck:
    """Have ``manage.py check_ledger`` run ``check(club)`` for every club. Call it from an
    app's ``AppConfig.ready()``; registering the same function twice runs it once."""
    if check not in _BOOK_CHECKS:
        _BOOK_CHECKS.append(check)
    return check


def registered_checks() -> tuple[BookCheck, ...]:
    return tuple(_BOOK_CHECKS)


# Notices: what a treasurer should know but that is not wrong, e.g. a game recorded before the
# engine knew the cards that holds a fact the engine now refuses (it replays as it was recorded).
# ``check_ledger`` prints them apart and they do not make it fail.
_NOTICES: list[BookCheck] = []


def register_notice(notice: BookCheck) -> BookCheck:
    """Have ``manage.py check_ledger`` print ``notice(club)``'s lines for every club, as notes
    that do not fail the check. Registering the same function twice runs it once."""
    if notice not in _NOTICES:
        _NOTICES.append(notice)
    return notice


def book_notices(club: Club) -> list[str]:
    """What every registered notice says about the club."""
    return [line for notice in _NOTICES for line in notice(club)]


def verify_registered(club: Club) -> list[str]:
    """The problems every registered check finds in the club's books."""
    return [problem for check in _BOOK_CHECKS for problem in check(club)]


def verify_books(club: Club) -> list[str]:
    """Everything ``manage.py check_ledger`` asks of one club's books: the audit chain, the
    balances and every registered check (the games' money, the evenings' pot moves …)."""
    return verify_audit(club) + verify_balances(club) + verify_registered(club)
