"""Evenings planned ahead from the club's weekly schedule.

Design
- ``plan_ahead(club, today)`` makes a *planned* ``evenings.Evening`` for every date of every
  active schedule of the club in the next ``HORIZON_DAYS`` days (today included). It is safe
  to run again and again (a daily beat task does): one evening per club and date
  (``evenings_one_per_day``), and an evening already on that date — planned, opened by hand,
  cancelled — is left alone. An exception date is not planned; a planned evening that has
  no replies on a date that has since become an exception is cancelled (one with replies is
  left for the admin to cancel or keep, the members who replied having a say).
- ``starts_at`` is the schedule's local wall time in Europe/Stockholm made aware: 18:30 is
  18:30 on both sides of a daylight-saving change (16:30 UTC in summer, 17:30 in winter).
- The members are invited to the evenings of the next ``INVITE_DAYS`` days, in the same
  transaction that plans them (``notices.queue("invitation", …)``: the outbox row is written
  with the evening, or neither). Not to all 92 days' at once: a new schedule would mail every
  member thirteen invitations in one go. Each day's run invites to the evenings that have come
  into that window (the outbox is unique per kind, evening and member: nobody is invited twice,
  and a member who joined since is invited to what is coming).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date as Date
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

import notices
from club.models import Club, Member
from evenings.models import Evening, EveningStatus
from week.models import Schedule

HORIZON_DAYS = 92  # about three months of evenings, planned ahead
INVITE_DAYS = 14  # the invitation goes out two weeks ahead (or when planned, if nearer)
LOCAL = ZoneInfo("Europe/Stockholm")


def local_start(day: Date, at: time) -> datetime:
    """The evening's start as an aware time: the wall clock in Stockholm that day."""
    return datetime.combine(day, at, tzinfo=LOCAL)


def schedule_dates(schedule: Schedule, today: Date, days: int = HORIZON_DAYS) -> Iterator[Date]:
    """The schedule's dates from ``today`` for ``days`` days (exceptions included)."""
    start = max(today, schedule.first_date)
    end = today + timedelta(days=days - 1)
    if schedule.until is not None:
        end = min(end, schedule.until)
    day = start + timedelta(days=(schedule.weekday - start.weekday()) % 7)
    while day <= end:
        yield day
        day += timedelta(days=7)


def plan_ahead(club: Club, today: Date) -> list[Evening]:
    """Plan the club's coming evenings; the evenings made now (see the module)."""
    made: list[Evening] = []
    schedules = list(Schedule.objects.filter(club=club, active=True).prefetch_related("exceptions"))
    with transaction.atomic():
        for schedule in schedules:
            skipped = {e.date for e in schedule.exceptions.all()}
            _cancel_unanswered(club, skipped, today)
            taken = set(
                Evening.objects.filter(
                    club=club, date__gte=today, date__lt=today + timedelta(days=HORIZON_DAYS)
                ).values_list("date", flat=True)
            )
            for day in schedule_dates(schedule, today):
                if day in skipped or day in taken:
                    continue
                evening = _plan(schedule, day)
                if evening is not None:
                    made.append(evening)
                    taken.add(day)
        _invite(club, today)
    return made


def _invite(club: Club, today: Date) -> None:
    """Invite the active members to the planned evenings of the next ``INVITE_DAYS`` days."""
    soon = Evening.objects.filter(
        club=club,
        status=EveningStatus.PLANNED,
        date__gte=today,
        date__lt=today + timedelta(days=INVITE_DAYS),
    ).values_list("pk", flat=True)
    invited: list[int] | None = None
    for evening_id in soon:
        if invited is None:
            invited = list(Member.objects.for_club(club).active().values_list("pk", flat=True))
        notices.queue("invitation", evening_id, invited)


def _plan(schedule: Schedule, day: Date) -> Evening | None:
    try:
        with transaction.atomic():  # a savepoint: another run planned the day first
            return Evening.objects.create(
                club_id=schedule.club_id,
                date=day,
                title=schedule.title,
                games=list(schedule.games or []),
                status=EveningStatus.PLANNED,
                starts_at=local_start(day, schedule.start_time),
                cap=schedule.cap,
            )
    except IntegrityError:
        return None


def _cancel_unanswered(club: Club, days: set[Date], today: Date) -> int:
    """Cancel the planned evenings without replies on these dates (now exceptions)."""
    if not days:
        return 0
    return (
        Evening.objects.filter(
            club=club, date__in=days, date__gte=today, status=EveningStatus.PLANNED
        )
        .filter(replies__isnull=True)
        .update(status=EveningStatus.CANCELLED, calendar_sequence=F("calendar_sequence") + 1)
    )


def plan_all(today: Date) -> int:
    """Plan ahead for every club with an active schedule; the evenings made."""
    clubs = Club.objects.filter(schedules__active=True).distinct().order_by("pk")
    return sum(len(plan_ahead(club, today)) for club in clubs)


class PlanRefused(ValidationError):
    """A change to a planned evening that was not made, in words a person can act on."""


def move(evening: Evening, day: Date, at: time, *, today: Date) -> Evening:
    """Move a planned evening to another date or time; its calendar sequence goes up (the
    phones' calendars move the event they hold)."""
    with transaction.atomic():
        evening = Evening.objects.select_for_update().get(pk=evening.pk)
        if evening.status != EveningStatus.PLANNED:
            raise PlanRefused(_("Only a planned evening can be moved."), code="not_planned")
        if day < today:
            raise PlanRefused(_("Move it to today or later."), code="past")
        if (
            day != evening.date
            and Evening.objects.filter(club_id=evening.club_id, date=day).exists()
        ):
            raise PlanRefused(_("The club already has an evening that day."), code="taken")
        starts_at = local_start(day, at)
        if (day, starts_at) == (evening.date, evening.starts_at):
            return evening
        try:
            with transaction.atomic():
                Evening.objects.filter(pk=evening.pk).update(
                    date=day,
                    starts_at=starts_at,
                    calendar_sequence=F("calendar_sequence") + 1,
                )
        except IntegrityError:
            raise PlanRefused(
                _("The club already has an evening that day."), code="taken"
            ) from None
    return Evening.objects.get(pk=evening.pk)


def cancel(evening: Evening) -> Evening:
    """Call off a planned evening (a second tap changes nothing)."""
    Evening.objects.filter(pk=evening.pk, status=EveningStatus.PLANNED).update(
        status=EveningStatus.CANCELLED, calendar_sequence=F("calendar_sequence") + 1
    )
    return Evening.objects.get(pk=evening.pk)
