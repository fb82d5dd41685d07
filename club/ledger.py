"""The club's books. The only code that writes ``Transaction`` and ``Entry`` rows.

Design
- ``post(club, entries, memo, source, by)`` is one database transaction: it locks the club row
  (so postings, the audit chain and closings of one club are serialised — a club posts a few
  times a minute, never thousands), checks every rule, writes the transaction and its entries,
  moves the cached ``Account.balance_ore`` with ``F()`` updates and appends a hash-chained
  ``AuditRecord``. Anything wrong raises ``LedgerError`` (a ``ValidationError`` with a code)
  and nothing is written.
- Corrections are reversals: ``reverse()`` posts the negated entries today, in the open period,
  pointing at the original. A transaction is reversed at most once; a reversal is not reversed.
- Game money has one source of truth, the game's events: a transaction a game posted
  (``Transaction.is_game_money``) is reversed only by the game's own undo and void, which say
  so with ``reverse(..., game_recording=True)``. From anywhere else ``reverse`` refuses it, so
  the books, the game page, the league and the next evening's pot never disagree.
- Other apps that keep money here add their own consistency checks with ``register_check``;
  ``manage.py check_ledger`` runs them next to the audit and balance checks (``club`` never
  imports those apps, they register themselves from ``AppConfig.ready``).
- ``key`` makes a posting idempotent: the second ``post`` with the same key returns the first
  transaction unchanged (dues per member and period, one game event's money).
- Balances: ``Account.balance_ore`` for "now" (one row read), the sum of entries up to a date
  for ``balance(account, at=...)`` (index on account, date).
- ``close_period`` freezes a stretch of dates: postings dated inside it are refused, and its
  opening and closing balances are stored.
- Sign convention: see ``club.models`` (credit positive; members, pots and treasury read
  positive as "money they have"; cash and expenses are shown negated).
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date as Date

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import (
    Account,
    AccountKind,
    AuditRecord,
    Club,
    Entry,
    Member,
    Period,
    PeriodBalance,
    Source,
    Transaction,
    User,
)

GENESIS = "0" * 64


class LedgerError(ValidationError):
    """A posting the books refuse; ``code`` says which rule."""


# --- accounts ------------------------------------------------------------------------------

SYSTEM_ACCOUNT_NAMES = {
    AccountKind.TREASURY: "Klubbkassan",
    AccountKind.CASH: "Kontanter",
    AccountKind.DUES_INCOME: "Medlemsavgifter",
    AccountKind.EXPENSES: "Utgifter",
}


def member_account_key(member_id: int) -> str:
    return f"member:{member_id}"


def member_account(member: Member) -> Account:
    account, _created = Account.objects.get_or_create(
        club_id=member.club_id,
        key=member_account_key(member.pk),
        defaults={"kind": AccountKind.MEMBER, "name": member.name, "member": member},
    )
    return account


def system_account(club: Club, kind: str) -> Account:
    """The club's one treasury, cash, dues income or expenses account."""
    kind = AccountKind(kind)
    if kind not in SYSTEM_ACCOUNT_NAMES:
        raise ValueError(f"{kind} is not a system account kind")
    account, _created = Account.objects.get_or_create(
        club=club, key=kind.value, defaults={"kind": kind, "name": SYSTEM_ACCOUNT_NAMES[kind]}
    )
    return account


def pot_account(club: Club, key: str, name: str) -> Account:
    """A named pot that outlives games, e.g. ``pot_account(club, "pot:kille", "Killepotten")``."""
    account, _created = Account.objects.get_or_create(
        club=club, key=key, defaults={"kind": AccountKind.POT, "name": name}
    )
    return account


def bet_account(club: Club, key: str, name: str, owner: Member | None = None) -> Account:
    account, _created = Account.objects.get_or_create(
        club=club, key=key, defaults={"kind": AccountKind.BET, "name": name, "member": owner}
    )
    return account


@transaction.atomic
def close_account(account: Account, by: User | None = None) -> None:
    Club.objects.select_for_update().get(pk=account.club_id)
    account.refresh_from_db()
    if account.balance_ore != 0:
        raise LedgerError(
            _("%(account)s still holds money and cannot be closed.") % {"account": account},
            code="not_empty",
        )
    account.closed_at = timezone.now()
    account.save(update_fields=["closed_at"])


# --- posting -------------------------------------------------------------------------------


