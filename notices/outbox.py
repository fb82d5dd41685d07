"""The outbox: mail owed to members, written in the caller's transaction, sent after it.

Design (after ``league/owed.py``)
- ``queue(kind, object_id, member_ids)`` runs INSIDE the caller's transaction (the evening's
  closing, a reply that frees a seat): it writes one ``OwedMail`` row per (kind, object, member)
  — unique, so a second call, a double tap or a rerun of the beat adds nothing — for members
  who are active, not erased, have an address and have not turned that kind off. After the
  commit it publishes ``notices.tasks.send_owed_task(kind, object_id)`` through
  ``core.tasks.enqueue_on_commit`` (a broker that is away is logged, never raised: the rows
  are written down and the sweep finds them).
- Sending a row claims it first: a conditional update that moves ``due_at`` ahead by
  ``CLAIM`` and must change exactly one row, so two workers (the task and a sweep, two sweeps)
  never send it twice. Then the member is read again (turned the kind off, erased, no address
  any more: the row is *dropped*, not sent), the mail is rendered in his language and sent.
  Success: *sent*. Any failure (the server away, a renderer's bug) keeps the row *owed* with
  the error and the attempt counted, due again after a back-off (``backoff``); after
  ``MAX_ATTEMPTS`` it is *failed* and the club's admin sees it on the mail page.
- The beat's ``sweep`` (every few minutes) sends whatever is owed and due, oldest first,
  and stops early when the server fails several times running (the rest waits for the next
  sweep rather than costing ``EMAIL_TIMEOUT`` each).

With eager Celery (no broker: a laptop, a small club on one machine) the task runs
in-process right after the commit, in the request that queued it. It sends rather than
waiting for a sweep, because without a broker there is no beat to sweep: mail left owed
would wait for ``manage.py send_owed_mail``. It is kept harmless: ``send_owed`` never raises
(every failure is written on its row), and it stops at the first failure, so a mail server
that is away or slow costs a page at most one ``EMAIL_TIMEOUT``, and the rest stays owed.

A sending process that dies after its claim leaves the row owed; it is due again when the
claim runs out. The mail is then sent once more only if the server took it before the death:
at least once, never lost.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.core.mail import mailers
from django.utils import timezone, translation

from club.models import Member
from core.tasks import enqueue_on_commit
from notices import mail as mails
from notices.models import MailChoice, MailKind, OwedMail, OwedStatus

log = logging.getLogger("protokoll.notices")

MAX_ATTEMPTS = 8
CLAIM = timedelta(minutes=10)
# A sweep stops after this many failures in a row: the server is away, not one mail bad.
SWEEP_GIVES_UP_AFTER = 3
SWEEP_BATCH = 500

SENT, FAILED, DROPPED, TAKEN = "sent", "failed", "dropped", "taken"


def backoff(attempts: int) -> timedelta:
    """How long a row waits after its ``attempts``-th failure: 2, 4, 8 … minutes, at most
    four hours (eight attempts span about eight hours)."""
    return timedelta(minutes=min(2**attempts, 240))


def choice_for(member: Member, language: str | None = None) -> MailChoice:
    """The member's mail choice, made on first use (language: the one he chose it in, or the
    club's default)."""
    choice, _created = MailChoice.objects.get_or_create(
        member=member, defaults={"language": language or settings.LANGUAGE_CODE}
    )
    return choice


def queue(kind: str, object_id: int, member_ids: Iterable[int]) -> int:
    """Owe mail of ``kind`` about ``object_id`` to the members; the rows written."""
    if kind not in MailKind.values:
        raise ValueError(f"unknown kind of mail: {kind!r}")
    ids = {int(pk) for pk in member_ids}
    if not ids:
        return 0
    turned_off = set(
        MailChoice.objects.filter(member__in=ids, **{kind: False}).values_list(
            "member_id", flat=True
        )
    )
    already = set(
        OwedMail.objects.filter(kind=kind, object_id=object_id, member__in=ids).values_list(
            "member_id", flat=True
        )
    )
    members = (
        Member.objects.filter(pk__in=ids - turned_off - already, active=True, erased_at=None)
        .exclude(email="")
        .only("pk", "club_id")
        .order_by("pk")
    )
    now = timezone.now()
    rows = [
        OwedMail(
            club_id=m.club_id,
            kind=kind,
            object_id=object_id,
            member_id=m.pk,
            due_at=now,
            created_at=now,
        )
        for m in members
    ]
    if not rows:
        return 0
    # Two callers at once: the unique (kind, object, member) keeps one row each.
    OwedMail.objects.bulk_create(rows, ignore_conflicts=True)
    enqueue_on_commit(current_app.tasks["notices.tasks.send_owed_task"], kind, object_id)
    return len(rows)


def _claim(row_id: int, now: datetime) -> bool:
    return OwedMail.objects.due(now).filter(pk=row_id).update(due_at=now + CLAIM) == 1


