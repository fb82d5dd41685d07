"""The schedule plans the right dates at the right local time, across both daylight-saving
changes, idempotently, around its exceptions; a planned evening opens on its day."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

import evenings
from evenings.models import Evening, EveningStatus
from notices.models import OwedMail
from week import planning, replies
from week.models import Schedule, ScheduleException


@pytest.fixture(autouse=True)
def october(time_machine):
    """Thursday 15 October 2026, noon in Stockholm, the ten days before the change."""
    time_machine.move_to("2026-10-15 12:00 +0200", tick=False)


def thursdays(club, first: date, **fields) -> Schedule:
    return Schedule.objects.create(
        club=club, weekday=3, start_time=time(18, 30), first_date=first, **fields
    )


def test_thursdays_at_half_past_six_stay_half_past_six_across_the_october_change(club):
    # Summer time ends on Sunday 25 October 2026: 18:30 is 16:30 UTC before, 17:30 after.
    thursdays(club, date(2026, 10, 1))
    made = planning.plan_ahead(club, date(2026, 10, 15))
    by_date = {e.date: e.starts_at.astimezone(UTC) for e in made}
    assert by_date[date(2026, 10, 22)] == datetime(2026, 10, 22, 16, 30, tzinfo=UTC)
    assert by_date[date(2026, 10, 29)] == datetime(2026, 10, 29, 17, 30, tzinfo=UTC)
    assert all(d.weekday() == 3 for d in by_date)
    assert min(by_date) == date(2026, 10, 15)  # today is a Thursday: planned too
    assert max(by_date) <= date(2026, 10, 15) + timedelta(days=planning.HORIZON_DAYS - 1)
    assert len(made) == 14  # 15 October … 14 January, the 92nd day
    assert {e.status for e in made} == {EveningStatus.PLANNED}


def test_the_horizon_is_92_days_counting_today_and_never_the_93rd(club):
    # From Wednesday 14 October 2026 the 92 days end on Wednesday 13 January 2027; the 93rd,
    # Thursday 14 January, is a Thursday the horizon does not reach.
    thursdays(club, date(2026, 10, 1))
    made = planning.plan_ahead(club, date(2026, 10, 14))
    assert max(e.date for e in made) == date(2027, 1, 7)
    assert len(made) == 13


def test_and_across_the_march_change(club):
    # Summer time begins on Sunday 29 March 2027: 17:30 UTC before, 16:30 after.
    thursdays(club, date(2027, 3, 1), until=date(2027, 4, 8))
    made = planning.plan_ahead(club, date(2027, 3, 20))
    assert [(e.date, e.starts_at.astimezone(UTC).hour) for e in made] == [
        (date(2027, 3, 25), 17),
        (date(2027, 4, 1), 16),
        (date(2027, 4, 8), 16),  # until, inclusive
    ]


def test_planning_twice_makes_each_evening_once_and_invites_once(club, member):
    member.email = "maja@example.org"
    member.save()
    thursdays(club, date(2026, 10, 1))
    first = planning.plan_ahead(club, date(2026, 10, 15))
    assert planning.plan_ahead(club, date(2026, 10, 15)) == []
    assert Evening.objects.filter(club=club).count() == len(first)
    # Invited to the evenings of the next two weeks (15, 22 October), not to all fourteen.
    invited = OwedMail.objects.filter(kind="invitation", member=member)
    assert sorted(Evening.objects.get(pk=m.object_id).date for m in invited) == [
        date(2026, 10, 15),
        date(2026, 10, 22),
    ]
    # A week on, the evening that came into the window is invited to, once.
    planning.plan_ahead(club, date(2026, 10, 22))
    planning.plan_ahead(club, date(2026, 10, 22))
    assert sorted(Evening.objects.get(pk=m.object_id).date for m in invited.all()) == [
        date(2026, 10, 15),
        date(2026, 10, 22),
        date(2026, 10, 29),
    ]


def test_an_evening_already_on_the_date_is_left_alone(club, scorer):
    thursdays(club, date(2026, 10, 1))
    held = evenings.open_evening(club, scorer.user, date=date(2026, 10, 22), title="Extra")
    planning.plan_ahead(club, date(2026, 10, 15))
    held.refresh_from_db()
    assert (held.status, held.title, held.starts_at) == (EveningStatus.OPEN, "Extra", None)


def test_an_exception_is_not_planned_and_an_unanswered_evening_on_it_is_cancelled(club, member):
    schedule = thursdays(club, date(2026, 10, 1))
    ScheduleException.objects.create(schedule=schedule, date=date(2026, 10, 22))
    planning.plan_ahead(club, date(2026, 10, 15))
    assert not Evening.objects.filter(club=club, date=date(2026, 10, 22)).exists()
    # Later exceptions: the one nobody answered is cancelled, the answered one is kept.
    quiet = Evening.objects.get(club=club, date=date(2026, 10, 29))
    answered = Evening.objects.get(club=club, date=date(2026, 11, 5))
    replies.answer(answered, member, "coming")
    for day in (quiet.date, answered.date):
        ScheduleException.objects.create(schedule=schedule, date=day)
    planning.plan_ahead(club, date(2026, 10, 15))
    quiet.refresh_from_db()
    answered.refresh_from_db()
    assert (quiet.status, quiet.calendar_sequence) == (EveningStatus.CANCELLED, 1)
    assert answered.status == EveningStatus.PLANNED


def test_opening_a_planned_evening_opens_it_with_the_options_of_today(club, scorer):
    thursdays(club, date(2026, 10, 1), title="Torsdagskille", cap=12)
    evenings.save_options(club, scorer.user, fee_ore=3000, fee_kind="table", pot_policy="carry")
    [planned, *_rest] = planning.plan_ahead(club, date(2026, 10, 15))
    opened = evenings.open_evening(club, scorer.user, date=planned.date)
    assert opened.pk == planned.pk
    assert (opened.status, opened.fee_ore, opened.title, opened.cap) == (
        EveningStatus.OPEN,
        3000,
        "Torsdagskille",
        12,
    )
    assert opened.opened_by == scorer.user
    assert opened.calendar_sequence == 1
    # A second tap finds it open; nothing changes.
    assert evenings.open_evening(club, scorer.user, date=planned.date).calendar_sequence == 1


def test_a_planned_or_cancelled_evening_refuses_check_in_saying_why(club, member):
    thursdays(club, date(2026, 10, 1))
    planned, later, *_rest = planning.plan_ahead(club, date(2026, 10, 15))
    with pytest.raises(evenings.EveningError) as refused:
        evenings.check_in(planned, None, member=member)
    assert refused.value.code == "planned"
    planning.cancel(later)
    with pytest.raises(evenings.EveningError) as refused:
        evenings.check_in(Evening.objects.get(pk=later.pk), None, member=member)
    assert refused.value.code == "cancelled"
    assert not later.attendees.exists()


def test_a_move_bumps_the_sequence_and_refuses_a_taken_day(club):
    thursdays(club, date(2026, 10, 1))
    first, second, *_rest = planning.plan_ahead(club, date(2026, 10, 15))
    moved = planning.move(first, date(2026, 10, 16), time(19, 0), today=date(2026, 10, 15))
    assert (moved.date, moved.starts_at.astimezone(UTC).hour, moved.calendar_sequence) == (
        date(2026, 10, 16),
        17,
        1,
    )
    with pytest.raises(planning.PlanRefused) as refused:
        planning.move(moved, second.date, time(19, 0), today=date(2026, 10, 15))
    assert refused.value.code == "taken"


def test_the_beat_plans_every_club_with_a_schedule(club, other_club):
    thursdays(club, date(2026, 10, 1))
    from week import tasks

    assert tasks.plan_ahead_all.run() > 0
    assert Evening.objects.filter(club=club, status="planned").exists()
    assert not Evening.objects.filter(club=other_club).exists()


def test_the_hourly_beat_queues_tomorrows_reminders_once(club, member, time_machine):
    from week import tasks

    member.email = "maja@example.org"
    member.save()
    thursdays(club, date(2026, 10, 1))
    planning.plan_ahead(club, date(2026, 10, 15))
    replies.answer(Evening.objects.get(club=club, date=date(2026, 10, 22)), member, "maybe")
    assert tasks.send_reminders.run() == 0  # tomorrow is a Friday: nothing planned
    time_machine.move_to("2026-10-21 18:00 +0200", tick=False)
    assert tasks.send_reminders.run() == 1
    assert tasks.send_reminders.run() == 0  # the next hour's run adds nothing
    assert OwedMail.objects.filter(kind="reminder", member=member).count() == 1
