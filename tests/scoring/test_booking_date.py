"""A game's money is booked on the day its event happened at the table (``at``), so an evening
recorded afterwards — the demo's — reads on a statement as the evening it was."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import time_machine

from scoring import recording


def test_money_of_an_event_recorded_afterwards_is_booked_on_its_local_day(
    toy, club, scorer, member
):
    game = recording.start_game(club, "toy", [scorer, member, "Gästen Gunnar"], scorer.user)
    # 00:30 in Stockholm on 6 March is still the 5th in UTC: the club's day counts.
    at_the_table = datetime(2026, 3, 5, 23, 30, tzinfo=UTC)
    with time_machine.travel(at_the_table + timedelta(days=7)):
        result = recording.append_event(
            game,
            "stake",
            {"player": "s0", "amount": 200},
            expected_seq=0,
            idempotency_key="k",
            by=None,
            at=at_the_table,
        )
    money = result.event.money
    assert money.date == date(2026, 3, 6)
    assert set(money.entries.values_list("date", flat=True)) == {date(2026, 3, 6)}
    assert money.created_at.date() == date(2026, 3, 12)  # recorded a week later


def test_money_of_an_event_recorded_now_is_booked_today(toy, club, scorer, member):
    game = recording.start_game(club, "toy", [scorer, member, "Gästen Gunnar"], scorer.user)
    with time_machine.travel("2026-03-06 00:30 +0100"):
        result = recording.append_event(
            game,
            "stake",
            {"player": "s0", "amount": 200},
            expected_seq=0,
            idempotency_key="k",
            by=None,
        )
    assert result.event.money.date == date(2026, 3, 6)
