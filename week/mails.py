"""The week's three mails, rendered for ``notices`` (``notices.register_mail``), and the
day-before reminders.

- *invitation* (object: a planned evening): the date, the time, the title and games, the seats,
  and where to reply (the evening's page in the week).
- *reminder* (a planned evening, the day before): to members who said coming or maybe; says
  what they said (and the +1, and whether they wait for a seat).
- *promotion* (a planned evening): the wait-list let the member in: a seat is his.
Each says nothing (returns None: the outbox drops the row) once it is no longer true: the
evening opened, closed or was called off; the member changed his answer; he waits again.

``queue_reminders(now)``: for every planned evening on the day after ``now`` (Europe/Stockholm),
queue the reminder to its coming and maybe replies; the outbox's uniqueness makes a second run
(the beat every hour) add nothing. Owned by the mail (notices' helper); the week's beat task
calls it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _

import notices
from club.models import Member
from engine import registry
from evenings.models import Evening, EveningStatus
from notices.mail import Mail, absolute, render_mail
from week.models import Reply, ReplyAnswer


def _planned(member: Member, evening_id: int) -> Evening | None:
    return (
        Evening.objects.select_related("club")
        .filter(pk=evening_id, club_id=member.club_id, status=EveningStatus.PLANNED)
        .first()
    )


def _when(evening: Evening) -> dict:
    """The evening's day and time as the member reads them (Stockholm time)."""
    start = evening.starts_at and timezone.localtime(evening.starts_at)
    return {
        "day": formats.date_format(evening.date, "l j F Y"),
        "time": start.strftime("%H:%M") if start else "",
    }


def _context(evening: Evening, member: Member) -> dict:
    reply = Reply.objects.filter(evening=evening, member=member).first()
    return {
        "evening": evening,
        "title": evening.title,
        "games": ", ".join(_(registry.display_name(g)) for g in evening.games if g in _known()),
        "cap": evening.cap,
        "reply": reply,
        "reply_url": absolute(reverse("week:evening", args=[evening.club.slug, evening.pk])),
        **_when(evening),
    }


def _known() -> set[str]:
    return set(registry.game_keys())


def _subject(text: str, evening: Evening, when: dict) -> str:
    return text % {"club": evening.club.name, "day": when["day"]}


def render_invitation(member: Member, evening_id: int) -> Mail | None:
    evening = _planned(member, evening_id)
    if evening is None:
        return None
    context = _context(evening, member)
    subject = _subject(_("%(club)s: club evening %(day)s"), evening, context)
    return render_mail("invitation", member, subject, context)


def render_reminder(member: Member, evening_id: int) -> Mail | None:
    evening = _planned(member, evening_id)
    if evening is None:
        return None
    context = _context(evening, member)
    reply = context["reply"]
    if reply is None or reply.answer not in (ReplyAnswer.COMING, ReplyAnswer.MAYBE):
        return None
    subject = _subject(_("%(club)s tomorrow: club evening %(day)s"), evening, context)
    return render_mail("reminder", member, subject, context)


def render_promotion(member: Member, evening_id: int) -> Mail | None:
    evening = _planned(member, evening_id)
    if evening is None:
        return None
    context = _context(evening, member)
    reply = context["reply"]
    if reply is None or reply.answer != ReplyAnswer.COMING or reply.waiting:
        return None
    subject = _subject(_("%(club)s: a seat is yours on %(day)s"), evening, context)
    return render_mail("promotion", member, subject, context)


def queue_reminders(now: datetime) -> int:
    """Owe the day-before reminder for every planned evening tomorrow; the rows written."""
    tomorrow = timezone.localtime(now).date() + timedelta(days=1)
    written = 0
    for evening in Evening.objects.filter(status=EveningStatus.PLANNED, date=tomorrow):
        members = Reply.objects.filter(
            evening=evening, answer__in=(ReplyAnswer.COMING, ReplyAnswer.MAYBE)
        ).values_list("member_id", flat=True)
        with transaction.atomic():
            written += notices.queue("reminder", evening.pk, list(members))
    return written


notices.register_mail("invitation", render_invitation)
notices.register_mail("reminder", render_reminder)
notices.register_mail("promotion", render_promotion)
