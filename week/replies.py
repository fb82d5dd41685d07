"""Replies to a planned evening: coming / maybe / not, an optional +1, seats and the wait-list.

Design
- Every change to an evening's replies runs under a lock of the evening's row
  (``select_for_update``): the seats left are counted, the reply written and the wait-list
  promoted by one writer at a time. Twenty phones tapping "coming" for the last seat at once
  get it one after the other: the first seated, the rest on the wait-list, in the order they
  got the lock (``queued_at``, then id).
- Seats a reply takes: 1 + (1 with a +1 guest), when it says coming and is not waiting;
  ``Evening.cap`` bounds their sum (None: no cap, everyone seated).
- A "coming" that does not fit goes on the wait-list, at its end. A seated member who adds a
  guest for whom there is no seat is refused (he keeps his own seat). A waiting member keeps
  his place when he changes his guest.
- Seats freed (maybe / not, a guest dropped, a cap raised) promote the wait-list in order:
  each waiting reply whose seats fit now, first in line first. Promotion is a conditional
  update of a waiting row (``waiting=True`` → False) under the lock, so a reply is promoted
  once: a double tap of "not" frees nothing the second time; two cancellations at once free
  two seats and promote two. Each promotion queues the "promotion" mail in the same
  transaction (``notices.queue``).
- Replies close when the evening is no longer planned (opened, closed, cancelled) or its day
  has passed: a clear refusal (``ReplyClosed``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

import notices
from club.models import Member
from evenings.models import Evening, EveningStatus
from week.models import Reply, ReplyAnswer


class ReplyRefused(ValidationError):
    """A reply or change that was not made, in words a person can act on."""


def _locked(evening: Evening) -> Evening:
    return Evening.objects.select_for_update().get(pk=evening.pk)


def require_replies_open(evening: Evening) -> None:
    if evening.status == EveningStatus.CANCELLED:
        raise ReplyRefused(_("This evening was cancelled."), code="cancelled")
    if evening.status != EveningStatus.PLANNED:
        raise ReplyRefused(_("Replies are closed: the evening has opened."), code="closed")
    if evening.date < timezone.localdate():
        raise ReplyRefused(_("Replies are closed: the evening is past."), code="past")


def seats_taken(evening: Evening) -> int:
    return sum(
        r.wants
        for r in Reply.objects.filter(evening=evening, answer=ReplyAnswer.COMING, waiting=False)
    )


def seats_left(evening: Evening) -> int | None:
    """Free seats (None: no cap)."""
    if evening.cap is None:
        return None
    return max(evening.cap - seats_taken(evening), 0)


def answer(
    evening: Evening, member: Member, said: str, guest_name: str = "", *, force: bool = False
) -> Reply:
    """Record ``member``'s answer to ``evening`` (see the module). ``force``: for a member who
    is leaving (his erasure withdraws his replies), not asked whether he is still active."""
    if said not in ReplyAnswer.values:
        raise ReplyRefused(_("Answer coming, maybe or not."), code="answer")
    guest_name = " ".join(guest_name.split())[:100] if said == ReplyAnswer.COMING else ""
    if member.club_id != evening.club_id or not (member.active or force):
        raise ReplyRefused(_("That member is not in this club."), code="who")
    with transaction.atomic():
        evening = _locked(evening)
        require_replies_open(evening)
        now = timezone.now()
        reply = Reply.objects.filter(evening=evening, member=member).first()
        if reply is None:
            reply = Reply(evening=evening, member=member, queued_at=now)
        was_coming = reply.pk is not None and reply.answer == ReplyAnswer.COMING
        was_seated = was_coming and not reply.waiting
        if said == ReplyAnswer.COMING:
            wants = 1 + (1 if guest_name else 0)
            free = None if evening.cap is None else evening.cap - _taken_except(evening, reply)
            if was_seated:
                if free is not None and wants > free:
                    raise ReplyRefused(
                        _("No seat for a guest: %(n)s seats left.") % {"n": max(free - 1, 0)},
                        code="full",
                    )
            elif not was_coming:
                reply.queued_at = now  # a new "coming" joins the end of the line
                reply.waiting = free is not None and (wants > free or _line(evening, reply))
        else:
            reply.waiting = False
        reply.answer = said
        reply.guest_name = guest_name
        reply.updated_at = now
        reply.save()
        promote(evening)
    reply.refresh_from_db()
    return reply


def _taken_except(evening: Evening, reply: Reply) -> int:
    rows = Reply.objects.filter(evening=evening, answer=ReplyAnswer.COMING, waiting=False)
    if reply.pk:
        rows = rows.exclude(pk=reply.pk)
    return sum(r.wants for r in rows)


def _line(evening: Evening, reply: Reply) -> bool:
    """Whether others wait already (a newcomer does not jump the line)."""
    rows = Reply.objects.filter(evening=evening, waiting=True)
    if reply.pk:
        rows = rows.exclude(pk=reply.pk)
    return rows.exists()


def promote(evening: Evening) -> list[Reply]:
    """Seat the waiting replies that fit now, first in line first; call under the evening's
    lock (inside ``answer``, ``set_cap``). Each promoted member is owed a mail."""
    waiting = list(Reply.objects.filter(evening=evening, waiting=True).order_by("queued_at", "pk"))
    if not waiting:
        return []
    free = None if evening.cap is None else evening.cap - seats_taken(evening)
    promoted = []
    for reply in waiting:
        if free is not None and reply.wants > free:
            break  # the first in line waits for seats enough; nobody jumps the line
        # Conditional: a row promoted once is not promoted (nor mailed) again.
        if Reply.objects.filter(pk=reply.pk, waiting=True).update(
            waiting=False, updated_at=timezone.now()
        ):
            promoted.append(reply)
            if free is not None:
                free -= reply.wants
    for reply in promoted:
        notices.queue("promotion", evening.pk, [reply.member_id])
    return promoted


def set_cap(evening: Evening, cap: int | None) -> list[Reply]:
    """The admin sets the evening's seats; raising them promotes. Lowering them seats nobody
    out: those seated keep their seats, the newcomers wait."""
    with transaction.atomic():
        evening = _locked(evening)
        if evening.status != EveningStatus.PLANNED:
            require_replies_open(evening)
        Evening.objects.filter(pk=evening.pk).update(cap=cap)
        evening.cap = cap
        return promote(evening)


@dataclass(frozen=True)
class Standing:
    """Where a member stands for an evening: his reply, his place on the wait-list (1 = next),
    and the seats left."""

    reply: Reply | None
    place: int | None
    seats_left: int | None


def place_in_line(reply: Reply) -> int | None:
    """The reply's place on the wait-list, 1 = next in line (None: not waiting)."""
    if not reply.waiting:
        return None
    ahead = Q(queued_at__lt=reply.queued_at) | Q(queued_at=reply.queued_at, pk__lt=reply.pk)
    return Reply.objects.filter(evening_id=reply.evening_id, waiting=True).filter(ahead).count() + 1


def wait_list(evening: Evening) -> list[Reply]:
    return list(
        Reply.objects.filter(evening=evening, waiting=True)
        .select_related("member")
        .order_by("queued_at", "pk")
    )
