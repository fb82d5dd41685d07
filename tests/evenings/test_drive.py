"""A whist drive at a club evening: the hand-worked drive of tests/engine/test_whist_drive.py
(twelve players A … L, three tables, four rounds) played through the evening, its pages and its
prizes in the books."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

import evenings
import ledger
from engine import whist_drive as wd
from evenings import drive_page, drive_results, drives
from evenings.models import DriveReport, EveningOptions
from tests.engine.test_whist_drive import RESULTS, RULES
from tests.factories import make_member


class InOrder(random.Random):
    """A draw that keeps the order given (so the hand-worked seating applies)."""

    def shuffle(self, x):  # noqa: ARG002 - the order stays
        return None


@pytest.fixture
def drive_evening(club):
    EveningOptions.objects.create(club=club, fee_ore=5000, fee_kind="entry")
    evening = evenings.open_evening(club, None)
    people = {name: make_member(club, name) for name in "ABCDEFGHIJKL"}
    here = [evenings.check_in(evening, None, member=people[name]) for name in "ABCDEFGHIJKL"]
    drive = drives.start_drive(evening, here, None, rules=RULES, rng=InOrder())
    return evening, drive, people


def test_the_hand_worked_drive_through_the_evening(drive_evening, club):
    evening, drive, people = drive_evening
    assert evenings.prize_pool(evening).balance_ore == 60000
    for round_no, tables in RESULTS.items():
        page = drive_page.page(drive)
        assert page["round_no"] == round_no
        for table, (ns, ew, last) in enumerate(tables, start=1):
            drives.report(drive, round_no, table, ns, ew, last, None)
            drives.report(drive, round_no, table, ns, ew, last, None)  # a double tap
    assert DriveReport.objects.filter(drive=drive).count() == 12

    page = drive_page.page(drive)
    assert page["finished"]
    ranking = [(r.placement, r.name, r.tricks, r.prize_ore) for r in page["ranking"]]
    assert ranking[:3] == [(1, "C", 116, 24000), (1, "H", 116, 24000), (3, "F", 115, 12000)]
    # The prizes are in the books, once: the pool is empty and the winners are paid (less
    # the 50 kr entry fee they paid on arrival).
    assert evenings.prize_pool(evening).balance_ore == 0
    for name, net in {"C": 19000, "H": 19000, "F": 7000, "A": -5000}.items():
        assert ledger.member_account(people[name]).balance_ore == net
    drive.refresh_from_db()
    assert drive_results.pay_prizes(drive, drives.state(drive), None).pk == drive.prizes_id


def test_round_two_tells_everyone_where_to_sit(drive_evening):
    evening, drive, _people = drive_evening
    for table, (ns, ew, last) in enumerate(RESULTS[1], start=1):
        drives.report(drive, 1, table, ns, ew, last, None)
    places = {p.name: (p.table, p.seat_code, p.partner) for p in drive_page.page(drive)["places"]}
    # Round 2 of the hand-worked drive: T1 ACFH, T2 EGJL, T3 IKBD (N, E, S, W).
    assert places["A"] == (1, "N", "F")
    assert places["C"] == (1, "E", "H")
    assert places["J"] == (2, "S", "E")
    assert places["B"] == (3, "S", "I")


def test_a_report_the_table_could_not_make_is_refused_where_it_was_entered(
    drive_evening, club, scorer_client
):
    evening, drive, _people = drive_evening
    url = reverse("evenings:drive", args=[club.slug, evening.pk])
    page = scorer_client.post(url, {"table": 1, "ns_tricks": 30, "ew_tricks": 20})
    assert page.status_code == 422
    text = page.content.decode()
    assert "30 + 20" in text
    assert 'value="30"' in text  # what was typed is still there
    assert not DriveReport.objects.exists()
    ok = scorer_client.post(url, {"table": 1, "ns_tricks": 30, "ew_tricks": 22})
    assert ok.status_code == 302
    assert DriveReport.objects.get().ns_tricks == 30
    # The seats page, and this table is no longer a choice.
    page = scorer_client.get(url)
    assert page.status_code == 200
    assert [t for t, _label in page.context["report_form"].fields["table"].choices] == [2, 3]


def test_a_drive_needs_a_multiple_of_four(club):
    evening = evenings.open_evening(club, None)
    here = [evenings.check_in(evening, None, guest_name=f"G{n}") for n in range(6)]
    with pytest.raises(evenings.EveningError) as refusal:
        drives.start_drive(evening, here, None)
    assert "fyra" in refusal.value.messages[0] or "four" in refusal.value.messages[0]
    assert wd.Rules().rounds == 6


def test_the_drives_places_rank_in_the_league(
    drive_evening, club, member_client, django_capture_on_commit_callbacks
):
    from league.models import GameResult, Standing

    evening, drive, people = drive_evening
    with django_capture_on_commit_callbacks(execute=True):
        for round_no, tables in RESULTS.items():
            for table, (ns, ew, last) in enumerate(tables, start=1):
                drives.report(drive, round_no, table, ns, ew, last, None)
    results = GameResult.objects.filter(game_ref=f"drive:{drive.pk}")
    assert sorted((r.placement, r.member.name) for r in results)[:3] == [
        (1, "C"),
        (1, "H"),
        (3, "F"),
    ]
    assert Standing.objects.filter(game_key="whist_drive").count() == 12
    page = member_client.get(reverse("league:standings", args=[club.slug]) + "?game=whist_drive")
    assert "Whistdrive" in page.content.decode()
    assert "whist_drive<" not in page.content.decode()
