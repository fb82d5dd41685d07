"""Posting money: the only code that writes ``Transaction`` and ``Entry`` rows.

Design
- ``post(club, entries, memo, source, by)`` is one database transaction: it locks the club row
  (so postings, the audit chain and closings of one club are serialised — a club posts a few
  times a minute, never thousands), checks every rule, writes the transaction and its entries,
  moves the cached ``Account.balance_ore`` with ``F()`` updates and appends a keyed, chained
  ``AuditRecord`` (``ledger.audit``). Anything wrong raises ``LedgerError`` (a
  ``ValidationError`` with a code) and nothing is written.
- ``key`` makes a posting idempotent: the second ``post`` with the same key returns the first
  transaction unchanged (dues per member and period, one game event's money).
- A single amount a person caused is bounded by the ceiling (``amount_ceiling``: the club's,
  else the instance's ``settings.MAX_AMOUNT_ORE``); every balance by ``MAX_BALANCE_ORE``
  either way, checked in the same conditional UPDATE that moves it.
- Corrections are reversals: ``reverse()`` posts the negated entries today, in the open period,
  pointing at the original. A transaction is reversed at most once; a reversal is not reversed.
- Game money has one source of truth, the game's events: a transaction a game posted
  (``Transaction.is_game_money``) is reversed only by the game's own undo and void, which say
  so with ``reverse(..., game_recording=True)``. From anywhere else ``reverse`` refuses it, so
  the books, the game page, the league and the next evening's pot never disagree.
- Sign convention: see ``ledger.models`` (credit positive; members, pots and treasury read
  positive as "money they have"; cash and expenses are shown negated).

Relies on ``ledger.audit`` for the chain's records and on closed periods (``ledger.periods``
writes them) being rows this module reads: a date inside one is refused.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date as Date

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, User
from core.money import format_ore
from engine.base import MAX_BALANCE_ORE
from ledger import audit
from ledger.models import Account, AuditRecord, Entry, Period, Source, Transaction


class LedgerError(ValidationError):
    """A posting the books refuse; ``code`` says which rule."""


def legs_for_transfer(payer: Account, payee: Account, amount_ore: int) -> list[tuple[Account, int]]:
    """The two entries of money moving from payer to payee."""
    return [(payer, -amount_ore), (payee, amount_ore)]


def amount_ceiling(club: Club | None = None) -> int:
    """The largest single amount in öre: the club's own ceiling (``Club.max_amount_ore``) when it
    set one, never above the instance's (``settings.MAX_AMOUNT_ORE``)."""
    ceiling = settings.MAX_AMOUNT_ORE
    own = getattr(club, "max_amount_ore", None)
    return own if own is not None and 0 < own < ceiling else ceiling


def check_amount(amount_ore: int, club: Club | None = None) -> None:
    """Refuse a single amount beyond the ceiling (``amount_ceiling``: the club's, else the
    instance's ``settings.MAX_AMOUNT_ORE``).

    ``post`` applies it to every entry a person caused (payments, transfers, fees,
    settlements); forms use it as a validator, so the refusal comes before anything is posted.
    """
    ceiling = amount_ceiling(club)
    if abs(amount_ore) > ceiling:
        raise LedgerError(
            _("An amount can be at most %(limit)s.") % {"limit": format_ore(ceiling)},
            code="too_large",
        )


def post(
    club: Club,
    entries: Iterable[tuple[Account, int]],
    memo: str,
    source: str,
    by: User | None,
    *,
    date: Date | None = None,
    key: str | None = None,
    ref: str = "",
) -> Transaction:
    """Post one balanced transaction. Refuses (``LedgerError``) an empty or unbalanced one, a
    zero, foreign or closed account, an amount above the ceiling, a balance beyond
    ``MAX_BALANCE_ORE``, or a date inside a closed period."""
    source = Source(source)
    legs = _checked_legs(club, entries, source)
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        if key:
            existing = Transaction.objects.filter(club=club, key=key).first()
            if existing is not None:
                return existing
        now = timezone.now()
        booked_on = date or timezone.localdate(now)
        _refuse_closed(club, legs, booked_on)
        try:
            with transaction.atomic():
                tx = Transaction.objects.create(
                    club=club,
                    date=booked_on,
                    memo=memo.strip()[:200],
                    source=source,
                    key=key or None,
                    ref=ref,
                    created_by=by,
                    created_at=now,
                )
        except IntegrityError:
            # Another process posted the same key between our check and insert.
            return Transaction.objects.get(club=club, key=key)
        _write_entries(tx, legs)
        audit.append_books_record(club, AuditRecord.Action.POST, by, now, transaction=tx)
    return tx