def legs_for_transfer(payer: Account, payee: Account, amount_ore: int) -> list[tuple[Account, int]]:
    """The two entries of money moving from payer to payee."""
    return [(payer, -amount_ore), (payee, amount_ore)]


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
    zero, foreign or closed account, or a date inside a closed period."""
    legs = _checked_legs(club, entries)
    source = Source(source)
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
        _append_audit(club, AuditRecord.Action.POST, by, now, transaction=tx)
    return tx


def _checked_legs(club: Club, entries: Iterable[tuple[Account, int]]) -> list[tuple[Account, int]]:
    legs = list(entries)
    if not legs:
        raise LedgerError(_("A transaction needs entries."), code="empty")
    for account, amount in legs:
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise LedgerError(_("Amounts are whole öre."), code="not_integer")
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
            _("%(account)s is closed.") % {"account": closed.name}, code="closed_account"
        )
    period = Period.objects.filter(club=club, start__lte=booked_on, end__gte=booked_on).first()
    if period is not None:
        raise LedgerError(
            _("%(date)s lies in the closed period %(period)s; post the correction today.")
            % {"date": booked_on.isoformat(), "period": period.name},
            code="closed_period",
        )


def _write_entries(tx: Transaction, legs: Sequence[tuple[Account, int]]) -> None:
    Entry.objects.bulk_create(
        Entry(transaction=tx, account=account, amount_ore=amount, date=tx.date)
        for account, amount in legs
    )
    per_account: dict[int, int] = defaultdict(int)
    for account, amount in legs:
        per_account[account.pk] += amount
    for account_id, amount in sorted(per_account.items()):  # fixed order: no lock cycles
        if amount:
            Account.objects.filter(pk=account_id).update(balance_ore=F("balance_ore") + amount)


@transaction.atomic
def reverse(
    tx: Transaction, reason: str, by: User | None, *, game_recording: bool = False
) -> Transaction:
    """Post the negated entries today, pointing at ``tx``. Once per transaction.

    A game's money is reversed only by the game (its undo and void pass ``game_recording``),
    and the game only reverses its own money."""
    if tx.is_game_money and not game_recording:
        raise LedgerError(game_money_refusal(tx), code="game_money")
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
    _append_audit(tx.club, AuditRecord.Action.REVERSE, by, now, transaction=reversal)
    return reversal


def game_money_refusal(tx: Transaction) -> str:
    """Why the books will not reverse this game's money themselves, and where to go instead."""
    if tx.game_id is None:
        return _("This money was moved by a game; only the game can take it back.")
    return _(
        "This money belongs to game #%(id)s. Undo the event or void the game on the game's "
        "page; the game, the league and the books then change together."
    ) % {"id": tx.game_id}


# --- reading -------------------------------------------------------------------------------


def balance(account: Account, at: Date | None = None) -> int:
    """The balance now (the cached column), or at the end of the day ``at``."""
    if at is None:
        return Account.objects.values_list("balance_ore", flat=True).get(pk=account.pk)
    total = Entry.objects.filter(account=account, date__lte=at).aggregate(s=Sum("amount_ore"))
    return total["s"] or 0


@dataclass(frozen=True)
class StatementRow:
    entry: Entry
    amount_ore: int
    running_ore: int


@dataclass(frozen=True)
class Statement:
    account: Account
    start: Date | None
    end: Date | None
    opening_ore: int
    rows: list[StatementRow]
    closing_ore: int


def statement(account: Account, start: Date | None = None, end: Date | None = None) -> Statement:
    """Every entry of the account between two dates with its running balance."""
    opening = 0
    if start is not None:
        before = Entry.objects.filter(account=account, date__lt=start).aggregate(
            s=Sum("amount_ore")
        )
        opening = before["s"] or 0
    entries = Entry.objects.filter(account=account)
    if start is not None:
        entries = entries.filter(date__gte=start)
    if end is not None:
        entries = entries.filter(date__lte=end)
    running = opening
    rows = []
    for entry in entries.select_related("transaction", "transaction__reverses").order_by(
        "date", "id"
    ):
        running += entry.amount_ore
        rows.append(StatementRow(entry, entry.amount_ore, running))
    return Statement(account, start, end, opening, rows, running)


def balances_at(club: Club, at: Date) -> dict[int, int]:
    """Every account's balance at the end of ``at``, in one grouped query."""
    sums = (
        Entry.objects.filter(account__club=club, date__lte=at)
        .values("account_id")
        .annotate(s=Sum("amount_ore"))
    )
    return {row["account_id"]: row["s"] for row in sums}


# --- closing periods -----------------------------------------------------------------------


