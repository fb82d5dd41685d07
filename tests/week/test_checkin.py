"""Tonight's check-in starts from the replies: those who said coming first and pre-ticked,
with their +1 guests; those who said maybe next."""

from __future__ import annotations

from datetime import time

from django.utils import timezone

import evenings
from evenings.models import Attendee
from tests.conftest import client_for
from tests.factories import make_member
from week import planning, replies
from week.models import Schedule


def test_check_in_offers_the_replies_first_and_checks_them_in(club, scorer):
    today = timezone.localdate()
    Schedule.objects.create(
        club=club, weekday=today.weekday(), start_time=time(18, 30), first_date=today, cap=3
    )
    [planned] = planning.plan_ahead(club, today)[:1]
    ada, bo, cilla, dan = (make_member(club, n) for n in ("Ada", "Bo", "Cilla", "Dan"))
    replies.answer(planned, dan, "coming", "Greta")
    replies.answer(planned, bo, "maybe")
    replies.answer(planned, cilla, "coming")
    replies.answer(planned, ada, "not")
    evening = evenings.open_evening(club, scorer.user)
    assert evening.pk == planned.pk
    host = client_for(scorer)
    page = host.get(f"/c/{club.slug}/evenings/{evening.pk}/")
    form = page.context["check_in"]
    order = [box.choice_label for box, _here in form.member_choices()]
    assert order[:3] == ["Cilla", "Dan", "Bo"]  # coming (by name), then maybe
    assert set(form["members"].initial) == {dan.pk, cilla.pk}
    assert form["expected_guests"].initial == ["Greta"]
    html = page.content.decode()
    assert 'value="Greta"' in html
    # The host saves the ticks as offered.
    response = host.post(
        f"/c/{club.slug}/evenings/{evening.pk}/",
        {
            "action": "check-in",
            "members": form["members"].initial,
            "expected_guests": form["expected_guests"].initial,
        },
    )
    assert response.status_code == 302
    here = {a.name for a in Attendee.objects.filter(evening=evening)}
    assert here == {"Dan", "Cilla", "Greta"}
