"""Hostile posts to every form of a club evening: huge and Unicode numbers, NUL, 10 kB text,
missing fields. Each gets a clear 4xx (or the form again with its refusal) and changes
nothing: no row, no money."""

from __future__ import annotations

import pytest
from django.urls import reverse

import evenings
from evenings import drives
from evenings.models import Attendee, DriveReport, EveningOptions, Table
from ledger.models import Transaction
from tests.factories import make_member

HOSTILE = ["", "\x00", "x" * 10_000, "٣", "9" * 40, "-1", "1e3", "ⅷ", "12\x00"]


@pytest.fixture
def tonight(club, admin_member):
    evening = evenings.open_evening(club, None)
    people = [make_member(club, f"P{n}") for n in range(8)]
    here = [evenings.check_in(evening, None, member=m) for m in people]
    drive = drives.start_drive(evening, here, None)
    return evening, drive


def snapshot(evening):
    return (
        Attendee.objects.filter(evening=evening).count(),
        Table.objects.filter(evening=evening).count(),
        DriveReport.objects.count(),
        Transaction.objects.count(),
        tuple(EveningOptions.objects.values_list("fee_ore", "pot_policy", "prize_percents")),
    )


def url(name, club, *args):
    return reverse(f"evenings:{name}", args=[club.slug, *args])


def posts(evening, club):
    detail, drive = url("detail", club, evening.pk), url("drive", club, evening.pk)
    for value in HOSTILE:
        yield detail, {"action": "check-in", "member": value}
        if value in ("\x00", "x" * 10_000, "12\x00"):  # the rest could be someone's name
            yield detail, {"action": "check-in", "guest_name": value}
        yield detail, {"action": "table", "game": value, "attendees": [value]}
        yield detail, {"action": "table", "game": "kille", "attendees": [value], "order": value}
        yield detail, {"action": "draw", "game": value}
        yield detail, {"action": value}
        yield drive, {"table": value, "ns_tricks": "30", "ew_tricks": "22"}
        yield drive, {"table": "1", "ns_tricks": value, "ew_tricks": "22"}
        yield drive, {"table": "1", "ns_tricks": "26", "ew_tricks": "26", "last_deal": value}
        yield (
            url("summary", club, evening.pk),
            {"payer": value, "payee": "cash", "amount_ore": value},
        )
        yield url("options", club), {"fee": value, "fee_kind": "table", "pot_policy": "carry"}
        yield url("options", club), {"fee": "1", "fee_kind": value, "pot_policy": value}
        yield (
            url("options", club),
            {"prize_percents": value, "fee_kind": "table", "pot_policy": "carry"},
        )
        yield url("list", club), {"title": value, "games": [value]}
    yield drive, {}
    yield url("summary", club, evening.pk), {}


def test_hostile_posts_get_a_clear_answer_and_change_nothing(tonight, club, admin_member):
    from tests.conftest import client_for

    evening, _drive = tonight
    client = client_for(admin_member)
    before = snapshot(evening)
    for target, data in posts(evening, club):
        response = client.post(target, data)
        assert response.status_code in (302, 400, 403, 404, 422), (target, data)
        if response.status_code == 302:  # an unknown "action" etc. would be a 400
            assert "evenings" in response["Location"], (target, data)
        assert snapshot(evening) == before, (target, data)


@pytest.mark.parametrize("value", ["\x00", "9" * 40, "٣", "x" * 10_000])
def test_hostile_addresses_are_404s(client, club, admin_member, value):
    from tests.conftest import client_for

    client = client_for(admin_member)
    base = f"/c/{club.slug}/evenings/"
    assert client.get(base + value + "/").status_code == 404
    assert client.get(base + value + "/board/").status_code == 404
