"""The league table on a 390×844 phone: place, name, points, played and rating fit without
sideways scrolling, the other columns are one tap away, and a legend in plain sight explains the
abbreviations and the provisional mark (a phone has no hover for titles). The public link leaves
out members' money."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

import league
from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member, Season
from league.intake import PlayerResult
from tests.browser.conftest import PHONE, assert_fits_the_phone, log_in
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
STOCKHOLM = ZoneInfo("Europe/Stockholm")
PRIORITY = ["#", "Spelare", "P", "S", "Ranking"]
MORE = ["V", "P/s", "Netto", "Vunna potter", "Form"]


def club_with_a_kille_table():
    club = demo_members()
    year = timezone.localdate().year
    Season.objects.create(club=club, name=str(year), start=date(year, 1, 1), end=date(year, 12, 31))
    people = list(Member.objects.filter(club=club).order_by("name"))
    for n in range(6):
        players = people[n : n + 4]
        results = [
            PlayerResult(
                seat=i,
                member=m,
                guest_name="",
                placement=i + 1,
                score=0,
                net_ore=1500 if i == 0 else -500,
            )
            for i, m in enumerate(players)
        ]
        league.record_result(
            club, f"game:kille{n}", "kille", datetime(year, 3, 1 + n, 20, tzinfo=STOCKHOLM), results
        )
    league.recompute_club(club)
    return club


def heading(page, name: str):
    return page.locator("#table thead th").filter(has_text=name).first


def assert_priority_columns_on_screen(page) -> None:
    assert_fits_the_phone(page)
    wrap = page.locator(".standings")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth"), "the table scrolls sideways"
    for position, name in enumerate(PRIORITY):
        cell = page.locator("#table thead th").nth(position)
        expect(cell).to_contain_text(name)
        box = cell.bounding_box()
        assert box is not None, f"{name} is not shown"
        assert box["x"] >= 0, f"{name}: {box}"
        assert box["x"] + box["width"] <= PHONE["width"], f"{name} is off the screen: {box}"


def test_the_five_columns_fit_the_phone_and_the_rest_are_one_tap_away(
    page, live_server, output_dir
):
    club = club_with_a_kille_table()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(live_server.url + reverse("league:standings", args=[club.slug]) + "?game=kille")

    assert_priority_columns_on_screen(page)
    for name in MORE:
        expect(heading(page, name)).to_be_hidden()
    legend = page.get_by_test_id("league-legend")
    expect(legend).to_be_visible()
    for short, meaning in [
        ("P", "ligapoäng"),
        ("S", "spelade partier"),
        ("?", "preliminär: färre än 5 rankade partier"),
    ]:
        entry = legend.locator("div").filter(has_text=meaning)
        expect(entry.locator("dt")).to_have_text(short)
        expect(entry.locator("dd")).to_be_visible()
    expect(page.locator("#table .provisional").first).to_be_visible()
    page.screenshot(path=output_dir / "league-priority.png", full_page=True)

    toggle = page.get_by_text("Alla kolumner")
    assert toggle.bounding_box()["height"] >= 44
    toggle.click()
    for name in MORE:
        expect(heading(page, name)).to_be_visible()
    expect(page.locator("#table tbody tr").first.locator("td.more-col").first).to_be_visible()
    assert_fits_the_phone(page)  # the table scrolls inside its card, the page does not
    page.screenshot(path=output_dir / "league-all-columns.png")

    toggle.click()
    expect(heading(page, "V")).to_be_hidden()


def test_the_public_link_leaves_out_money_on_the_phone(page, live_server, output_dir):
    club = club_with_a_kille_table()
    club.league_share_token = "p" * 43
    club.save(update_fields=["league_share_token"])
    page.goto(live_server.url + reverse("league:shared", args=[club.league_share_token]))

    assert_priority_columns_on_screen(page)
    expect(page.get_by_test_id("league-legend")).to_be_visible()
    page.get_by_text("Alla kolumner").click()
    expect(heading(page, "V")).to_be_visible()
    expect(page.locator("#table")).not_to_contain_text("Netto")
    expect(page.locator("#table")).not_to_contain_text("kr")
    page.screenshot(path=output_dir / "league-public.png", full_page=True)
