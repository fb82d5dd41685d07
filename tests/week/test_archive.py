"""The club's week moves with the club archive: schedules (a time of day), exceptions, planned
evenings and replies; calendar addresses stay behind (a secret of the instance)."""

from __future__ import annotations

import io
from datetime import date, time

from clubdata import archive
from clubdata.archive_import import import_club
from tests.factories import make_member
from week import feed, planning, replies
from week.models import CalendarFeed, Reply, Schedule, ScheduleException


def test_the_week_goes_along_with_the_club(club, time_machine, django_capture_on_commit_callbacks):
    time_machine.move_to("2026-10-15 12:00 +0200", tick=False)
    schedule = Schedule.objects.create(
        club=club, weekday=3, start_time=time(18, 30), first_date=date(2026, 10, 1), cap=4
    )
    ScheduleException.objects.create(schedule=schedule, date=date(2026, 10, 29))
    first = planning.plan_ahead(club, date(2026, 10, 15))[0]
    ada = make_member(club, "Ada")
    replies.answer(first, ada, "coming", "Greta")
    feed.new_token(ada)
    out = io.BytesIO()
    archive.write_archive(club, out)
    with django_capture_on_commit_callbacks(execute=True):
        copy = import_club(out.getvalue()).club
    copied = Schedule.objects.get(club=copy)
    assert (copied.start_time, copied.cap) == (time(18, 30), 4)
    assert list(copied.exceptions.values_list("date", flat=True)) == [date(2026, 10, 29)]
    evening = copy.evenings.get(date=first.date)
    assert (evening.status, evening.starts_at, evening.cap) == ("planned", first.starts_at, 4)
    reply = Reply.objects.get(evening=evening)
    assert (reply.member.name, reply.guest_name, reply.answer) == ("Ada", "Greta", "coming")
    assert not CalendarFeed.objects.filter(member__club=copy).exists()