def _checked_legs(
    club: Club, entries: Iterable[tuple[Account, int]], source: str
) -> list[tuple[Account, int]]:
    legs = list(entries)
    if not legs:
        raise LedgerError(_("A transaction needs entries."), code="empty")
    for account, amount in legs:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise LedgerError(_("Amounts are whole öre."), code="not_integer")
        # A game's entries are the engine's arithmetic on options that are themselves under
        # the ceiling (a skunk triples the stake, a Kille pot grows over evenings): refusing
        # them would make the winning event unrecordable. They are still bounded below, like
        # every balance.
        if source not in (Source.GAME, Source.EVENING):  # an evening moves whole pots
            check_amount(amount, club)
        elif abs(amount) > MAX_BALANCE_ORE:
            raise LedgerError(
                _("An amount can be at most %(limit)s.") % {"limit": format_ore(MAX_BALANCE_ORE)},
                code="too_large",
            )
        if amount == 0:
            raise LedgerError(
                _("An entry of zero on %(account)s moves no money.") % {"account": account},
                code="zero",
            )
        if account.club_id != club.pk:
            raise LedgerError(_("An account of another club was given."), code="foreign_account")
    if sum(amount for _account, amount in legs) != 0:
        raise LedgerError(
            _("The entries do not balance: they sum to %(sum)s öre.")
            % {"sum": sum(a for _acc, a in legs)},
            code="unbalanced",
        )
    return legs


def _refuse_closed(club: Club, legs: Sequence[tuple[Account, int]], booked_on: Date) -> None:
    ids = {account.pk for account, _amount in legs}
    closed = Account.objects.filter(pk__in=ids, closed_at__isnull=False).first()
    if closed is not None:
        raise LedgerError(
            _("%(account)s is closed.") % {"account": closed.label}, code="closed_account"
        )
    period = Period.objects.filter(club=club, start__lte=booked_on, end__gte=booked_on).first()
    if period is not None:
        raise LedgerError(
            _("%(date)s lies in the closed period %(period)s; post the correction today.")
            % {"date": booked_on.isoformat(), "period": period.name},
            code="closed_period",
        )


def _write_entries(tx: Transaction, legs: Sequence[tuple[Account, int]]) -> None:
    """Write the entries and move the cached balances. A balance that would pass
    ``MAX_BALANCE_ORE`` either way is refused (the caller's transaction rolls back), so no
    account ever comes near the database's 64-bit limit and every later sum stays exact."""
    Entry.objects.bulk_create(
        Entry(transaction=tx, account=account, amount_ore=amount, date=tx.date)
        for account, amount in legs
    )
    per_account: dict[int, int] = defaultdict(int)
    names = {account.pk: account.label for account, _amount in legs}
    for account, amount in legs:
        per_account[account.pk] += amount
    for account_id, amount in sorted(per_account.items()):  # fixed order: no lock cycles
        if not amount:
            continue
        # Checked and moved in one conditional UPDATE, under the row lock it takes.
        moved = Account.objects.filter(
            pk=account_id,
            balance_ore__gte=-MAX_BALANCE_ORE - amount,
            balance_ore__lte=MAX_BALANCE_ORE - amount,
        ).update(balance_ore=F("balance_ore") + amount)
        if moved != 1:
            raise LedgerError(
                _(
                    "%(account)s would hold or owe more than %(limit)s; the books refuse the "
                    "posting."
                )
                % {"account": names[account_id], "limit": format_ore(MAX_BALANCE_ORE)},
                code="balance_limit",
            )


@transaction.atomic
def reverse(
    tx: Transaction, reason: str, by: User | None, *, game_recording: bool = False
) -> Transaction:
    """Post the negated entries today, pointing at ``tx``. Once per transaction.

    A game's money is reversed only by the game (its undo and void pass ``game_recording``),
    and the game only reverses its own money."""
    if tx.is_game_money and not game_recording:
        raise LedgerError(game_money_refusal(tx), code="game_money")
    if tx.is_pot_move:
        raise LedgerError(
            _(
                "This money was moved between the club's pot and an evening's tables by the "
                "evening's rule; it follows the games played from those pots and cannot be "
                "reversed by hand."
            ),
            code="pot_move",
        )
    if game_recording and not tx.is_game_money:
        raise LedgerError(_("A game reverses only its own money."), code="not_game_money")
    reason = (reason or "").strip()
    if not reason:
        raise LedgerError(_("Say why the transaction is reversed."), code="reason_required")
    Club.objects.select_for_update().get(pk=tx.club_id)
    tx = Transaction.objects.select_related("club").get(pk=tx.pk)
    if tx.reverses_id is not None:
        raise LedgerError(_("A reversal cannot itself be reversed."), code="reversal")
    if Transaction.objects.filter(reverses=tx).exists():
        raise LedgerError(_("This transaction has already been reversed."), code="reversed")
    legs = [(e.account, -e.amount_ore) for e in tx.entries.select_related("account")]
    now = timezone.now()
    _refuse_closed(tx.club, legs, timezone.localdate(now))
    reversal = Transaction.objects.create(
        club=tx.club,
        date=timezone.localdate(now),
        memo=reason[:200],
        source=tx.source,
        ref=tx.ref,
        created_by=by,
        created_at=now,
        reverses=tx,
    )
    _write_entries(reversal, legs)
    audit.append_books_record(tx.club, AuditRecord.Action.REVERSE, by, now, transaction=reversal)
    return reversal


def game_money_refusal(tx: Transaction) -> str:
    """Why the books will not reverse this game's money themselves, and where to go instead."""
    if tx.game_id is None:
        return _("This money was moved by a game; only the game can take it back.")
    return _(
        "This money belongs to game #%(id)s. Undo the event or void the game on the game's "
        "page; the game, the league and the books then change together."
    ) % {"id": tx.game_id}
