"""A scorer records Polskt pass on a phone: the turn-up, the bidding, the tricks by tapping,
a la vola; the pad shows the pot and the betar with their owners, and refuses bad counts."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club.models import Role
from scoring import recording
from tests.browser.conftest import assert_fits_the_phone, open_pad
from tests.factories import PASSWORD, make_club, make_member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_scorer_records_an_evening_of_polskt_pass(page, live_server, output_dir):
    club = make_club("Polska klubben")
    scorer = make_member(club, "Sune Skrivare", roles=[Role.SCORER])
    others = [make_member(club, name, login=False) for name in ("Anna", "Bo", "Cia Dahlström")]
    game = recording.start_game(
        club,
        "polskt_pass",
        [scorer, *others],
        scorer.user,
        rules={"stake_ore": 1000},
        setup={"pot_ore": 0, "betar": [], "next_bet_id": 1},
    )
    open_pad(page, live_server, game, scorer.user.username, PASSWORD)

    # Deal 1: Sune deals; a nine of hearts is turned up and left.
    expect(page.get_by_test_id("pp-turn-other-H")).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "1-deal.png", full_page=True)
    page.get_by_test_id("pp-turn-other-H").click()
    expect(page.get_by_test_id("pp-pot")).to_have_text("10,00\u00a0kr")

    # First round: Bo (s2) plays in hearts.
    expect(page.get_by_test_id("pp-bid-s1")).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "2-bidding.png", full_page=True)
    page.get_by_test_id("pp-bid-s2").click()

    # Anna takes the first two tricks: the pad offers her la vola; she doesn't, and takes the
    # third: Anna wins 10, Bo sets bet 1.
    page.get_by_test_id("pp-trick-s1").click()
    expect(page.get_by_test_id("pp-tricks-so-far")).to_contain_text("Anna")
    page.get_by_test_id("pp-trick-s1").click()
    expect(page.get_by_test_id("pp-la-vola")).to_contain_text("Anna")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "3-tricks.png", full_page=True)
    page.get_by_test_id("pp-trick-s1").click()
    expect(page.get_by_test_id("pp-bet-1")).to_contain_text("Bo")
    expect(page.get_by_test_id("pp-bet-1")).to_contain_text("10,00\u00a0kr")
    expect(page.get_by_test_id("pp-pot")).to_have_text("0,00\u00a0kr")
    expect(page.get_by_test_id("pp-played-for")).to_have_text("20,00\u00a0kr")

    # Deal 2: Anna deals; the wieder round; Cia picks spades; counts that do not add up are
    # refused with a message, then the right ones are recorded.
    page.get_by_test_id("pp-turn-other-D").click()
    page.get_by_test_id("pp-all-pass").click()
    expect(page.get_by_test_id("pp-bid-s3-S")).to_be_visible()
    expect(page.get_by_test_id("pp-bid-s3-D")).to_have_count(0)  # the turned suit: förhand only
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "4-wieder.png", full_page=True)
    page.get_by_test_id("pp-bid-s3-S").click()
    page.locator(".pp-counts summary").click()
    page.get_by_test_id("pp-count-s0").fill("3")
    page.get_by_test_id("pp-count-s3").fill("1")
    page.get_by_test_id("pp-counts-record").click()
    expect(page.get_by_role("alert")).to_contain_text("5")
    page.screenshot(path=output_dir / "5-refused.png", full_page=True)
    # The refusal keeps the counts where they were typed, the fold open: one correction.
    expect(page.get_by_test_id("pp-count-s0")).to_have_value("3")
    page.get_by_test_id("pp-count-s3").fill("2")
    page.get_by_test_id("pp-counts-record").click()
    # Sune won 20 (pot 10 + bet 1); Cia set bet 2 of 20.
    expect(page.get_by_test_id("pp-bet-2")).to_contain_text("Cia")
    expect(page.get_by_test_id("pp-bet-1")).to_have_count(0)

    # The evening ends; standings by money.
    page.locator(".pp-end summary").click()
    page.get_by_test_id("pp-end").click()
    expect(page.get_by_test_id("pp-standings")).to_contain_text("Sune Skrivare")
    expect(page.get_by_test_id("pp-bet-2")).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "6-finished.png", full_page=True)
    game.refresh_from_db()
    assert game.status == "finished"
    assert re.search(r"Sune Skrivare", page.get_by_test_id("pp-standings").inner_text())


def test_anyone_asks_the_calculator_who_pays_what(page, live_server, output_dir):
    page.goto(live_server.url + reverse("scoring:calc-polskt_pass-deal"))
    page.locator("#pot").fill("30")
    bets = page.locator("input[name=bet]")
    bets.nth(0).fill("20")
    bets.nth(1).fill("50")
    page.locator("#outcome").select_option("two_none")
    page.get_by_role("button", name=re.compile("Calculate|Räkna")).click()
    # Pot 30 + bet 1 (20, the least) = 50 to the winner; each spelförare sets 50.
    expect(page.get_by_test_id("calc-amount")).to_have_text("50,00\u00a0kr")
    expect(page.get_by_test_id("calc-pot-after")).to_have_text("0,00\u00a0kr")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "calculator.png", full_page=True)
