"""Kasino, Tvåmanswhist and Fan tan played on a phone by tapping: a scorer records a short game of
each, checks what the pad shows, and screenshots are saved to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from club.models import Role
from scoring import recording
from tests.browser.conftest import assert_fits_the_phone, open_pad, shown
from tests.factories import PASSWORD, make_club, make_member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table():
    club = make_club("Kortklubben Ruter Dam")
    scorer = make_member(club, "Astrid Lindqvist", roles=[Role.SCORER])
    others = [make_member(club, name, login=False) for name in ("Bo Ek", "Cilla Ros", "Dan Ås")]
    return club, scorer, others


def small_tap_targets(page) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll(
                '#pad a, #pad button, #pad label.pick, #pad summary')]
              .filter(e => e.offsetParent !== null)
              .map(e => [e.textContent.trim(), e.getBoundingClientRect()])
              .filter(([, r]) => r.height < 40 || r.width < 30)
              .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )


def test_a_kasino_deal_and_a_stop_at_sixteen(page, live_server, output_dir, table):
    club, scorer, (bo, *_rest) = table
    game = recording.start_game(club, "kasino", [scorer, bo], scorer.user)
    open_pad(page, live_server, game, scorer.user.username, PASSWORD)
    expect(page.get_by_test_id("kasino-deal")).to_be_visible()
    # Astrid: most cards, storan, aces ♠ ♥ ♦, sistan and 2 tabbar = 1 + 2 + 3 + 1 + 2 = 9;
    # Bo: most spades, lillan, ace ♣ = 2 + 1 + 1 = 4.
    for testid in (
        "cards-s0",
        "spades-s1",
        "big-s0",
        "little-s1",
        "aceS-s0",
        "aceH-s0",
        "aceD-s0",
        "aceC-s1",
        "last-s0",
        "tabbar-s0-2",
    ):
        page.get_by_test_id(testid).click()
    assert (shown(page, ".k-sum0"), shown(page, ".k-sum1")) == ("9", "4")
    assert_fits_the_phone(page)
    assert small_tap_targets(page) == []
    page.screenshot(path=output_dir / "kasino-deal-filled.png", full_page=True)

    page.get_by_test_id("kasino-save").click()
    expect(page.get_by_test_id("score-s0")).to_contain_text("9")
    expect(page.get_by_test_id("score-s1")).to_contain_text("4")
    expect(page.get_by_test_id("kasino-sheet")).to_contain_text("+9")

    # KA2: Astrid stops play at 9 + storan 2 + 4 aces + 1 tabbe = 16.
    page.get_by_test_id("kasino-claim").locator("summary").click()
    page.get_by_test_id("claim-s0").click()
    page.get_by_test_id("claim-big").check()
    page.get_by_test_id("claim-aces-4").click()
    page.get_by_test_id("claim-tabbar-1").click()
    page.screenshot(path=output_dir / "kasino-claim.png", full_page=True)
    page.get_by_test_id("claim-save").click()
    expect(page.get_by_test_id("winner")).to_contain_text("Astrid Lindqvist")
    expect(page.get_by_test_id("score-s0")).to_contain_text("16")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "kasino-finished.png", full_page=True)


def test_a_kasino_deal_missing_an_item_is_not_sent(page, live_server, table):
    club, scorer, (bo, *_rest) = table
    game = recording.start_game(club, "kasino", [scorer, bo], scorer.user)
    open_pad(page, live_server, game, scorer.user.username, PASSWORD)
    page.get_by_test_id("cards-tie").click()
    page.get_by_test_id("kasino-save").click()  # the browser asks for the missing choices
    assert page.evaluate("document.querySelector('#pad form.k-deal').checkValidity()") is False
    expect(page.get_by_test_id("kasino-deal")).to_be_visible()
    game.refresh_from_db()
    assert game.seq == 0


def test_a_match_of_tvamanswhist_by_tapping_the_results(page, live_server, output_dir, table):
    club, scorer, (bo, *_rest) = table
    game = recording.start_game(club, "tvamanswhist", [scorer, bo], scorer.user)
    open_pad(page, live_server, game, scorer.user.username, PASSWORD)
    assert_fits_the_phone(page)
    assert small_tap_targets(page) == []
    page.screenshot(path=output_dir / "tvamanswhist-start.png", full_page=True)
    for deals, (a, b) in enumerate(((8, 5), (4, 9), (7, 6)), start=1):
        page.get_by_test_id(f"split-{a}-{b}").click()
        expect(page.get_by_test_id("tw-row")).to_have_count(deals)
    expect(page.get_by_test_id("score-s0")).to_contain_text("2")
    expect(page.get_by_test_id("score-s1")).to_contain_text("1")
    page.screenshot(path=output_dir / "tvamanswhist-2-1.png", full_page=True)
    page.get_by_test_id("split-10-3").click()
    expect(page.get_by_test_id("winner")).to_contain_text("Astrid Lindqvist")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "tvamanswhist-finished.png", full_page=True)


def test_a_weighted_tvamanswhist_deal_shows_the_points_before_saving(
    page, live_server, output_dir, table
):
    club, scorer, (bo, *_rest) = table
    game = recording.start_game(
        club, "tvamanswhist", [scorer, bo], scorer.user, rules={"counting": "points"}
    )
    open_pad(page, live_server, game, scorer.user.username, PASSWORD)
    page.get_by_test_id("early-10").click()
    page.get_by_test_id("late-4").click()
    # 10 + 2 × 4 = 18 against 3 + 2 × 9 = 21.
    assert (shown(page, ".tw-sum-a"), shown(page, ".tw-sum-b")) == ("18", "21")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "tvamanswhist-points.png", full_page=True)
    page.get_by_test_id("tw-save").click()
    expect(page.get_by_test_id("score-s1")).to_contain_text("21 ")


def test_a_deal_of_fan_tan_for_chips(page, live_server, output_dir, table):
    club, scorer, others = table
    players = [scorer, *others]
    game = recording.start_game(club, "fantan", players, scorer.user, rules={"chip_ore": 100})
    open_pad(page, live_server, game, scorer.user.username, PASSWORD)
    # The pot holds the four antes and each pass (issue 15: it showed the passes only).
    expect(page.get_by_test_id("ft-pot")).to_contain_text("Pott 4 ")
    page.get_by_test_id("pass-s1").click()
    expect(page.get_by_test_id("ft-pot")).to_contain_text("Pott 5 ")
    page.get_by_test_id("pass-s3").click()
    expect(page.get_by_test_id("ft-pot")).to_contain_text("Pott 6 ")
    assert_fits_the_phone(page)
    assert small_tap_targets(page) == []
    page.screenshot(path=output_dir / "fantan-passes.png", full_page=True)

    page.get_by_test_id("out-s2").click()
    expect(page.get_by_test_id("ft-count-save")).to_be_visible()
    expect(page.get_by_test_id("ft-step")).to_contain_text("Cilla")
    # Issue 25: every player had Cilla's 13 turns or one fewer (s0 used to hold 3, s1 6).
    for key, cards in (("s0", 1), ("s1", 2), ("s3", 1)):
        page.get_by_test_id(f"left-{key}-{cards}").click()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "fantan-cards-left.png", full_page=True)
    page.get_by_test_id("ft-count-save").click()
    expect(page.get_by_test_id("out-s2")).to_have_count(0)
    expect(page.get_by_test_id("pass-s0")).to_have_count(0)  # the pot is won

    page.get_by_test_id("out-s3").click()
    expect(page.get_by_test_id("out-s3")).to_have_count(0)
    page.get_by_test_id("out-s0").click()
    expect(page.get_by_test_id("winner")).to_contain_text("Cilla Ros")
    expect(page.get_by_test_id("score-s2")).to_contain_text("3")
    # 4 antes + 2 passes + 4 cards left = 10 chips, one of them Cilla's own ante.
    expect(page.get_by_test_id("ft-sheet")).to_contain_text("+9")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "fantan-finished.png", full_page=True)
