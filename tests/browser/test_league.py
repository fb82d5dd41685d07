"""A member opens the league on a phone and switches game and season."""

from __future__ import annotations

import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

import league
from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member, Season
from league.intake import PlayerResult
from tests.browser.conftest import assert_fits_the_phone, log_in
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
STOCKHOLM = ZoneInfo("Europe/Stockholm")


def test_a_member_switches_game_and_season_on_the_league_page(page, live_server, output_dir):
    club = demo_members()
    year = timezone.localdate().year
    Season.objects.create(
        club=club, name=f"Vår {year}", start=date(year, 1, 1), end=date(year, 6, 30)
    )
    Season.objects.create(
        club=club, name=f"Höst {year}", start=date(year, 7, 1), end=date(year, 12, 31)
    )
    people = list(Member.objects.filter(club=club).order_by("name"))
    for n in range(6):
        for key, month in (("kille", 3), ("cribbage", 9)):
            players = people[n : n + (4 if key == "kille" else 2)]
            results = [
                PlayerResult(seat=i, member=m, guest_name="", placement=i + 1, score=0)
                for i, m in enumerate(players)
            ]
            league.record_result(
                club,
                f"game:{key}{n}",
                key,
                datetime(year, month, 1 + n, 20, tzinfo=STOCKHOLM),
                results,
            )
    league.recompute_club(club)

    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.get_by_role("navigation", name="Delar").get_by_role("link", name="Liga").click()
    page.get_by_label("Säsong").select_option(label=f"Vår {year}")
    table = page.locator("#table table")
    expect(table).to_contain_text(people[0].name)
    expect(page.get_by_role("link", name="Kille")).to_have_attribute("aria-current", "page")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "league-spring-kille.png", full_page=True)

    page.get_by_label("Säsong").select_option(label=f"Höst {year}")
    expect(page.get_by_role("link", name="Cribbage")).to_have_attribute("aria-current", "page")
    expect(page).to_have_url(re.compile(r"season="))
    expect(table.locator("tbody tr")).to_have_count(7)
    page.screenshot(path=output_dir / "league-autumn-cribbage.png", full_page=True)
