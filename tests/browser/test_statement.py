"""A member reads their statement on a phone: a line per game, tapped open to its deals."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from tests.browser.conftest import assert_fits_the_phone, log_in
from tests.scoring.test_demo import load

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_member_opens_a_game_on_their_statement(page, live_server, output_dir):
    club = load()
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
