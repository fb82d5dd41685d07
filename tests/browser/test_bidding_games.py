"""Fyrtioett, Nittionio and Femhundra on a phone: start a game, record a deal by tapping the
number pickers, watch the running sums, and see the score sheet and the winner."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from league.models import GameResult
from scoring import recording
from scoring.models import Game
from tests.browser.conftest import (
    assert_fits_the_phone,
    log_in,
    open_pad,
    seated,
    shown,
    start_by_tapping,
    tap,
)
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def assert_thumb_sized(page) -> None:
    """Every visible control on the pad is at least 44 × 40 px (a chip's 40 px height)."""
    small = page.evaluate(
        """() => [...document.querySelectorAll('#pad a, #pad button, #pad input, #pad label.pick')]
              .filter(e => e.offsetParent !== null && e.type !== 'hidden')
              .map(e => [e.dataset.testid || e.textContent.trim() || e.name,
                         e.getBoundingClientRect()])
              .filter(([, r]) => r.height < 40 || r.width < 44)
              .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == []


def test_a_fyrtioett_game_is_started_and_played_to_41_by_tapping(page, live_server, output_dir):
    club = demo_members()
    players = seated(club, 4)
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    start_by_tapping(page, live_server, club, "fyrtioett", players)
    expect(page.get_by_test_id("f41-deal")).to_be_visible()
    game = Game.objects.get(game_key="fyrtioett")

    # s0 deals; bidding from s3 (förhand). Bids 4, 8, 5, 7 are worth 4 + 16 + 5 + 14 = 39.
    for seat, bid in ((3, 7), (2, 5), (1, 8), (0, 4)):
        tap(page, f"bid-s{seat}-{bid}")
    expect(page.locator(".sum-worth")).to_be_visible()
    assert shown(page, ".sum-worth") == "39"
    for seat, took in ((3, 0), (2, 0), (1, 8)):
        tap(page, f"tricks-s{seat}-{took}")
    # s0 took the rest: the app ticks it (one tap fewer), and the sums follow.
    expect(page.get_by_test_id("tricks-s0-5")).to_be_checked()
    assert shown(page, ".sum-tricks") == "13"
    assert shown(page, ".sum-left") == "0"
    assert_fits_the_phone(page)
    assert_thumb_sized(page)
    page.screenshot(path=output_dir / "fyrtioett-deal-tapped.png", full_page=True)
    page.get_by_test_id("f41-save").click()

    expect(page.get_by_test_id("score-s1")).to_contain_text("16")
    expect(page.get_by_test_id("score-s3")).to_contain_text("−14")
    expect(page.get_by_test_id("f41-sheet")).to_contain_text("8/8 +16")
    page.screenshot(path=output_dir / "fyrtioett-after-one-deal.png", full_page=True)

    # A deal whose tricks do not add up is refused; the taps stay, so one fix is enough.
    for seat in range(4):
        tap(page, f"bid-s{seat}-4")
        tap(page, f"tricks-s{seat}-4")
    page.get_by_test_id("f41-save").click()
    expect(page.get_by_role("alert")).to_contain_text("16")
    expect(page.get_by_test_id("tricks-s3-4")).to_be_checked()
    assert shown(page, ".sum-tricks") == "16"
    page.screenshot(path=output_dir / "fyrtioett-refused.png", full_page=True)
    game.refresh_from_db()
    assert game.seq == 1

    # "Clear" gives a fresh form.
    page.get_by_test_id("clear").click()
    expect(page.get_by_test_id("tricks-s3-4")).not_to_be_checked()
    assert shown(page, ".sum-worth") == "0"
    assert shown(page, ".sum-left") == "13"

    # Play on to 41: one deal through the engine (s0 makes 10: 24), the winning one by tapping.
    _record(game, "deal", {"bids": _by_seat(10, 1, 1, 1), "tricks": _by_seat(10, 1, 1, 1)})
    page.reload()
    expect(page.get_by_test_id("score-s0")).to_contain_text("24")
    for seat, bid in enumerate((9, 1, 1, 1)):  # 9 is worth 18: s0 reaches 42
        tap(page, f"bid-s{seat}-{bid}")
    for seat, took in enumerate((9, 1, 1, 2)):
        tap(page, f"tricks-s{seat}-{took}")
    page.get_by_test_id("f41-save").click()
    expect(page.get_by_test_id("winner")).to_contain_text(players[0].name)
    expect(page.get_by_test_id("f41-deal")).to_have_count(0)
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "fyrtioett-won.png", full_page=True)
    expect(page.locator(".status-finished")).to_be_visible()
    assert GameResult.objects.filter(game_ref=game.ref).count() == 4


def test_a_nittionio_deal_with_a_show_is_recorded_by_tapping(page, live_server, output_dir):
    club = demo_members()
    players = seated(club, 3)
    game = recording.start_game(club, "nittionio", players, None)
    open_pad(page, live_server, game)
    expect(page.get_by_test_id("n99-deal")).to_be_visible()

    # s1 (förhand) declares, s2 shows; s0 and s1 make 2 and 4, s2 bid 2 (his shown cards) and
    # takes 3. A player who showed laid his bid cards face up: his bid is known, not "missed".
    tap(page, "call-s1-declare")
    tap(page, "call-s2-show")
    tap(page, "bid-s1-4")
    tap(page, "bid-s2-2")
    tap(page, "bid-s0-2")
    tap(page, "tricks-s1-4")
    assert shown(page, ".sum-tricks") == "4"
    assert shown(page, ".sum-left") == "5"
    tap(page, "tricks-s2-3")
    expect(page.get_by_test_id("tricks-s0-2")).to_be_checked()  # the last follows
    assert shown(page, ".sum-left") == "0"
    assert_fits_the_phone(page)
    assert_thumb_sized(page)
    page.screenshot(path=output_dir / "nittionio-deal-tapped.png", full_page=True)
    page.get_by_test_id("n99-save").click()

    # s2's failed show pays 60 to each opponent: s0 2 + 20 + 60, s1 4 + 20 + 60.
    expect(page.get_by_test_id("score-s0")).to_contain_text("82")
    expect(page.get_by_test_id("score-s1")).to_contain_text("84")
    expect(page.get_by_test_id("score-s2")).to_contain_text("3")
    expect(page.get_by_test_id("n99-sheet")).to_contain_text("2/3 +3 V")
    # The calls start again at pass for the next deal.
    expect(page.get_by_test_id("call-s2-pass")).to_be_checked()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "nittionio-after-one-deal.png", full_page=True)


def test_a_femhundra_deal_is_recorded_from_the_bid_table(page, live_server, output_dir):
    club = demo_members()
    players = seated(club, 3)
    game = recording.start_game(club, "femhundra", players, None, rules={"misere": True})
    open_pad(page, live_server, game)
    expect(page.get_by_test_id("fh-deal")).to_be_visible()
    expect(page.get_by_test_id("call-1-8H")).to_have_attribute("aria-label", re.compile("300"))

    # s1 (förhand) bids 8♥ (300), s2 and s0 pass; the next call shows only higher bids.
    tap(page, "call-1-8H")
    expect(page.get_by_test_id("call-2-8H")).to_be_hidden()
    expect(page.get_by_test_id("call-2-8D")).to_be_hidden()
    expect(page.get_by_test_id("call-2-8NT")).to_be_visible()
    expect(page.get_by_test_id("call-3-pass")).to_be_hidden()  # not its turn yet
    tap(page, "call-2-pass")
    tap(page, "call-3-pass")
    tap(page, "tricks-s1-8")
    tap(page, "tricks-s2-1")
    expect(page.get_by_test_id("tricks-s0-1")).to_be_checked()  # the last follows
    assert shown(page, ".sum-left") == "0"
    assert_fits_the_phone(page)
    assert_thumb_sized(page)
    page.screenshot(path=output_dir / "femhundra-deal-tapped.png", full_page=True)
    page.get_by_test_id("fh-save").click()
    expect(page.get_by_test_id("score-s1")).to_contain_text("300")
    expect(page.get_by_test_id("score-s0")).to_contain_text("10")
    expect(page.get_by_test_id("fh-sheet")).to_contain_text("8♥")

    # Nobody bids: ten a trick each.
    for call in (1, 2, 3):
        tap(page, f"call-{call}-pass")
    for seat, took in ((2, 4), (0, 3), (1, 3)):
        tap(page, f"tricks-s{seat}-{took}")
    page.get_by_test_id("fh-save").click()
    expect(page.get_by_test_id("score-s2")).to_contain_text("50")
    expect(page.get_by_test_id("score-s1")).to_contain_text("330")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "femhundra-after-two-deals.png", full_page=True)


def test_a_four_player_femhundra_pad_shows_the_two_sides(page, live_server, output_dir):
    club = demo_members()
    game = recording.start_game(club, "femhundra", seated(club, 4), None)
    recording.append_event(
        game,
        "deal",
        # From förhand s1: three passes (who passes stays out), then the dealer s0 bids 8♥.
        {"auction": ["pass", "pass", "pass", "8H"], "tricks": _by_seat(5, 1, 4, 0)},
        expected_seq=0,
        idempotency_key="one",
        by=None,
    )
    open_pad(page, live_server, game)
    expect(page.get_by_test_id("score-s0")).to_contain_text("300")
    expect(page.get_by_test_id("score-s1")).to_contain_text("10")
    expect(page.get_by_test_id("fh-sheet").locator("thead th")).to_have_count(4)
    assert_fits_the_phone(page)
    assert_thumb_sized(page)
    page.screenshot(path=output_dir / "femhundra-four-players.png", full_page=True)

    # The help page, one tap away, prints the whole bid table.
    page.get_by_test_id("help-link").click()
    table = page.get_by_test_id("bid-table")
    expect(table.locator("td")).to_have_count(25)
    expect(table.locator('[data-contract="10NT"]')).to_have_text("520")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "femhundra-help.png", full_page=True)


def test_the_femhundra_calculator_answers_what_a_deal_scores(page, live_server, output_dir):
    page.goto(f"{live_server.url}/calc/femhundra/deal/")
    tap(page, "contract-7S")
    tap(page, "taken-10")
    page.get_by_test_id("calc-count").click()
    expect(page.get_by_test_id("calc-declarer")).to_have_text("+250")  # ten tricks: 250
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "femhundra-calculator.png", full_page=True)


def _by_seat(*values):
    return {f"s{i}": v for i, v in enumerate(values)}


def _record(game, kind, payload):
    game.refresh_from_db()
    recording.append_event(
        game, kind, payload, expected_seq=game.seq, idempotency_key=f"t{game.seq}", by=None
    )