def _why_not(member: Member, choice: MailChoice | None, kind: str) -> str:
    if member.erased_at is not None:
        return "erased"
    if not member.active:
        return "left the club"
    if not member.email:
        return "no address"
    if choice is not None and not choice.wants(kind):
        return "turned off"
    return ""


def send_one(row_id: int, mailer, now: datetime | None = None) -> str:
    """Send one owed row if this caller claims it: SENT, FAILED (kept owed or, at the last
    attempt, failed), DROPPED, or TAKEN (someone else has it, or it is not due at ``now``).
    Never raises for the mail's sake."""
    now = now or timezone.now()
    if not _claim(row_id, now):
        return TAKEN
    row = OwedMail.objects.select_related("member__club").get(pk=row_id)
    member = row.member
    choice = MailChoice.objects.filter(member=member).first()
    reason = _why_not(member, choice, row.kind)
    if reason:
        OwedMail.objects.filter(pk=row_id).update(status=OwedStatus.DROPPED, last_error=reason)
        return DROPPED
    language = choice.language if choice is not None else settings.LANGUAGE_CODE
    try:
        with translation.override(language):
            rendered = mails.renderer(row.kind)(member, row.object_id)
            if rendered is None:
                OwedMail.objects.filter(pk=row_id).update(
                    status=OwedStatus.DROPPED, last_error="nothing to say"
                )
                return DROPPED
            email = mails.message(member, row.kind, rendered)
        mailer.open()
        if mailer.send_messages([email]) != 1:
            raise RuntimeError("the mail server did not take the mail")
    except Exception as error:  # noqa: BLE001 - kept on the row, tried again after a back-off
        attempts = row.attempts + 1
        failed = attempts >= MAX_ATTEMPTS
        log.warning(
            "%s mail %s to member %s not sent (attempt %s): %s",
            row.kind,
            row.object_id,
            member.pk,
            attempts,
            error,
        )
        OwedMail.objects.filter(pk=row_id).update(
            status=OwedStatus.FAILED if failed else OwedStatus.OWED,
            attempts=attempts,
            last_error=f"{type(error).__name__}: {error}"[:300],
            due_at=now + backoff(attempts),
        )
        return FAILED
    OwedMail.objects.filter(pk=row_id).update(
        status=OwedStatus.SENT, attempts=row.attempts + 1, sent_at=timezone.now(), last_error=""
    )
    return SENT


def _send(row_ids: Iterable[int], *, give_up_after: int, now: datetime | None = None) -> int:
    """Send the rows in order over one connection, as one batch (``notices.mail.memo``: the
    reports of one evening read its results once); the number sent. Stops after
    ``give_up_after`` failures in a row."""
    try:
        mailer = mailers.default
    except Exception:  # noqa: BLE001 - a misconfigured mailer: everything stays owed
        log.exception("no mailer: the owed mail waits")
        return 0
    sent = failures = 0
    try:
        with mails.one_batch():
            for row_id in row_ids:
                try:
                    outcome = send_one(row_id, mailer, now)
                except Exception:  # noqa: BLE001 - the database itself; the row stays owed
                    log.exception("owed mail %s not sent", row_id)
                    outcome = FAILED
                if outcome == SENT:
                    sent += 1
                    failures = 0
                elif outcome == FAILED:
                    failures += 1
                    if failures >= give_up_after:
                        break
    finally:
        try:
            mailer.close()
        except Exception:  # noqa: BLE001 - closing a broken connection
            log.warning("mail connection not closed cleanly", exc_info=True)
    return sent


def send_owed(kind: str, object_id: int) -> int:
    """What is owed and due for one (kind, object); the number sent. Never raises."""
    try:
        ids = list(
            OwedMail.objects.due(timezone.now())
            .filter(kind=kind, object_id=object_id)
            .order_by("member_id")
            .values_list("pk", flat=True)
        )
    except Exception:  # noqa: BLE001 - after a commit, in the page's request when eager
        log.exception("owed %s mail for %s not read", kind, object_id)
        return 0
    # In-process (eager) the page waits for this: one failure and the rest waits for a sweep.
    eager = bool(current_app.conf.task_always_eager)
    return _send(ids, give_up_after=1 if eager else SWEEP_GIVES_UP_AFTER)


def sweep(now: datetime | None = None) -> int:
    """Everything owed and due, oldest first; the number sent."""
    ids = list(
        OwedMail.objects.due(now or timezone.now())
        .order_by("due_at", "id")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    return _send(ids, give_up_after=SWEEP_GIVES_UP_AFTER, now=now)


def failed_for(club) -> list[OwedMail]:
    """The club's mail that could not be sent (newest first), for its admin."""
    return list(
        OwedMail.objects.filter(club=club, status=OwedStatus.FAILED)
        .select_related("member")
        .order_by("-created_at", "-id")[:50]
    )


def turn_off(member: Member, kind: str) -> None:
    """No more mail of ``kind`` to the member; what is owed of it is not sent either (it is
    dropped when its turn comes). Idempotent."""
    choice_for(member)
    MailChoice.objects.filter(member=member).update(**{kind: False})
