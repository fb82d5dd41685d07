"""The calendar feed: a secret URL per member, revocable; the .ics parses, says his reply, and
changes (SEQUENCE, DTSTART) when an evening moves or is cancelled."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import icalendar
import pytest

from week import feed, planning, replies
from week.models import CalendarFeed, Schedule


@pytest.fixture(autouse=True)
def october(time_machine):
    time_machine.move_to("2026-10-15 12:00 +0200", tick=False)


@pytest.fixture
def planned(club):
    Schedule.objects.create(
        club=club,
        weekday=3,
        start_time=time(18, 30),
        first_date=date(2026, 10, 15),
        until=date(2026, 10, 29),
        title="Torsdagskille",
    )
    return planning.plan_ahead(club, date(2026, 10, 15))


def events(client, url: str, **headers) -> dict[str, icalendar.Event]:
    response = client.get(url, **headers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    cal = icalendar.Calendar.from_ical(response.content)
    assert str(cal["X-WR-CALNAME"]) == "Kortklubben Spader Kung"
    assert str(cal["VERSION"]) == "2.0"
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


def test_the_feed_parses_with_the_evenings_and_his_reply_and_changes_when_one_moves(
    club, member, planned, client
):
    first, second, third = planned
    replies.answer(first, member, "coming", "Greta")
    token = feed.new_token(member)
    url = f"/cal/{token}.ics"
    before = events(client, url)
    assert len(before) == 3
    uid = next(u for u in before if u.startswith(f"evening-{first.pk}@"))
    event = before[uid]
    assert event.decoded("DTSTART") == datetime(2026, 10, 15, 16, 30, tzinfo=UTC)
    assert event.decoded("DTEND") == datetime(2026, 10, 15, 20, 30, tzinfo=UTC)
    assert int(event["SEQUENCE"]) == 0
    assert "Greta" in str(event["SUMMARY"])
    assert "Kortklubben Spader Kung" in str(event["SUMMARY"])
    assert str(event["STATUS"]) == "CONFIRMED"

    planning.move(first, date(2026, 10, 16), time(19, 0), today=date(2026, 10, 15))
    planning.cancel(third)
    after = events(client, url)
    assert set(after) == set(before)  # the same UIDs: the phone updates, never duplicates
    assert int(after[uid]["SEQUENCE"]) == 1
    assert after[uid].decoded("DTSTART") == datetime(2026, 10, 16, 17, 0, tzinfo=UTC)
    cancelled = next(e for u, e in after.items() if u.startswith(f"evening-{third.pk}@"))
    assert str(cancelled["STATUS"]) == "CANCELLED"
    assert int(cancelled["SEQUENCE"]) == 1
    # Subscribed through another host name, the same UIDs (the site's address, SITE_URL).
    assert set(events(client, url, HTTP_HOST="localhost")) == set(before)
    assert all(u.endswith("@127.0.0.1:8000") for u in before)


def test_a_new_link_revokes_the_old_and_only_a_hash_is_stored(club, member, member_client, client):
    old = feed.new_token(member)
    assert client.get(f"/cal/{old}.ics").status_code == 200
    page = member_client.get(f"/c/{club.slug}/week/")
    assert old in page.content.decode()  # the member's page shows his URL
    assert member_client.post(f"/c/{club.slug}/week/").status_code == 302
    new = feed.current_token(member)
    assert new
    assert new != old
    assert client.get(f"/cal/{old}.ics").status_code == 404
    assert client.get(f"/cal/{new}.ics").status_code == 200
    row = CalendarFeed.objects.get(member=member)
    assert new not in (row.nonce, row.token_hash)


@pytest.mark.parametrize("token", ["x", "\x00", "a" * 43, "٣" * 10, "x" * 300, "%00"])
def test_a_hostile_or_unknown_token_is_404(db, client, token):
    assert client.get(f"/cal/{token}.ics").status_code == 404


def test_a_member_who_left_has_no_feed(club, member, client):
    token = feed.new_token(member)
    member.active = False
    member.save(update_fields=["active"])
    assert client.get(f"/cal/{token}.ics").status_code == 404
