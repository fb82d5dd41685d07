"""Correcting a whist drive's report: append-only rows, the next round seated again while no
table has reported it (and the page says who moves), earlier rounds re-summed, the prizes paid
again after the last round. The hand-worked drive of tests/engine/test_whist_drive.py."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

import evenings
import ledger
from evenings import drive_page, drives
from evenings.models import DriveReport, EveningOptions, EveningStatus
from ledger.models import Transaction
from tests.engine.test_whist_drive import RESULTS, RULES
from tests.evenings.test_drive import InOrder
from tests.factories import make_member


@pytest.fixture
def drive_evening(club):
    EveningOptions.objects.create(club=club, fee_ore=5000, fee_kind="entry")
    evening = evenings.open_evening(club, None)
    people = {name: make_member(club, name) for name in "ABCDEFGHIJKL"}
    here = [evenings.check_in(evening, None, member=people[name]) for name in "ABCDEFGHIJKL"]
    drive = drives.start_drive(evening, here, None, rules=RULES, rng=InOrder())
    return evening, drive, people


def report_rounds(drive, rounds):
    for round_no in rounds:
        for table, (ns, ew, last) in enumerate(RESULTS[round_no], start=1):
            drives.report(drive, round_no, table, ns, ew, last, None)


def test_a_correction_is_a_new_row_beside_the_report_it_corrects(drive_evening):
    _evening, drive, _people = drive_evening
    report_rounds(drive, [1])
    first = DriveReport.objects.get(round_no=1, table=2)
    fixed = drives.correct(drive, 1, 2, 32, 20, None, None)
    assert fixed.supersedes == first
    assert drives.correct(drive, 1, 2, 32, 20, None, None) == fixed  # a double tap
    again = drives.correct(drive, 1, 2, 20, 32, None, None)
    assert again.supersedes == fixed
    first.refresh_from_db()
    assert (first.ns_tricks, first.ew_tricks) == (20, 32)  # never edited
    assert DriveReport.objects.filter(drive=drive).count() == 5


def test_correcting_the_latest_round_says_who_moves_on_the_page(drive_evening, club, scorer_client):
    evening, drive, _people = drive_evening
    report_rounds(drive, [1])
    url = reverse("evenings:drive", args=[club.slug, evening.pk])
    answer = scorer_client.post(
        url,
        {
            "correct-round_no": 1,
            "correct-table": 2,
            "correct-ns_tricks": 32,
            "correct-ew_tricks": 20,
        },
    )
    assert answer.status_code == 302
    page = scorer_client.get(url)
    moves = {
        m.name: (m.was_table, m.was_seat_code, m.table, m.seat_code) for m in page.context["moves"]
    }
    assert moves == {
        "E": (2, "N", 1, "S"),
        "F": (1, "S", 2, "E"),
        "G": (2, "E", 1, "W"),
        "H": (1, "W", 2, "N"),
    }
    text = page.content.decode()
    assert 'data-testid="drive-moves"' in text
    places = {p.name: (p.table, p.seat_code) for p in page.context["places"]}
    assert places["E"] == (1, "S")
    assert [(r.round_no, r.table, r.corrected) for r in page.context["reported"]][1] == (1, 2, True)


def test_a_correction_the_table_could_not_make_is_refused_in_the_form(
    drive_evening, club, scorer_client
):
    evening, drive, _people = drive_evening
    report_rounds(drive, [1])
    url = reverse("evenings:drive", args=[club.slug, evening.pk])
    answer = scorer_client.post(
        url,
        {
            "correct-round_no": 1,
            "correct-table": 2,
            "correct-ns_tricks": 30,
            "correct-ew_tricks": 20,
        },
    )
    assert answer.status_code == 422
    assert "30 + 20" in answer.content.decode()
    assert not DriveReport.objects.filter(supersedes__isnull=False).exists()


def test_a_member_cannot_correct(drive_evening, club, member_client):
    evening, drive, _people = drive_evening
    report_rounds(drive, [1])
    url = reverse("evenings:drive", args=[club.slug, evening.pk])
    answer = member_client.post(
        url,
        {
            "correct-round_no": 1,
            "correct-table": 2,
            "correct-ns_tricks": 32,
            "correct-ew_tricks": 20,
        },
    )
    assert answer.status_code in (403, 404)
    assert not DriveReport.objects.filter(supersedes__isnull=False).exists()


def test_a_correction_after_the_last_round_pays_the_prizes_again(drive_evening, club):
    evening, drive, people = drive_evening
    report_rounds(drive, [1, 2, 3, 4])
    drive.refresh_from_db()
    first = drive.prizes
    # Round 1, table 2 was 32–20: E and G gain 12 tricks, F and H lose 12 (worked out in the
    # engine's tests): E 117, C 116, K 112 take 50/30/20 % of the 600 kr pool.
    drives.correct(drive, 1, 2, 32, 20, None, None)
    drive.refresh_from_db()
    assert drive.prizes_id != first.pk
    taken_back = Transaction.objects.get(reverses=first)
    with translation.override("en"):
        ledger.describe([taken_back])
    assert taken_back.memo.endswith(": prizes taken back, a round corrected")
    assert evenings.prize_pool(evening).balance_ore == 0
    for name, net in {"E": 25000, "C": 13000, "K": 7000, "H": -5000, "F": -5000}.items():
        assert ledger.member_account(people[name]).balance_ore == net
    ranking = [(r.name, r.prize_ore) for r in drive_page.page(drive)["ranking"] if r.prize_ore]
    assert ranking == [("E", 30000), ("C", 18000), ("K", 12000)]
    # A correction that does not change the places moves no money.
    count = Transaction.objects.count()
    drives.correct(drive, 4, 3, 32, 20, None, None)  # C 115, still second
    assert Transaction.objects.count() == count


def test_a_correction_on_a_closed_evening_is_refused(drive_evening):
    evening, drive, _people = drive_evening
    report_rounds(drive, [1])
    evening.status = EveningStatus.CLOSED
    evening.save()
    with pytest.raises(evenings.EveningError):
        drives.correct(drive, 1, 2, 32, 20, None, None)
