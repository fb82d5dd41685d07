"""Replies to a planned evening: seats first come first served, the wait-list in order, a
cancellation promoting the first in line exactly once, on SQLite and under real concurrency
on PostgreSQL."""

from __future__ import annotations

from datetime import time

import pytest
from django.test import Client
from django.utils import timezone

import evenings
from evenings.models import Evening, EveningStatus
from notices.models import OwedMail
from tests.concurrency import at_once, postgres_only
from tests.factories import make_club, make_member
from week import planning, replies
from week.models import Reply, Schedule


def planned(club, cap: int | None = None) -> Evening:
    """An evening planned for today, by a schedule of one date."""
    today = timezone.localdate()
    Schedule.objects.create(
        club=club, weekday=today.weekday(), start_time=time(18, 30),
        first_date=today, until=today, cap=cap,
    )  # fmt: skip
    [evening] = planning.plan_ahead(club, today)
    return evening


def people(club, n: int, email: bool = True):
    """``n`` members without a login (with an address: the promotion mail is owed to them)."""
    made = [make_member(club, f"Person {i:02}", login=False) for i in range(n)]
    if email:
        for i, person in enumerate(made):
            person.email = f"p{i}@example.org"
            person.save(update_fields=["email"])
    return made


def seated(evening) -> list[str]:
    return sorted(
        Reply.objects.filter(evening=evening, answer="coming", waiting=False).values_list(
            "member__name", flat=True
        )
    )


def line(evening) -> list[str]:
    return [r.member.name for r in replies.wait_list(evening)]


def test_seats_go_first_come_first_served_and_the_rest_wait_in_order(club):
    evening = planned(club, cap=3)
    a, b, c, d, e = people(club, 5)
    replies.answer(evening, a, "coming", "Greta")  # two seats
    replies.answer(evening, b, "coming")
    third = replies.answer(evening, c, "coming")
    fourth = replies.answer(evening, d, "coming")
    replies.answer(evening, e, "maybe")
    assert seated(evening) == ["Person 00", "Person 01"]
    assert line(evening) == ["Person 02", "Person 03"]
    assert (replies.place_in_line(third), replies.place_in_line(fourth)) == (1, 2)
    assert replies.seats_left(evening) == 0


def test_a_cancellation_promotes_the_first_in_line_once_and_mails_him(club):
    evening = planned(club, cap=2)
    a, b, c, d = people(club, 4)
    for person in (a, b, c, d):
        replies.answer(evening, person, "coming")
    replies.answer(evening, a, "not")
    replies.answer(evening, a, "not")  # a double tap frees nothing more
    assert seated(evening) == ["Person 01", "Person 02"]
    assert line(evening) == ["Person 03"]
    assert list(OwedMail.objects.filter(kind="promotion").values_list("member_id", flat=True)) == [
        c.pk
    ]


def test_dropping_a_guest_frees_a_seat_and_a_guest_who_does_not_fit_is_refused(club):
    evening = planned(club, cap=3)
    a, b, c = people(club, 3)
    replies.answer(evening, a, "coming", "Greta")
    replies.answer(evening, b, "coming")
    replies.answer(evening, c, "coming")
    assert line(evening) == ["Person 02"]
    with pytest.raises(replies.ReplyRefused) as refused:
        replies.answer(evening, b, "coming", "Gustav")
    assert refused.value.code == "full"
    replies.answer(evening, a, "coming", "")  # Greta stays at home
    assert seated(evening) == ["Person 00", "Person 01", "Person 02"]


def test_the_first_in_line_is_not_jumped_by_a_smaller_reply(club):
    evening = planned(club, cap=2)
    a, b, c, d = people(club, 4)
    replies.answer(evening, a, "coming")
    replies.answer(evening, b, "coming")
    replies.answer(evening, c, "coming", "Greta")  # needs two seats
    replies.answer(evening, d, "coming")
    replies.answer(evening, a, "not")  # one seat free: C needs two, D waits behind C
    assert line(evening) == ["Person 02", "Person 03"]
    replies.answer(evening, b, "maybe")
    assert seated(evening) == ["Person 02"]
    assert line(evening) == ["Person 03"]


