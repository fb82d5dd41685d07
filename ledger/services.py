"""The club's books. The only code that writes ``Transaction`` and ``Entry`` rows.

Design
- ``post(club, entries, memo, source, by)`` is one database transaction: it locks the club row
  (so postings, the audit chain and closings of one club are serialised — a club posts a few
  times a minute, never thousands), checks every rule, writes the transaction and its entries,
  moves the cached ``Account.balance_ore`` with ``F()`` updates and appends a keyed, chained
  ``AuditRecord``. Anything wrong raises ``LedgerError`` (a ``ValidationError`` with a code)
  and nothing is written.
- The audit trail is one chain per club, sealed with an HMAC key from the environment
  (``AUDIT_KEY``), that covers the books and, through ``append_audit``, other apps' rows such
  as game events. Other apps keep their own rows in step: scoring appends a record per event
  in the event's database transaction and compares its events with their records in a
  registered book check, so ``club`` never needs to know what an event is. Design and checks:
  the comment at "the audit trail" below.
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
  for ``balance(account, at=...)`` (index on account, date) — or, for a recent date, the cached
  balance less the entries after it, whichever side of the date is shorter
  (``opening_balance``).
- ``close_period`` freezes a stretch of dates: postings dated inside it are refused, and its
  opening and closing balances are stored.
- Sign convention: see ``club.models`` (credit positive; members, pots and treasury read
  positive as "money they have"; cash and expenses are shown negated).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, timedelta
from datetime import date as Date

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Min, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, Member, User
from core.money import format_ore
from engine.base import MAX_BALANCE_ORE
from ledger.models import (
    SYSTEM_LABELS,
    Account,
    AccountKind,
    AuditRecord,
    Entry,
    Period,
    PeriodBalance,
    Source,
    Transaction,
)

GENESIS = "0" * 64


class LedgerError(ValidationError):
    """A posting the books refuse; ``code`` says which rule."""


# --- accounts ------------------------------------------------------------------------------


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
    if kind not in SYSTEM_LABELS:
        raise ValueError(f"{kind} is not a system account kind")
    account, _created = Account.objects.get_or_create(
        club=club, key=kind.value, defaults={"kind": kind, "name": str(SYSTEM_LABELS[kind])}
    )
    return account


def guest_account_key(attendee_id: int) -> str:
    return f"guest:{attendee_id}"


def guest_account(club: Club, attendee_id: int, name: str) -> Account:
    """A guest's account for one club evening (``evenings`` names the attendee): the guest's
    stakes, winnings and fee meet here, so the board and tonight's settle-up see them."""
    account, _created = Account.objects.get_or_create(
        club=club,
        key=guest_account_key(attendee_id),
        defaults={"kind": AccountKind.GUEST, "name": name[:100]},
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


# --- a game's pot and betar -------------------------------------------------------------------
#
# The one place that knows how a game's money accounts are keyed: "pot:<game>" for the club's
# pot a game carries between evenings, "bet:<game>:<n>" for bet number n (Polskt pass). At a
# club evening with several tables of one pot game each table has its own: "pot:<game>:<t>"
# and "bet:<game>:<t>:<n>" for table t (``evenings``). Scoring asks for them by game (and
# table), never by spelling the key.


def game_pot_key(game_key: str, table: int | None = None) -> str:
    return f"pot:{game_key}" if table is None else f"pot:{game_key}:{int(table)}"


def game_bet_key(game_key: str, bet_id: int | str, table: int | None = None) -> str:
    prefix = f"bet:{game_key}:" if table is None else f"bet:{game_key}:{int(table)}:"
    return f"{prefix}{bet_id}"


def game_pot(
    club: Club, game_key: str, *, table: int | None = None, create: bool = True
) -> Account | None:
    """The club's pot for ``game_key`` (table ``table``'s, at an evening of several tables);
    ``create=False`` answers None for a pot that was never opened (nothing is written)."""
    key = game_pot_key(game_key, table)
    if not create:
        return Account.objects.filter(club=club, key=key).first()
    account, _created = Account.objects.get_or_create(
        club=club, key=key, defaults={"kind": AccountKind.POT, "name": _named(AccountKind.POT, key)}
    )
    return account


def game_bet(
    club: Club,
    game_key: str,
    bet_id: int | str,
    owner: Member | None = None,
    *,
    table: int | None = None,
) -> Account:
    """Bet number ``bet_id`` of ``game_key`` (opened on first use, with its owner if any)."""
    key = game_bet_key(game_key, bet_id, table)
    defaults = {"kind": AccountKind.BET, "name": _named(AccountKind.BET, key), "member": owner}
    account, _created = Account.objects.get_or_create(club=club, key=key, defaults=defaults)
    return account


def game_bet_balances(club: Club, game_key: str, *, table: int | None = None) -> dict[int, int]:
    """Every bet of ``game_key`` (at ``table``) the club has had, by number: its balance."""
    prefix = game_bet_key(game_key, "", table)
    rows = Account.objects.filter(club=club, kind=AccountKind.BET, key__startswith=prefix)
    balances: dict[int, int] = {}
    for key, balance in rows.values_list("key", "balance_ore"):
        suffix = key[len(prefix) :]
        if suffix.isdigit():
            balances[int(suffix)] = balance
    return balances


def table_pots(club: Club, game_key: str) -> dict[int, Account]:
    """The pots of ``game_key``'s tables the club has had, by table number."""
    prefix = game_pot_key(game_key) + ":"
    pots = Account.objects.filter(club=club, kind=AccountKind.POT, key__startswith=prefix)
    return {int(p.key[len(prefix) :]): p for p in pots if p.key[len(prefix) :].isdigit()}


def _named(kind: str, key: str) -> str:
    """The name stored with a new pot or bet: its label in the server's language (pages show
    ``Account.label``, rendered in the reader's)."""
    return Account(kind=kind, key=key).label


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
        _append_audit(club, AuditRecord.Action.POST, by, now, transaction=tx)
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
    if at is None or at == Date.max:
        return Account.objects.values_list("balance_ore", flat=True).get(pk=account.pk)
    return opening_balance(account, at + timedelta(days=1))


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


# --- memos in the reader's language ----------------------------------------------------------
# A memo is stored as text when money moves. Another app whose transactions it can describe
# better (scoring: a game's deal, from the event's lines) registers a describer; pages and
# exports call ``describe`` on the transactions they show, so memos read in the reader's
# language with today's names. The override is in memory only: a transaction is never saved again.

Describer = Callable[[list[Transaction]], dict[Transaction, str]]
_DESCRIBERS: list[Describer] = []


def register_describer(describer: Describer) -> Describer:
    _DESCRIBERS.append(describer)
    return describer


def describe(transactions: Iterable[Transaction | None]) -> None:
    """Put each transaction's memo in the reader's language, where an app knows how (a few
    queries for any number of transactions)."""
    shown = [tx for tx in transactions if tx is not None]
    for describer in _DESCRIBERS:
        for tx, text in describer(shown).items():
            tx.memo = text


def opening_balance(account: Account, start: Date | None) -> int:
    """The balance at the start of the day ``start`` (0 without one).

    One sum over the (account, date) index, of the shorter side of ``start`` in the account's
    span of dates: the entries before it, or — for a recent date, the usual case — the cached
    balance less the entries from it on, in one statement (a posting in between cannot come
    between the two). The span is two index probes."""
    if start is None:
        return 0
    span = Entry.objects.filter(account=account).aggregate(first=Min("date"), last=Max("date"))
    if span["first"] is None:
        return 0
    if start - span["first"] <= span["last"] - start:
        before = Entry.objects.filter(account=account, date__lt=start)
        return before.aggregate(s=Sum("amount_ore"))["s"] or 0
    since = (
        Entry.objects.filter(account=OuterRef("pk"), date__gte=start)
        .order_by()
        .values("account_id")
        .annotate(s=Sum("amount_ore"))
        .values("s")
    )
    opening = F("balance_ore") - Coalesce(Subquery(since), 0)
    return Account.objects.filter(pk=account.pk).values_list(opening, flat=True).get()


def entries_between(account: Account, start: Date | None = None, end: Date | None = None):
    """The account's entries between two dates (both included; None: no bound), unordered."""
    entries = Entry.objects.filter(account=account)
    if start is not None:
        entries = entries.filter(date__gte=start)
    if end is not None:
        entries = entries.filter(date__lte=end)
    return entries


def statement(account: Account, start: Date | None = None, end: Date | None = None) -> Statement:
    """Every entry of the account between two dates with its running balance."""
    opening = opening_balance(account, start)
    entries = entries_between(account, start, end)
    running = opening
    rows = []
    for entry in entries.select_related("transaction", "transaction__reverses").order_by(
        "date", "id"
    ):
        running += entry.amount_ore
        rows.append(StatementRow(entry, entry.amount_ore, running))
    describe(
        [row.entry.transaction for row in rows] + [row.entry.transaction.reverses for row in rows]
    )
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
    # The day before the period (none before the calendar's first day: nothing was booked).
    opening = balances_at(club, start - timedelta(days=1)) if start > Date.min else {}
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
#
# Each club has one chain of ``AuditRecord`` rows, numbered 1, 2, 3 … by ``seq``. A record keeps
# what it covers as ``data`` (a transaction with who, when and every entry; a closing; a game
# event) and is sealed: ``digest = HMAC-SHA256(AUDIT_KEY, previous digest + canonical JSON of
# the record)``. The key lives in the environment, never in the database, so whoever can write
# to the database can neither edit a record nor recompute the chain after editing one. Checks:
#
# - ``verify_audit`` (here): every seal, every link, no gaps; the club's own rows (transactions,
#   closings) still equal what their records say, and every transaction has a record;
# - other apps compare their rows with their records in a registered book check (scoring's
#   ``check_game_events``: every event and every voiding);
# - the head: the last record's digest. Deleting the newest records leaves a chain that still
#   verifies, so the treasurer keeps the head outside the database (``check_ledger`` prints
#   it, the daily beat logs it) and ``check_ledger --expect <head>`` finds it again later.

audit_log = logging.getLogger("protokoll.audit")


@dataclass(frozen=True)
class AuditHead:
    """The newest record of a club's chain: its number and digest (GENESIS when empty)."""

    seq: int
    digest: str


def audit_time(moment) -> str | None:
    """A timestamp as the audit trail spells it: ISO 8601 in UTC."""
    return moment.astimezone(UTC).isoformat() if moment is not None else None


def _canonical(value) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode()


def _seal(record: AuditRecord) -> str:
    body = {
        "club": record.club_id,
        "seq": record.seq,
        "action": record.action,
        "subject": record.subject,
        "transaction": record.transaction_id,
        "period": record.period_id,
        "by": record.by_id,
        "at": audit_time(record.at),
        "data": record.data,
    }
    message = record.prev_digest.encode() + b"\n" + _canonical(body)
    return hmac.new(settings.AUDIT_KEY.encode(), message, hashlib.sha256).hexdigest()


def _transaction_content(tx: Transaction) -> dict:
    entries = sorted((e.account_id, e.amount_ore, e.date.isoformat()) for e in tx.entries.all())
    return {
        "id": tx.pk,
        "date": tx.date.isoformat(),
        "memo": tx.memo,
        "source": tx.source,
        "key": tx.key,
        "ref": tx.ref,
        "reverses": tx.reverses_id,
        "created_by": tx.created_by_id,
        "created_at": audit_time(tx.created_at),
        "entries": [list(entry) for entry in entries],
    }


def _period_content(period: Period) -> dict:
    balances = sorted((b.account_id, b.opening_ore, b.closing_ore) for b in period.balances.all())
    return {
        "id": period.pk,
        "name": period.name,
        "start": period.start.isoformat(),
        "end": period.end.isoformat(),
        "closed_by": period.closed_by_id,
        "closed_at": audit_time(period.closed_at),
        "balances": [list(b) for b in balances],
    }


def _append(
    club: Club, action: str, by: User | None, at, subject: str, data: dict, **target
) -> AuditRecord:
    """Caller holds the club lock, so seq and prev_digest cannot race."""
    head = audit_head(club)
    record = AuditRecord(
        club=club,
        seq=head.seq + 1,
        action=action,
        subject=subject,
        # Sealed as the database will give it back (lists, string keys), not as passed.
        data=json.loads(_canonical(data)),
        by=by,
        at=at,
        prev_digest=head.digest,
        **target,
    )
    record.digest = _seal(record)
    record.save()
    return record


def _append_audit(club: Club, action: str, by: User | None, at, **target) -> AuditRecord:
    """The record of a transaction (``transaction=``) or a closing (``period=``)."""
    if (tx := target.get("transaction")) is not None:
        subject, data = f"transaction:{tx.pk}", _transaction_content(tx)
    else:
        period = target["period"]
        subject, data = f"period:{period.pk}", _period_content(period)
    return _append(club, action, by, at, subject, data, **target)


def append_audit(
    club: Club, action: str, by: User | None, at, *, subject: str, data: dict
) -> AuditRecord:
    """Append a record of something another app keeps (a game event: ``subject`` names it,
    ``data`` is what it was), in the caller's database transaction. That app checks its rows
    against ``audit_records(club, action)`` in a book check (see ``register_check``)."""
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        return _append(club, AuditRecord.Action(action), by, at, subject, data)


def audit_records(club: Club, *actions: str):
    """The club's records of these actions, oldest first: ``seq``, ``subject`` and ``data``."""
    return (
        AuditRecord.objects.filter(club=club, action__in=actions)
        .order_by("seq")
        .values_list("seq", "subject", "data", named=True)
    )


def changed_fields(recorded: dict, now: dict) -> list[str]:
    """The names of the fields whose value differs between a record's data and the row now."""
    if not isinstance(recorded, dict):
        return ["all"]
    return sorted(k for k in set(recorded) | set(now) if recorded.get(k) != now.get(k))


def verify_audit(club: Club) -> list[str]:
    """Check every seal and link of the club's chain, and its transactions and closings against
    their records; return what does not match, in words."""
    problems: list[str] = []
    prev = GENESIS
    expected_seq = 1
    records = (
        AuditRecord.objects.filter(club=club)
        .select_related("transaction", "period")
        .prefetch_related("transaction__entries", "period__balances")
        .order_by("seq")
    )
    for record in records.iterator(chunk_size=500):
        if record.seq != expected_seq:
            problems.append(f"record {expected_seq} is missing")
            expected_seq = record.seq
        if record.prev_digest != prev:
            problems.append(f"record {record.seq}: chain broken (previous digest differs)")
        if _seal(record) != record.digest:
            problems.append(
                f"record {record.seq}: its seal does not match: the record was changed, "
                "or sealed without the audit key"
            )
        if record.transaction_id is not None:
            what, now = "transaction", _transaction_content(record.transaction)
        elif record.period_id is not None:
            what, now = "period", _period_content(record.period)
        else:
            what, now = "", record.data  # another app's: its own book check compares it
        if now != record.data:
            problems.append(
                f"record {record.seq}: {what} {now['id']}: content changed since it was "
                f"recorded ({', '.join(changed_fields(record.data, now))})"
            )
        prev = record.digest
        expected_seq += 1
    audited = AuditRecord.objects.filter(club=club, transaction__isnull=False)
    unaudited = Transaction.objects.filter(club=club).exclude(pk__in=audited.values("transaction"))
    problems.extend(
        f"transaction {pk} has no audit record" for pk in unaudited.values_list("pk", flat=True)
    )
    closed = AuditRecord.objects.filter(club=club, period__isnull=False)
    unclosed = Period.objects.filter(club=club).exclude(pk__in=closed.values("period"))
    problems.extend(
        f"period {pk} has no audit record" for pk in unclosed.values_list("pk", flat=True)
    )
    return problems


def audit_head(club: Club) -> AuditHead:
    last = AuditRecord.objects.filter(club=club).order_by("-seq").values_list("seq", "digest")
    seq, digest = last.first() or (0, GENESIS)
    return AuditHead(seq, digest)


def overall_head(heads: dict[int, AuditHead]) -> str:
    """One digest for several clubs' heads (by club id): it changes when any of them does."""
    lines = "\n".join(f"{pk}:{head.seq}:{head.digest}" for pk, head in sorted(heads.items()))
    return hashlib.sha256(lines.encode()).hexdigest()


def find_in_chain(clubs, digest: str) -> tuple[Club, int] | None:
    """The club and record number whose digest is ``digest`` (a head saved earlier), if any."""
    found = (
        AuditRecord.objects.filter(club__in=clubs, digest=digest.strip().lower())
        .select_related("club")
        .first()
    )
    return (found.club, found.seq) if found else None


def log_audit_heads() -> dict[int, AuditHead]:
    """Write each club's head to the log (logger ``protokoll.audit``): a copy outside the
    database, made daily by the beat."""
    heads = {}
    for club in Club.objects.order_by("pk"):
        heads[club.pk] = head = audit_head(club)
        audit_log.info("%s: audit head %s after %d records", club.slug, head.digest, head.seq)
    return heads


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
