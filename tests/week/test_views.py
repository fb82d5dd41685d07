"""The week's pages: the admin's schedule ("plan now", exceptions), a planned evening's
replies with the admin's move, seats and cancel; the evening list shows planned ones; an
erased member's +1 and seats are gone."""

from __future__ import annotations

from datetime import time

from django.utils import timezone

from clubdata import erase, mydata
from evenings.models import Evening, EveningStatus
from tests.factories import make_member
from week import feed, planning, replies
from week.models import CalendarFeed, Reply, Schedule


def test_the_admin_saves_a_schedule_and_the_evenings_are_planned(club, admin_client_):
    today = timezone.localdate()
    url = f"/c/{club.slug}/week/schedule/"
    assert admin_client_.get(url).status_code == 200
    response = admin_client_.post(
        url,
        {
            "action": "add",
            "weekday": "3",
            "start_time": "18:30",
            "first_date": today.isoformat(),
            "cap": "12",
            "title": "Torsdagskille",
        },
    )
    assert response.status_code == 302
    planned = Evening.objects.filter(club=club, status=EveningStatus.PLANNED)
    assert 12 <= planned.count() <= 14
    assert {e.cap for e in planned} == {12}
    first = planned.order_by("date").first()
    schedule = Schedule.objects.get(club=club)
    admin_client_.post(
        url, {"action": "skip", "schedule": schedule.pk, "date": first.date.isoformat()}
    )
    first.refresh_from_db()
    assert first.status == EveningStatus.CANCELLED  # nobody had answered
    listing = admin_client_.get(f"/c/{club.slug}/evenings/").content.decode()
    assert "planerad" in listing
    assert "inställd" in listing


def test_a_member_may_not_plan_or_change_an_evening(club, member_client):
    assert member_client.get(f"/c/{club.slug}/week/schedule/").status_code == 403
    evening = Evening.objects.create(club=club, date=timezone.localdate(), status="planned")
    url = f"/c/{club.slug}/week/evenings/{evening.pk}/"
    assert member_client.get(url).status_code == 200
    assert member_client.post(url, {"action": "cancel"}).status_code == 403
    evening.refresh_from_db()
    assert evening.status == EveningStatus.PLANNED


def test_the_admin_moves_sets_seats_and_cancels_and_sees_the_wait_list(
    club, admin_member, admin_client_
):
    today = timezone.localdate()
    evening = Evening.objects.create(
        club=club, date=today, status="planned", cap=1, starts_at=timezone.now()
    )
    ada, bo = make_member(club, "Ada"), make_member(club, "Bo")
    replies.answer(evening, ada, "coming")
    replies.answer(evening, bo, "coming")
    url = f"/c/{club.slug}/week/evenings/{evening.pk}/"
    page = admin_client_.get(url).content.decode()
    assert 'data-testid="wait-list"' in page
    assert "Bo" in page
    admin_client_.post(url, {"action": "seats", "cap": "2"})
    assert not Reply.objects.get(member=bo).waiting
    tomorrow = today + timezone.timedelta(days=1)
    admin_client_.post(url, {"action": "move", "date": tomorrow.isoformat(), "start_time": "19:00"})
    evening.refresh_from_db()
    assert (evening.date, evening.calendar_sequence) == (tomorrow, 1)
    assert timezone.localtime(evening.starts_at).time() == time(19, 0)
    admin_client_.post(url, {"action": "cancel"})
    evening.refresh_from_db()
    assert (evening.status, evening.calendar_sequence) == (EveningStatus.CANCELLED, 2)


def test_an_erased_members_guest_name_seat_and_calendar_are_gone(club, admin_member):
    evening = Evening.objects.create(club=club, date=timezone.localdate(), status="planned", cap=2)
    leaving, waiting = make_member(club, "Lena Lämnar"), make_member(club, "Will Väntar")
    replies.answer(evening, leaving, "coming", "Greta Granne")
    replies.answer(evening, waiting, "coming")
    token = feed.new_token(leaving)
    erase.erase_member(leaving, admin_member)
    assert not Reply.objects.filter(guest_name__icontains="Greta").exists()
    assert Reply.objects.get(member=leaving).answer == "not"
    assert not Reply.objects.get(member=waiting).waiting  # promoted to the freed seat
    assert not CalendarFeed.objects.filter(member=leaving).exists()
    assert feed.member_for(token) is None


def test_planning_is_idempotent_through_the_page(club, admin_client_):
    Schedule.objects.create(
        club=club,
        weekday=timezone.localdate().weekday(),
        start_time=time(18, 30),
        first_date=timezone.localdate(),
    )
    url = f"/c/{club.slug}/week/schedule/"
    admin_client_.post(url, {"action": "plan"})
    count = Evening.objects.filter(club=club).count()
    admin_client_.post(url, {"action": "plan"})
    assert Evening.objects.filter(club=club).count() == count
    assert planning.plan_ahead(club, timezone.localdate()) == []


def test_my_data_holds_my_replies_and_my_guests(club, member):
    evening = Evening.objects.create(club=club, date=timezone.localdate(), status="planned")
    replies.answer(evening, member, "coming", "Greta")
    (reply,) = mydata.member_data(member)["replies"]
    said = (reply["evening"], reply["answer"], reply["guest_name"])
    assert said == (evening.pk, "coming", "Greta")
