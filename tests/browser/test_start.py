"""A club member logs in on a phone, sees the start page and switches to English."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from tests.browser.conftest import assert_fits_the_phone, log_in
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_demo_member_logs_in_and_switches_to_english(page, live_server, output_dir):
    club = demo_members()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)

    expect(page).to_have_url(re.compile(rf"/c/{club.slug}/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Hej, Astrid Lindqvist")
    nav = page.get_by_role("navigation")
    for section in ["Spela", "Historik", "Kassa", "Liga", "Räknare"]:
        expect(nav.get_by_role("link", name=section)).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "start-sv.png", full_page=True)

    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hello, Astrid Lindqvist")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    for section in ["Play", "History", "Ledger", "League", "Calculators"]:
        expect(nav.get_by_role("link", name=section)).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "start-en.png", full_page=True)


def test_tap_targets_are_at_least_44px(page, live_server):
    demo_members()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    expect(page.get_by_role("heading", level=1)).to_have_text("Hej, Astrid Lindqvist")
    page.wait_for_load_state("load")
    small = page.evaluate(
        """() => [...document.querySelectorAll('a, button, input, select')]
              .filter(e => e.offsetParent !== null)
              .map(e => [e.textContent.trim() || e.name, e.getBoundingClientRect()])
              .filter(([, r]) => r.height < 40 || r.width < 40)
              .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == []


def test_a_wrong_password_says_so_and_stays_on_the_login_page(page, live_server):
    demo_members()
    log_in(page, live_server, DEMO_USERNAME, "wrong", expect_failure=True)
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/login/"))
