"""A member reads their statement on a phone: a line per game, tapped open to its deals."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from ledger import statement_pages
from tests.browser.conftest import assert_fits_the_phone, log_in
from tests.demo import demo_club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_member_opens_a_game_on_their_statement(page, live_server, output_dir):
    club = demo_club()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(f"{live_server.url}/c/{club.slug}/ledger/me/")
    games = page.locator(".stmt-game")
    expect(games.first).to_be_visible()
    first = games.first
    deals = first.locator(".stmt-deals li")
    expect(deals.first).to_be_hidden()
    # The demo's money carries its evenings' dates: a deposit the day before, three evenings.
    assert len(set(page.locator(".stmt-date").all_inner_texts())) == 4
    first.locator("summary").click()
    expect(deals.first).to_be_visible()
    expect(first.get_by_role("link", name="Öppna spelet")).to_be_visible()
    expect(page.locator(".stmt-edge").last).to_contain_text("Utgående saldo")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "statement-open.png", full_page=True)


def test_a_long_statement_pages_back_on_a_phone_in_swedish_and_english(
    page, live_server, output_dir, monkeypatch
):
    # Two lines a page, read one entry a line at first: the demo member's statement is pages.
    monkeypatch.setattr(statement_pages, "LINES_PER_PAGE", 2)
    monkeypatch.setattr(statement_pages, "ENTRIES_PER_LINE", 1)
    club = demo_club()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(f"{live_server.url}/c/{club.slug}/ledger/me/")
    pager = page.get_by_test_id("stmt-pager")
    expect(pager).to_contain_text("Sida 1")
    expect(page.locator(".stmt-edge").last).to_contain_text("Utgående saldo")
    page.get_by_test_id("stmt-older").click()
    expect(pager).to_contain_text("Sida 2")
    expect(page.get_by_test_id("stmt-newer")).to_be_visible()
    expect(page.get_by_test_id("stmt-carried")).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "statement-page-2-sv.png", full_page=True)
    page.get_by_role("button", name="English").click()
    expect(pager).to_contain_text("Page 2")
    expect(page.get_by_test_id("stmt-older")).to_contain_text("Older")
    expect(page.get_by_test_id("stmt-newer")).to_contain_text("Newer")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "statement-page-2-en.png", full_page=True)
