"""The audit trail: one keyed chain of records per club over the books and other apps' rows.

Each club has one chain of ``AuditRecord`` rows, numbered 1, 2, 3 … by ``seq``. A record keeps
what it covers as ``data`` (a transaction with who, when and every entry; a closing; a game
event) and is sealed: ``digest = HMAC-SHA256(AUDIT_KEY, previous digest + canonical JSON of
the record)``. The key lives in the environment (``settings.AUDIT_KEY``), never in the
database, so whoever can write to the database can neither edit a record nor recompute the
chain after editing one. Records are appended under the club's row lock (``ledger.postings``
and ``ledger.periods`` hold it; ``append_audit`` takes it), so ``seq`` and the previous digest
cannot race. Checks:

- ``verify_audit`` (here): every seal, every link, no gaps; the club's own rows (transactions,
  closings) still equal what their records say, and every transaction has a record;
- other apps keep their own rows in step: scoring appends a record per event in the event's
  database transaction (``append_audit``) and compares its events with their records in a
  registered book check (``ledger.checks``; scoring's ``check_game_events``: every event and
  every voiding), so ``club`` never needs to know what an event is;
- the head: the last record's digest. Deleting the newest records leaves a chain that still
  verifies, so the treasurer keeps the head outside the database (``check_ledger`` prints
  it, the daily beat logs it: ``log_audit_heads``) and ``check_ledger --expect <head>``
  finds it again later (``find_in_chain``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from dataclasses import dataclass
from datetime import UTC

from django.conf import settings
from django.db import transaction

from club.models import Club, User
from ledger.models import AuditRecord, Period, Transaction

GENESIS = "0" * 64

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


def append_books_record(club: Club, action: str, by: User | None, at, **target) -> AuditRecord:
    """The record of one of the books' own rows: a transaction (``transaction=``) or a
    closing (``period=``). The caller holds the club lock (``ledger.postings``,
    ``ledger.periods``)."""
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