@transaction.atomic
def close_period(club: Club, name: str, start: Date, end: Date, by: User | None) -> Period:
    """Close the books from ``start`` to ``end``; their report never changes afterwards."""
    if start > end:
        raise LedgerError(_("The period ends before it starts."), code="dates")
    now = timezone.now()
    if end > timezone.localdate(now):
        raise LedgerError(_("A period can only be closed once it has ended."), code="future")
    Club.objects.select_for_update().get(pk=club.pk)
    if Period.objects.filter(club=club, start__lte=end, end__gte=start).exists():
        raise LedgerError(_("The period overlaps one that is already closed."), code="overlap")
    period = Period.objects.create(
        club=club, name=name.strip() or f"{start}–{end}", start=start, end=end, closed_by=by
    )
    opening = balances_at(club, start.fromordinal(start.toordinal() - 1))
    closing = balances_at(club, end)
    PeriodBalance.objects.bulk_create(
        PeriodBalance(
            period=period,
            account_id=account_id,
            opening_ore=opening.get(account_id, 0),
            closing_ore=closing.get(account_id, 0),
        )
        for account_id in sorted(set(opening) | set(closing))
    )
    _append_audit(club, AuditRecord.Action.CLOSE, by, now, period=period)
    return period


# --- the audit trail -----------------------------------------------------------------------


def _transaction_content(tx: Transaction) -> dict:
    entries = sorted(tx.entries.values_list("account_id", "amount_ore", "date"))
    return {
        "id": tx.pk,
        "date": tx.date.isoformat(),
        "memo": tx.memo,
        "source": tx.source,
        "key": tx.key,
        "ref": tx.ref,
        "reverses": tx.reverses_id,
        "entries": [[a, amount, d.isoformat()] for a, amount, d in entries],
    }


def _period_content(period: Period) -> dict:
    balances = sorted(period.balances.values_list("account_id", "opening_ore", "closing_ore"))
    return {
        "id": period.pk,
        "name": period.name,
        "start": period.start.isoformat(),
        "end": period.end.isoformat(),
        "balances": [list(b) for b in balances],
    }


def _digest(record: AuditRecord) -> str:
    content = {
        "club": record.club_id,
        "seq": record.seq,
        "action": record.action,
        "by": record.by_id,
        "at": record.at.isoformat(),
        "transaction": _transaction_content(record.transaction) if record.transaction_id else None,
        "period": _period_content(record.period) if record.period_id else None,
    }
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _chain(prev_hash: str, digest: str) -> str:
    return hashlib.sha256(f"{prev_hash}:{digest}".encode()).hexdigest()


def _append_audit(club: Club, action: str, by: User | None, at, **target) -> AuditRecord:
    """Caller holds the club lock, so seq and prev_hash cannot race."""
    last = AuditRecord.objects.filter(club=club).order_by("-seq").first()
    record = AuditRecord(
        club=club,
        seq=(last.seq + 1) if last else 1,
        action=action,
        by=by,
        at=at,
        prev_hash=last.hash if last else GENESIS,
        **target,
    )
    record.digest = _digest(record)
    record.hash = _chain(record.prev_hash, record.digest)
    record.save()
    return record


def verify_audit(club: Club) -> list[str]:
    """Recompute the trail from the rows as they are now; return what does not match."""
    problems: list[str] = []
    prev = GENESIS
    expected_seq = 1
    records = AuditRecord.objects.filter(club=club).select_related("transaction", "period")
    for record in records.order_by("seq"):
        if record.seq != expected_seq:
            problems.append(f"record {expected_seq} is missing")
            expected_seq = record.seq
        if record.prev_hash != prev:
            problems.append(f"record {record.seq}: chain broken (previous hash differs)")
        if _digest(record) != record.digest:
            problems.append(f"record {record.seq}: content changed since it was recorded")
        if _chain(record.prev_hash, record.digest) != record.hash:
            problems.append(f"record {record.seq}: hash does not match its content")
        prev = record.hash
        expected_seq += 1
    audited = AuditRecord.objects.filter(club=club, transaction__isnull=False)
    unaudited = Transaction.objects.filter(club=club).exclude(pk__in=audited.values("transaction"))
    problems.extend(
        f"transaction {pk} has no audit record" for pk in unaudited.values_list("pk", flat=True)
    )
    return problems


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


def verify_registered(club: Club) -> list[str]:
    """The problems every registered check finds in the club's books."""
    return [problem for check in _BOOK_CHECKS for problem in check(club)]


def verify_balances(club: Club) -> list[str]:
    """Every cached balance equals the sum of its entries, and all entries sum to zero."""
    problems = []
    sums = dict(
        Entry.objects.filter(account__club=club)
        .values("account_id")
        .annotate(s=Sum("amount_ore"))
        .values_list("account_id", "s")
    )
    for account in Account.objects.filter(club=club):
        if account.balance_ore != sums.get(account.pk, 0):
            problems.append(
                f"{account.key}: cached {account.balance_ore}, entries {sums.get(account.pk, 0)}"
            )
    unbalanced = (
        Entry.objects.filter(transaction__club=club)
        .values("transaction_id")
        .annotate(s=Sum("amount_ore"))
        .filter(~Q(s=0))
    )
    problems.extend(f"transaction {row['transaction_id']} sums to {row['s']}" for row in unbalanced)
    return problems
