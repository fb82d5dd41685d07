"""Seal the games' existing events in their club's audit chain, once, on upgrading.

From now on ``scoring.recording`` appends a record for every event, undo and voiding as it
happens; events recorded before this release get theirs here, appended after the club's
re-sealed chain (``club`` 0006) in the order they were recorded: the events are trusted as they
stand when upgrading. A voided game's record has no reason (that was never stored). Reversing
removes the game records again.

``_data`` and ``_seal`` are frozen copies of ``recording.event_audit_data`` and
``club.ledger._seal`` as of this migration.
"""

import hashlib
import hmac
import json
from datetime import UTC

from django.conf import settings
from django.db import migrations
from django.utils import timezone

GENESIS = "0" * 64


def _utc(moment):
    return moment.astimezone(UTC).isoformat() if moment is not None else None


def _canonical(value):
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode()


def _data(event):
    return {
        "game": event.game_id,
        "seq": event.seq,
        "type": event.type,
        "payload": event.payload,
        "summary": event.summary,
        "recorded_by": event.recorded_by_id,
        "created_at": _utc(event.created_at),
        "money": event.money_id,
    }


def _seal(record):
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
    message = record.prev_digest.encode() + b"\n" + _canonical(body)
    return hmac.new(settings.AUDIT_KEY.encode(), message, hashlib.sha256).hexdigest()


def seal_events(apps, schema_editor):
    AuditRecord = apps.get_model("club", "AuditRecord")
    Event = apps.get_model("scoring", "Event")
    Game = apps.get_model("scoring", "Game")
    now = timezone.now()
    clubs = Game.objects.values_list("club_id", flat=True).distinct().order_by("club_id")
    for club_id in list(clubs):
        recorded = set(
            AuditRecord.objects.filter(club_id=club_id, action__in=["event", "void"]).values_list(
                "subject", flat=True
            )
        )
        last = AuditRecord.objects.filter(club_id=club_id).order_by("-seq").first()
        seq, prev = (last.seq, last.digest) if last else (0, GENESIS)
        pending = []
        events = Event.objects.filter(game__club_id=club_id).order_by(
            "created_at", "game_id", "seq"
        )
        for event in events.iterator(chunk_size=2000):
            subject = f"game:{event.game_id}:event:{event.seq}"
            if subject not in recorded:
                pending.append(
                    ("event", subject, _data(event), event.recorded_by_id, event.created_at)
                )
        voided = Game.objects.filter(club_id=club_id, status="voided").order_by("pk")
        for game_id in voided.values_list("pk", flat=True):
            if f"game:{game_id}" not in recorded:
                pending.append(
                    ("void", f"game:{game_id}", {"game": game_id, "reason": ""}, None, now)
                )
        batch = []
        for action, subject, data, by_id, at in pending:
            seq += 1
            record = AuditRecord(
                club_id=club_id,
                seq=seq,
                action=action,
                subject=subject,
                data=json.loads(_canonical(data)),
                by_id=by_id,
                at=at,
                prev_digest=prev,
            )
            record.digest = prev = _seal(record)
            batch.append(record)
        AuditRecord.objects.bulk_create(batch, batch_size=500)


def unseal_events(apps, schema_editor):
    """Back to chains of the books alone: the game records go and the rest close up, ready
    for club 0006's reversal to chain them the old way."""
    AuditRecord = apps.get_model("club", "AuditRecord")
    AuditRecord.objects.filter(action__in=["event", "void"]).delete()
    clubs = AuditRecord.objects.values_list("club_id", flat=True).distinct().order_by("club_id")
    for club_id in list(clubs):
        records = AuditRecord.objects.filter(club_id=club_id).order_by("seq")
        # One row at a time, upwards: each number a record moves to is free by then.
        for seq, record in enumerate(records.only("pk", "seq"), start=1):
            if record.seq != seq:
                AuditRecord.objects.filter(pk=record.pk).update(seq=seq)


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0007_auditrecord_prev_digest"),
        ("scoring", "0002_game_start_key"),
    ]

    operations = [
        migrations.RunPython(seal_events, unseal_events),
    ]
