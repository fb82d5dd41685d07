"""The club's own ceiling on single amounts (Club.max_amount_ore) holds on every page that takes
an amount the club itself chooses: the evenings' own options page, the dues plan, and the
settle-up rows, which are cut at the club's ceiling, not the instance's."""

from __future__ import annotations

import pytest
from django.urls import reverse

import evenings
import ledger
from evenings.models import EveningOptions
from ledger import dues
from ledger.models import DuesPlan
from tests.factories import make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def capped(club):
    club.max_amount_ore = 10_000  # 100 kr
    club.save()
    return club


def test_the_evenings_own_page_refuses_a_fee_above_the_clubs_ceiling(capped, admin_client_):
    url = reverse("evenings:options", args=[capped.slug])
    data = {"fee": "150", "fee_kind": "table", "pot_policy": "carry", "prize_percents": ""}
    response = admin_client_.post(url, data)
    assert response.status_code == 422
    assert "100,00" in response.content.decode()
    assert not EveningOptions.objects.filter(club=capped, fee_ore=15_000).exists()
    assert admin_client_.post(url, {**data, "fee": "80"}).status_code == 302
    assert EveningOptions.objects.get(club=capped).fee_ore == 8_000


def test_save_options_itself_refuses_a_fee_above_the_ceiling(capped):
    with pytest.raises(ledger.LedgerError):
        evenings.save_options(capped, None, fee_ore=10_001)


def test_a_dues_fee_above_the_clubs_ceiling_is_refused_when_set(capped):
    with pytest.raises(ledger.LedgerError):
        dues.save_plan(capped, 10_001, DuesPlan.Interval.YEARLY, True)
    assert not DuesPlan.objects.filter(club=capped).exists()
    dues.save_plan(capped, 10_000, DuesPlan.Interval.YEARLY, True)


def test_the_settle_up_rows_are_cut_at_the_clubs_ceiling(capped, treasurer_client):
    anna, bo = make_member(capped, "Anna Ask"), make_member(capped, "Bo Bok")
    ledger.post(
        capped,
        [(ledger.member_account(anna), -9_000), (ledger.member_account(bo), 9_000)],
        "test",
        "manual",
        None,
    )
    ledger.post(
        capped,
        [(ledger.member_account(anna), -9_000), (ledger.member_account(bo), 9_000)],
        "test 2",
        "manual",
        None,
    )
    page = treasurer_client.get(reverse("ledger:settle", args=[capped.slug]))
    rows = page.context["rows"]
    # 180 kr from Anna to Bo: two payments of at most 100 kr each.
    assert sorted(row["payment"].amount_ore for row in rows) == [8_000, 10_000]
