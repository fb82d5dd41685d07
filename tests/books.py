"""The books' check after a test, asked only as far as the test can have changed the books.

``tests/conftest.py`` calls ``books_problems`` after the body of every test that uses a
database. What it asks depends on what is in the database (each test starts from an empty one,
and the check runs before the test's rollback or flush, so a row there is a row the test or its
fixtures wrote, on any connection, the live server's included):

- **Nothing of the books** (no audit record, no money row): nothing to check.
- **Money may have moved** — a row in any table that one of the money checks reads (a
  transaction or entry, an account whose balance is not 0, a pot or a bet, a game or an event, an
  evening, a competition, a hand prize or its payment, a league result, a closed period): the whole
  ``check_ledger`` (``ledger.verify_books``).
- **Only people** (a club, its members, their roles and accounts at 0, the seals of who owns
  what): the checks that can find something there — the audit chain, the balances, and the
  registered checks that compare rows with their seals (``SEAL_CHECKS``). The money checks walk
  games, transactions, evenings, competitions and prizes: with none of those rows they have
  nothing to walk.

Every registered check is in ``SEAL_CHECKS`` or ``MONEY_CHECKS`` (tests/test_books.py holds
that), so a check added later is never skipped unnoticed.
"""

from __future__ import annotations

from django.db.models import Q

import ledger
from club.models import Club
from competitions import money as competition_money
from competitions.models import Competition
from evenings import options, pots
from evenings.models import Evening
from honours import checks as honour_checks
from honours.models import HandPrize, HonourPaid
from league.models import GameResult
from ledger import ownership
from ledger.models import Account, AccountKind, AuditRecord, Entry, Period, Transaction
from scoring import audit as game_audit
from scoring.models import Event, Game
from scoring.recording import hand_honours

# The registered checks that compare rows people make with their seals: asked whenever there are
# seals.
SEAL_CHECKS = frozenset({ownership.check_ownership, options.check_options_sealed})
# The registered checks that walk money and games: asked when a money row exists.
MONEY_CHECKS = frozenset(
    {
        game_audit.check_game_money,
        game_audit.check_game_events,
        game_audit.check_game_results,
        hand_honours.check_honours_replay,
        pots.check_pot_moves,
        competition_money.check_competition_money,
        honour_checks.check_prizes_paid,
    }
)


def money_rows_exist() -> bool:
    """Whether any row a money check reads is in the database."""
    money = (
        Transaction.objects.all(),
        Entry.objects.all(),
        Account.objects.filter(~Q(balance_ore=0) | Q(kind__in=[AccountKind.POT, AccountKind.BET])),
        Game.objects.all(),
        Event.objects.all(),
        Evening.objects.all(),
        Competition.objects.all(),
        HandPrize.objects.all(),
        HonourPaid.objects.all(),
        GameResult.objects.all(),
        Period.objects.all(),
    )
    return any(rows.exists() for rows in money)


def books_problems(*, by_hand: bool = False) -> list[str]:
    """The problems ``check_ledger`` would find, asked as far as the module docstring says.
    ``by_hand``: the test posted by hand what only a game or an evening posts (the ledger's own
    arithmetic, a statement's layout): the chain and the balances must still agree, the games'
    and evenings' checks are not asked."""
    money = money_rows_exist()
    if not money and not AuditRecord.objects.exists():
        return []
    if by_hand:
        checks = [ledger.verify_audit, ledger.verify_balances]
    elif money:
        checks = [ledger.verify_books]
    else:
        checks = [ledger.verify_audit, ledger.verify_balances, *sorted_checks(SEAL_CHECKS)]
    return [
        f"{club.slug}: {problem}"
        for club in Club.objects.order_by("pk")
        for check in checks
        for problem in check(club)
    ]


def sorted_checks(checks: frozenset) -> list:
    return sorted(checks, key=lambda check: (check.__module__, check.__qualname__))
