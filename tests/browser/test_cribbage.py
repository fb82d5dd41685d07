"""Two members play a deal of cribbage on one phone, every entry by tapping."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from scoring.models import Game
from tests.browser.conftest import assert_fits_the_phone, log_in
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_whole_deal_is_recorded_by_tapping(page, live_server, output_dir):
    club = demo_members()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(f"{live_server.url}/c/{club.slug}/play/cribbage/")
    page.get_by_text("Doris Ek").click()  # deals first
    page.get_by_text("Ivar Lund").click()
    page.get_by_role("button", name="Starta spelet").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    board = page.locator("svg.board")
    expect(board).to_have_attribute("aria-label", "Doris Ek 0 · Ivar Lund 0")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "1-starter.png", full_page=True)

    page.get_by_test_id("card-5D").click()
    expect(page.get_by_text("5♦").first).to_be_visible()
    # Pegging: Ivar pegs a fifteen two, Doris a go.
    page.get_by_test_id("peg-s1-2").click()
    expect(board).to_have_attribute("aria-label", "Doris Ek 0 · Ivar Lund 2")
    page.get_by_test_id("peg-s0-1").click()
    expect(board).to_have_attribute("aria-label", "Doris Ek 1 · Ivar Lund 2")
    page.screenshot(path=output_dir / "2-pegging.png", full_page=True)

    # The non-dealer counts first: Ivar says eight.
    page.get_by_test_id("show-8").click()
    expect(board).to_have_attribute("aria-label", "Doris Ek 1 · Ivar Lund 10")
    # The dealer taps her four cards and the app counts: 5♥ 5♠ J♦ K♣ with the 5♦ starter is
    # three fives (6), seven fifteens (14) and his nobs (1): 21.
    page.locator("details.count-cards summary").click()
    for card in ("5H", "5S", "JD", "KC"):
        page.locator(f'label.pick:has(input[value="{card}"])').click()
    page.get_by_test_id("show-count").click()
    expect(board).to_have_attribute("aria-label", "Doris Ek 22 · Ivar Lund 10")
    history = page.locator(".history-list")
    expect(history).to_contain_text("Doris Ek handen 21")
    page.screenshot(path=output_dir / "3-crib.png", full_page=True)

    page.get_by_test_id("crib-4").click()
    expect(board).to_have_attribute("aria-label", "Doris Ek 26 · Ivar Lund 10")
    # A new deal: Ivar deals, and the pad asks for the next starter.
    expect(page.get_by_test_id("card-JH")).to_be_visible()
    expect(page.get_by_test_id("dealer-line")).to_contain_text("Ivar Lund")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "4-next-deal.png", full_page=True)

    game = Game.objects.get(club=club, game_key="cribbage")
    assert game.snapshot["scores"] == {"s0": 26, "s1": 10}
    assert game.seq == 6


def test_the_play_is_recorded_by_tapping_each_cards_rank_and_go(page, live_server, output_dir):
    club = demo_members()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(f"{live_server.url}/c/{club.slug}/play/cribbage/")
    page.get_by_text("Doris Ek").click()  # deals first: Ivar leads
    page.get_by_text("Ivar Lund").click()
    page.get_by_role("button", name="Starta spelet").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    board = page.locator("svg.board")
    page.get_by_test_id("card-5D").click()
    expect(page.get_by_test_id("play-cards")).to_contain_text("Ivar Lund spelar")
    expect(page.get_by_test_id("play-go")).to_have_attribute("aria-disabled", "true")
    # Every target is big enough for a thumb, and the row fits the phone.
    for name in ("A", "10", "K", "go"):
        box = page.get_by_test_id(f"play-{name}").bounding_box()
        assert box["width"] >= 44, name
        assert box["height"] >= 44, name
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "5-play-by-cards.png", full_page=True)

    count = page.get_by_test_id("play-count")
    for rank, total in (("5", 5), ("10", 15), ("7", 22), ("7", 29)):
        page.get_by_test_id(f"play-{rank}").click()
        expect(count).to_have_text(str(total))
    expect(board).to_have_attribute("aria-label", "Doris Ek 4 · Ivar Lund 0")  # 15 and a pair
    expect(page.get_by_test_id("play-3")).to_have_attribute("aria-disabled", "true")  # 32 > 31
    page.get_by_test_id("play-go").click()  # Ivar has nothing that fits
    expect(page.get_by_test_id("play-cards")).to_contain_text("Doris Ek spelar")
    page.get_by_test_id("play-2").click()  # Doris: 31 for 2
    expect(count).to_have_text("0")
    expect(board).to_have_attribute("aria-label", "Doris Ek 6 · Ivar Lund 0")
    for rank, total in (("3", 3), ("4", 7)):
        page.get_by_test_id(f"play-{rank}").click()
        expect(count).to_have_text(str(total))
    page.get_by_test_id("play-5").click()  # the run 3-4-5 and the last card: Ivar 4
    expect(board).to_have_attribute("aria-label", "Doris Ek 6 · Ivar Lund 4")
    expect(page.get_by_test_id("play-cards")).to_have_count(0)
    expect(page.get_by_test_id("show-8")).to_be_visible()  # now Ivar counts his hand
    page.screenshot(path=output_dir / "6-play-over.png", full_page=True)


def test_no_pegging_chips_while_the_hands_are_counted(page, live_server, output_dir):
    # Issue 25: on a board the shows are pegged with the same pegs; while the hands are counted
    # the pad offers the hand's points, and no pegging chips.
    club = demo_members()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(f"{live_server.url}/c/{club.slug}/play/cribbage/")
    page.get_by_text("Doris Ek").click()  # deals first
    page.get_by_text("Ivar Lund").click()
    page.get_by_role("button", name="Starta spelet").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    board = page.locator("svg.board")
    page.get_by_test_id("card-5D").click()
    page.get_by_test_id("peg-s1-2").click()
    # Each tap waits for the pad it changed: a tap on the old pad would be a stale one.
    expect(board).to_have_attribute("aria-label", "Doris Ek 0 · Ivar Lund 2")
    page.get_by_test_id("show-8").click()  # Ivar counts his hand
    expect(board).to_have_attribute("aria-label", "Doris Ek 0 · Ivar Lund 10")
    expect(page.get_by_test_id("show-4")).to_be_visible()  # Doris counts her hand next
    expect(page.get_by_test_id("late-peg")).to_have_count(0)
    expect(page.locator('[data-testid^="peg-"]')).to_have_count(0)
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "show-without-pegging-chips.png", full_page=True)
    page.get_by_test_id("show-4").click()
    expect(page.get_by_test_id("crib-2")).to_be_visible()
    expect(page.locator('[data-testid^="peg-"]')).to_have_count(0)