def test_raising_the_cap_promotes_and_lowering_it_seats_nobody_out(club):
    evening = planned(club, cap=1)
    a, b, c = people(club, 3)
    for person in (a, b, c):
        replies.answer(evening, person, "coming")
    assert [r.member_id for r in replies.set_cap(evening, 2)] == [b.pk]
    replies.set_cap(evening, 1)
    assert seated(evening) == ["Person 00", "Person 01"]
    assert line(evening) == ["Person 02"]
    assert [r.member_id for r in replies.set_cap(evening, None)] == [c.pk]


def test_replies_close_when_the_evening_opens_or_is_cancelled(club, scorer):
    evening = planned(club)
    (a,) = people(club, 1)
    replies.answer(evening, a, "coming")
    planning.cancel(evening)
    with pytest.raises(replies.ReplyRefused) as refused:
        replies.answer(evening, a, "not")
    assert refused.value.code == "cancelled"
    opened = evenings.open_evening(club, scorer.user, date=evening.date)
    assert opened.status == EveningStatus.OPEN
    with pytest.raises(replies.ReplyRefused) as refused:
        replies.answer(evening, a, "not")
    assert refused.value.code == "closed"
    assert Reply.objects.get(member=a).answer == "coming"


def test_a_member_answers_with_one_tap_on_the_start_page(club, member, member_client):
    evening = planned(club, cap=1)
    home = member_client.get(f"/c/{club.slug}/")
    assert b'data-testid="week-panel"' in home.content
    url = f"/c/{club.slug}/week/evenings/{evening.pk}/answer/"
    response = member_client.post(url, {"answer": "coming"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert b'id="week-evening-' in response.content
    assert b"<html" not in response.content
    assert Reply.objects.get(member=member).answer == "coming"
    other = make_member(club, "Olle Sen")
    response = Client()
    response.force_login(other.user)
    page = response.post(url, {"answer": "coming"}, follow=True)
    assert "nummer 1" in page.content.decode()  # "You are number 1 on the wait-list."
    planning.cancel(evening)
    refused = member_client.post(url, {"answer": "not"}, headers={"HX-Request": "true"})
    assert refused.status_code == 422
    assert "inställd" in refused.content.decode()


def test_another_clubs_evening_is_not_found(club, member_client):
    elsewhere = planned(make_club())
    url = f"/c/{club.slug}/week/evenings/{elsewhere.pk}/answer/"
    assert member_client.post(url, {"answer": "coming"}).status_code == 404


# --- under real concurrency (PostgreSQL) -------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_replies_race_for_the_last_seat_one_gets_it_the_rest_wait_in_order():
    postgres_only()
    club = make_club()
    evening = planned(club, cap=1)
    racers = people(club, 20, email=False)
    at_once(lambda person: replies.answer(evening, person, "coming"), racers)
    assert len(seated(evening)) == 1
    waiting = replies.wait_list(evening)
    assert len(waiting) == 19
    assert [replies.place_in_line(r) for r in waiting] == list(range(1, 20))
    # In the order they were queued: the order they got the evening's lock, which is also
    # the order their rows were written.
    assert [r.pk for r in waiting] == sorted(r.pk for r in waiting)
    assert [r.queued_at for r in waiting] == sorted(r.queued_at for r in waiting)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_cancellations_at_once_promote_as_many_as_they_free_not_more():
    postgres_only()
    club = make_club()
    evening = planned(club, cap=4)
    everyone = people(club, 10)
    for person in everyone:
        replies.answer(evening, person, "coming")
    leaving = everyone[:4]
    # Four cancel, each with a double tap: eight taps at once free four seats.
    at_once(lambda person: replies.answer(evening, person, "not"), leaving * 2)
    assert seated(evening) == [p.name for p in everyone[4:8]]
    assert line(evening) == [p.name for p in everyone[8:]]
    promoted = OwedMail.objects.filter(kind="promotion").values_list("member_id", flat=True)
    assert sorted(promoted) == [p.pk for p in everyone[4:8]]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_cancellations_at_once_promote_two_not_three():
    postgres_only()
    club = make_club()
    evening = planned(club, cap=2)
    a, b, c, d, e = people(club, 5)
    for person in (a, b, c, d, e):
        replies.answer(evening, person, "coming")
    at_once(lambda person: replies.answer(evening, person, "not"), [a, b])
    assert seated(evening) == ["Person 02", "Person 03"]
    assert line(evening) == ["Person 04"]
    promoted = OwedMail.objects.filter(kind="promotion").values_list("member_id", flat=True)
    assert sorted(promoted) == sorted([c.pk, d.pk])
