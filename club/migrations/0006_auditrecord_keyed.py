"""Seal the audit trail with AUDIT_KEY: upgrading re-seals the existing chain once.

Until now a record's digest was an unkeyed SHA-256, which anyone with write access to the
database could recompute after an edit. This migration first verifies each club's chain the
old way and refuses to go on if it does not verify (re-sealing would bless the edit), then
stores with every record what it covers (``data``: the transaction with who, when and every
entry, or the closing) and seals it: ``digest = HMAC-SHA256(AUDIT_KEY, previous digest + the
canonical JSON of the record)``. Keep the head that ``manage.py check_ledger`` prints after
upgrading (README, "The audit trail").

The functions below are frozen copies of ``club.ledger`` as of this migration (a migration
must not change meaning when the app's code does later). Reversing restores the unkeyed chain.
"""

import hashlib
import hmac
import json
from datetime import UTC

from django.conf import settings
from django.db import migrations, models

GENESIS = "0" * 64


def _utc(moment):
    return moment.astimezone(UTC).isoformat() if moment is not None else None


def _canonical(value):
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode()


# --- the unkeyed chain, as it was --------------------------------------------------------


def _legacy_digest(record):
    tx, period = record.transaction, record.period
    content = {
        "club": record.club_id,
        "seq": record.seq,
        "action": record.action,
        "by": record.by_id,
        "at": record.at.isoformat(),
        "transaction": None,
        "period": None,
    }
    if tx is not None:
        entries = sorted((e.account_id, e.amount_ore, e.date) for e in tx.entries.all())
        content["transaction"] = {
            "id": tx.pk,
            "date": tx.date.isoformat(),
            "memo": tx.memo,
            "source": tx.source,
            "key": tx.key,
            "ref": tx.ref,
            "reverses": tx.reverses_id,
            "entries": [[a, amount, d.isoformat()] for a, amount, d in entries],
        }
    if period is not None:
        balances = sorted(
            (b.account_id, b.opening_ore, b.closing_ore) for b in period.balances.all()
        )
        content["period"] = {
            "id": period.pk,
            "name": period.name,
            "start": period.start.isoformat(),
            "end": period.end.isoformat(),
            "balances": [list(b) for b in balances],
        }
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _legacy_chain(prev_hash, digest):
    return hashlib.sha256(f"{prev_hash}:{digest}".encode()).hexdigest()


# --- the keyed chain ----------------------------------------------------------------------


def _content(record):
    tx, period = record.transaction, record.period
    if tx is not None:
        entries = sorted((e.account_id, e.amount_ore, e.date.isoformat()) for e in tx.entries.all())
        return f"transaction:{tx.pk}", {
            "id": tx.pk,
            "date": tx.date.isoformat(),
            "memo": tx.memo,
            "source": tx.source,
            "key": tx.key,
            "ref": tx.ref,
            "reverses": tx.reverses_id,
            "created_by": tx.created_by_id,
            "created_at": _utc(tx.created_at),
            "entries": [list(entry) for entry in entries],
        }
    if period is not None:
        balances = sorted(
            (b.account_id, b.opening_ore, b.closing_ore) for b in period.balances.all()
        )
        return f"period:{period.pk}", {
            "id": period.pk,
            "name": period.name,
            "start": period.start.isoformat(),
            "end": period.end.isoformat(),
            "closed_by": period.closed_by_id,
            "closed_at": _utc(period.closed_at),
            "balances": [list(b) for b in balances],
        }
    return record.subject, record.data


def _seal(record, prev_digest):
    body = {
        "club": record.club_id,
        "seq": record.seq,
        "action": record.action,
        "subject": record.subject,
        "transaction": record.transaction_id,
        "period": record.period_id,
        "by": record.by_id,
        "at": _utc(record.at),
        "data": record.data,
    }
    message = prev_digest.encode() + b"\n" + _canonical(body)
    return hmac.new(settings.AUDIT_KEY.encode(), message, hashlib.sha256).hexdigest()


def _chains(AuditRecord):
    """Each club's id and records in order, with what they cover loaded alongside."""
    clubs = AuditRecord.objects.values_list("club_id", flat=True).distinct().order_by("club_id")
    for club_id in list(clubs):
        records = (
            AuditRecord.objects.filter(club_id=club_id)
            .select_related("transaction", "period")
            .prefetch_related("transaction__entries", "period__balances")
            .order_by("seq")
        )
        yield club_id, records.iterator(chunk_size=500)


def reseal(apps, schema_editor):
    AuditRecord = apps.get_model("club", "AuditRecord")
    for club_id, records in _chains(AuditRecord):
        prev_hash, new_prev, expected_seq, problems, batch = GENESIS, GENESIS, 1, [], []
        for record in records:
            if record.seq != expected_seq:
                problems.append(f"record {expected_seq} is missing")
                expected_seq = record.seq
            if record.prev_hash != prev_hash:
                problems.append(f"record {record.seq}: chain broken")
            digest = _legacy_digest(record)
            if digest != record.digest or _legacy_chain(record.prev_hash, digest) != record.hash:
                problems.append(f"record {record.seq}: content changed since it was recorded")
            prev_hash = record.hash
            expected_seq += 1
            if problems:
                continue
            subject, data = _content(record)
            record.subject, record.data = subject, json.loads(_canonical(data))
            record.prev_hash, record.hash = new_prev, ""
            record.digest = new_prev = _seal(record, record.prev_hash)
            batch.append(record)
        if problems:
            raise RuntimeError(
                f"The audit trail of club #{club_id} does not verify, so it is not "
                f"re-sealed (that would bless the change): {'; '.join(problems[:10])}. "
                "Restore the books from a backup taken before the change, then migrate again."
            )
        AuditRecord.objects.bulk_update(
            batch, ["subject", "data", "prev_hash", "hash", "digest"], batch_size=500
        )


def unseal(apps, schema_editor):
    """Back to the unkeyed chain (records of other apps keep their place in it)."""
    AuditRecord = apps.get_model("club", "AuditRecord")
    for _club_id, records in _chains(AuditRecord):
        prev, batch = GENESIS, []
        for record in records:
            record.prev_hash = prev
            record.digest = _legacy_digest(record)
            record.hash = prev = _legacy_chain(prev, record.digest)
            batch.append(record)
        AuditRecord.objects.bulk_update(batch, ["prev_hash", "hash", "digest"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0005_exportjob"),
    ]

    operations = [
        migrations.AddField(
            model_name="auditrecord",
            name="subject",
            field=models.CharField(blank=True, max_length=120),
        ),
        migrations.AddField(
            model_name="auditrecord",
            name="data",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name="auditrecord",
            name="action",
            field=models.CharField(
                choices=[
                    ("post", "posting"),
                    ("reverse", "reversal"),
                    ("close", "closing"),
                    ("event", "game event"),
                    ("void", "voided game"),
                ],
                max_length=10,
            ),
        ),
        migrations.RunPython(reseal, unseal),
    ]
