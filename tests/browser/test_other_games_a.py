"""Vändåtta, Stopp and President on a phone: start a game, play it to the end by tapping, and
see the totals, the pot and the winner."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import ledger
from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member
from league.models import GameResult
from ledger.models import Account
from scoring.models import Game, GameStatus
from tests.browser.conftest import (
    assert_fits_the_phone,
    log_in,
    seated,
    shown,
    start_by_tapping,
    tap,
)
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def start(page, live_server, club, key: str, count: int, options=None) -> list[Member]:
    """Log in, open the game's start page, tap the players in seat order, set options, start."""
    players = seated(club, count)
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    start_by_tapping(page, live_server, club, key, players, options)
    return players


def hand_sum(page) -> str:
    """The hand's minus points, summed while tapping from the engine's values."""
    return shown(page, ".vd-sum-value")


def test_a_vandatta_game_is_played_by_tapping(page, live_server, output_dir):
    club = demo_members()
    players = start(page, live_server, club, "vandatta", 3)
    expect(page.get_by_test_id("vd-out")).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "vandatta-who-went-out.png", full_page=True)

    # Deal 1: s1 goes out; s2 holds two court cards (−20); s0 an eight and an ace (−40).
    page.get_by_test_id("vd-out-s1").click()
    hand = page.get_by_test_id("vd-hand")
    expect(hand.get_by_role("heading")).to_contain_text(players[2].name)
    tap(page, "vd-courts-2")
    assert hand_sum(page) == "−20"
    page.get_by_test_id("vd-record").click()
    expect(hand.get_by_role("heading")).to_contain_text(players[0].name)
    expect(page.get_by_test_id("total-s2")).to_contain_text("−20")  # this deal so far
    tap(page, "vd-eights-1")
    tap(page, "vd-aces-1")
    assert hand_sum(page) == "−40"
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "vandatta-counting-a-hand.png", full_page=True)
    hand.scroll_into_view_if_needed()
    page.screenshot(path=output_dir / "vandatta-counting-a-hand-as-seen.png")
    page.get_by_test_id("vd-record").click()
    expect(page.get_by_test_id("vd-out")).to_be_visible()
    expect(page.get_by_test_id("total-s0")).to_contain_text("−40")
    page.screenshot(path=output_dir / "vandatta-after-one-deal.png", full_page=True)

    # Deal 2: s0 goes out; s1 holds four eights (−100): the game is over.
    # Each answer brings the next hand's form: tap that one, not the one being replaced.
    page.get_by_test_id("vd-out-s0").click()
    expect(hand.get_by_role("heading")).to_contain_text(players[1].name)
    tap(page, "vd-eights-4")
    page.get_by_test_id("vd-record").click()
    expect(hand.get_by_role("heading")).to_contain_text(players[2].name)
    tap(page, "vd-numbers-3")
    page.get_by_test_id("vd-record").click()
    expect(page.get_by_test_id("winner")).to_contain_text(players[2].name)  # −35
    expect(page.get_by_test_id("total-s1")).to_contain_text("−100")
    expect(page.get_by_test_id("vd-sheet")).to_contain_text("−35")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "vandatta-finished.png", full_page=True)
    game = Game.objects.get(game_key="vandatta")
    assert game.status == GameStatus.FINISHED
    assert GameResult.objects.get(game_ref=game.ref, placement=1).member == players[2]


def test_a_stopp_game_is_played_for_money_by_tapping(page, live_server, output_dir):
    club = demo_members()
    players = start(page, live_server, club, "stopp", 3, options={"capital": "2"})
    expect(page.get_by_test_id("st-deal")).to_be_visible()
    expect(page.get_by_test_id("capital-s0")).to_contain_text("2")

    # Deal 1: s0 out; s1 holds 3 cards but has 2 units (pays 2, out); s2 pays 1.
    for testid in ("st-cards-s0-0", "st-cards-s1-3", "st-cards-s2-1"):
        tap(page, testid)
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "stopp-deal-tapped.png", full_page=True)
    page.get_by_test_id("st-record").click()
    expect(page.get_by_test_id("st-pot")).to_contain_text("3")
    expect(page.get_by_test_id("st-cards-s1-0")).to_have_count(0)  # s1 is out
    page.screenshot(path=output_dir / "stopp-after-one-deal.png", full_page=True)

    # Deal 2: s0 out again; s2 pays his last unit: s0 takes the pot of 4 units (4 kr).
    tap(page, "st-cards-s0-0")
    tap(page, "st-cards-s2-2")
    page.get_by_test_id("st-record").click()
    expect(page.get_by_test_id("winner")).to_contain_text(players[0].name)
    expect(page.get_by_test_id("capital-s0")).to_contain_text("6")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "stopp-finished.png", full_page=True)
    pot = Account.objects.get(club=club, key="pot:stopp")
    assert ledger.balance(pot) == 0
    assert ledger.balance(ledger.member_account(players[0])) == 400


def test_a_president_game_is_played_by_tapping_players_out(page, live_server, output_dir):
    club = demo_members()
    players = start(page, live_server, club, "president", 3)
    expect(page.get_by_test_id("pr-out")).to_be_visible()

    # s0 goes out first every deal (2 points), s1 second (1): 16 after eight deals — past 15.
    for deal in range(8):
        page.get_by_test_id("pr-out-s0").click()
        expect(page.get_by_test_id("pr-gone")).to_contain_text(players[0].name)
        if deal == 0:
            assert_fits_the_phone(page)
            page.screenshot(path=output_dir / "president-one-out.png", full_page=True)
        page.get_by_test_id("pr-out-s1").click()
        if deal < 7:
            expect(page.get_by_test_id("score-s0")).to_contain_text(str(2 * (deal + 1)))
        if deal == 0:
            page.screenshot(path=output_dir / "president-after-one-deal.png", full_page=True)
    expect(page.get_by_test_id("winner")).to_contain_text(players[0].name)
    expect(page.get_by_test_id("score-s0")).to_contain_text("16")
    expect(page.get_by_test_id("pr-out")).to_have_count(0)
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "president-finished.png", full_page=True)
