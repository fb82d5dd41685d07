"""The audit chain of a club archive being imported: the source's seals tried, the chain re-sealed.

An archive's chain was sealed under the source's ``AUDIT_KEY``, which this instance need not
have. ``clubdata.archive_reading`` follows its links without a key; ``source_seals_verify``
tells whether this instance's key reproduces every seal (an archive from this instance, or one
sharing its key: then nothing was changed since it was sealed).

``resealed_chain`` rebuilds the chain in the source's order under this instance's key: its first
record (``import``) names the source (slug, instance, format version, head, the archive's
SHA-256), then every source record one place later, with the new ids. A record's data is
rewritten by its shape: a transaction's and a closing's field by field, keeping what the source
recorded (only the ids change, so an amount edited in the archive disagrees with its record and
``ledger.verify_books`` refuses the import); a game event's, a member's and an account's seal;
anything else leniently (``_generic``). The import writes the records.

Relies on ``ledger.audit``'s canonical form and seal, the ids the import noted
(``clubdata.archive_ids``) and the rows as read (``clubdata.archive_reading``).
"""

from __future__ import annotations

import json
from typing import Any

from django.utils import timezone

import ledger
from club.models import Club
from clubdata import archive
from clubdata.archive import ArchiveError
from clubdata.archive_ids import Ids
from clubdata.archive_reading import Loaded, is_int
from ledger import audit
from ledger.models import AuditRecord


def source_seals_verify(loaded: Loaded) -> bool:
    """Whether every source record's seal is reproduced by this instance's ``AUDIT_KEY`` (true
    when the archive comes from this instance, or one sharing its key): then nothing in the
    chain was changed since it was sealed."""
    for row in loaded.rows["ledger.auditrecord"]:
        record = AuditRecord(**row)
        if audit._seal(record) != row["digest"]:
            return False
    return True


_GENERIC_IDS = {
    "member": "club.member",
    "members": "club.member",
    "into": "club.member",  # a merge's (clubdata.merge)
    "by_member": "club.member",  # an erasure's (clubdata.erase)
    "results": "league.gameresult",
    "attendees": "evenings.attendee",
    "user": "club.user",
    "by": "club.user",
    "created_by": "club.user",
    "recorded_by": "club.user",
    "game": "scoring.game",
    "money": "ledger.transaction",
    "transaction": "ledger.transaction",
    "account": "ledger.account",
    "attendee": "evenings.attendee",
    "evening": "evenings.evening",
    "season": "club.season",
}


def _generic(value: Any, ids: Ids, where: str, key: str = "") -> Any:
    """Ids in a record's data of a kind this module does not know field by field (settings,
    erasures, merges with their seats): ints under the names in ``_GENERIC_IDS``, and the ids
    in strings (``Ids.ref``: a merged seat's ``posted_to`` account key)."""
    if isinstance(value, dict):
        return {k: _generic(v, ids, where, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_generic(v, ids, where, key) for v in value]
    if key in _GENERIC_IDS and is_int(value):
        return ids.new(_GENERIC_IDS[key], value, where, lenient=True)
    if isinstance(value, str):
        return ids.ref(value, where, lenient=True)
    return value


def _record_data(row: dict, ids: Ids, where: str) -> Any:
    """A source record's data with the new ids (its shape per action and subject)."""
    data, subject = row["data"], row["subject"]
    if not isinstance(data, dict):
        return data
    try:
        if row["transaction_id"] is not None:
            new = dict(data)
            new["id"] = ids.new("ledger.transaction", data["id"], where)
            if data.get("reverses") is not None:
                new["reverses"] = ids.new("ledger.transaction", data["reverses"], where)
            if data.get("created_by") is not None:
                new["created_by"] = ids.new("club.user", data["created_by"], where)
            new["key"] = ids.ref(data.get("key"), where)
            new["ref"] = ids.ref(data.get("ref"), where)
            new["entries"] = sorted(
                [ids.new("ledger.account", a, where), amount, day]
                for a, amount, day in data["entries"]
            )
            return new
        if row["period_id"] is not None:
            new = dict(data)
            new["id"] = ids.new("ledger.period", data["id"], where)
            if data.get("closed_by") is not None:
                new["closed_by"] = ids.new("club.user", data["closed_by"], where)
            new["balances"] = sorted(
                [ids.new("ledger.account", a, where), opening, closing]
                for a, opening, closing in data["balances"]
            )
            return new
        if row["action"] in (AuditRecord.Action.EVENT, AuditRecord.Action.VOID):
            new = dict(data)
            new["game"] = ids.new("scoring.game", data["game"], where)
            if data.get("money") is not None:
                new["money"] = ids.new("ledger.transaction", data["money"], where)
            if data.get("recorded_by") is not None:
                new["recorded_by"] = ids.new("club.user", data["recorded_by"], where)
            if data.get("guest_pass") is not None:
                new["guest_pass"] = ids.new("scoring.guestpass", data["guest_pass"], where)
            return new
        if row["action"] == AuditRecord.Action.SEAL and subject.startswith("member:"):
            new = dict(data)
            if data.get("user") is not None:
                new["user"] = ids.new("club.user", data["user"], where)
            return new
        if row["action"] == AuditRecord.Action.SEAL and subject.startswith("account:"):
            new = dict(data)
            if data.get("member") is not None:
                new["member"] = ids.new("club.member", data["member"], where)
            new["key"] = ids.ref(data.get("key"), where)
            return new
        if subject in ("club", "evening_options") or row["action"] == AuditRecord.Action.IMPORT:
            return data  # the club's Swish number, the evening options, a source: no ids
    except (KeyError, TypeError, ValueError):
        raise ArchiveError(f"{where}: the record's data is malformed.") from None
    return _generic(data, ids, where)


def resealed_chain(club: Club, loaded: Loaded, ids: Ids, source: dict) -> list[AuditRecord]:
    """The club's new chain, sealed and not yet written."""
    now = timezone.now()
    records = [
        AuditRecord(
            club=club,
            seq=1,
            action=AuditRecord.Action.IMPORT,
            subject="import",
            data=json.loads(audit._canonical({"source": source})),
            by=None,
            at=now,
            prev_digest=ledger.GENESIS,
        )
    ]
    for index, row in enumerate(loaded.rows["ledger.auditrecord"]):
        where = f"{archive.BY_LABEL['ledger.auditrecord'].file}, row {index + 1}"
        tx, period = row["transaction_id"], row["period_id"]
        records.append(
            AuditRecord(
                club=club,
                seq=row["seq"] + 1,
                action=row["action"],
                subject=ids.ref(row["subject"], where),
                transaction_id=ids.new("ledger.transaction", tx, where) if tx else None,
                period_id=ids.new("ledger.period", period, where) if period else None,
                by_id=ids.new("club.user", row["by_id"], where) if row["by_id"] else None,
                at=row["at"],
                data=json.loads(audit._canonical(_record_data(row, ids, where))),
            )
        )
    prev = ledger.GENESIS
    for record in records:
        record.prev_digest = prev
        record.digest = prev = audit._seal(record)
    return records
