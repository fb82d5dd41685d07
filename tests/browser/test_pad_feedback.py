"""What a scorer sees after a tap on a phone: a refusal next to the button that was tapped, in
view, with everything entered still there; after a save, the next entry at the top of the screen;
and an undo button that says what it takes back (static/js/pad.js)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring import recording
from scoring.models import Event
from tests.browser.conftest import (
    assert_fits_the_phone,
    assert_in_view,
    hold_polls,
    open_pad,
    seated,
    tap,
)
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(phones):
    """The shared ``page``, its polls held (see ``hold_polls``) and its service worker blocked:
    after every save pad.js has the worker fetch the whole pad again for its offline copy; these
    tests end right after a save, and the live server, still serving that fetch, locks SQLite's
    tables while pytest-django flushes them ("database table is locked" at teardown)."""
    page = phones(service_workers="block")
    hold_polls(page)
    return page


def _record(game, kind: str, payload: dict) -> None:
    game.refresh_from_db()
    recording.append_event(
        game, kind, payload, expected_seq=game.seq, idempotency_key=f"t{game.seq}", by=None
    )


def assert_refused_in_view(
    page, testid: str, refusal: str | re.Pattern, *, uncovered: bool = True
) -> None:
    """The refusal is in the form of the tapped button (the one with that test id), focused and on
    the screen."""
    feedback = page.get_by_test_id("pad-feedback")
    expect(feedback).to_contain_text(refusal)
    expect(feedback).to_be_focused()
    form = page.get_by_test_id(testid).locator("xpath=ancestor::form")
    expect(form.get_by_test_id("pad-feedback")).to_have_count(1)
    assert_in_view(page, feedback, uncovered=uncovered)


def saved(page, seq: int) -> None:
    expect(page.locator("#pad")).to_have_attribute("data-seq", str(seq))
    expect(page.get_by_test_id("pad-feedback")).to_be_empty()


def test_a_refused_stopp_deal_keeps_the_taps_and_says_why_in_view(page, live_server, output_dir):
    club = demo_members()
    game = recording.start_game(club, "stopp", seated(club, 3), None)
    open_pad(page, live_server, game)
    # Nobody went out: every hand still has cards.
    for key, cards in (("s0", 1), ("s1", 2), ("s2", 2)):
        tap(page, f"st-cards-{key}-{cards}")
    page.get_by_test_id("st-record").click()

    assert_refused_in_view(page, "st-record", "minst en spelare har inga kort kvar")
    for key, cards in (("s0", 1), ("s1", 2), ("s2", 2)):
        expect(page.get_by_test_id(f"st-cards-{key}-{cards}")).to_be_checked()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "stopp-refused.png")
    assert Event.objects.filter(game=game).count() == 0

    tap(page, "st-cards-s0-0")
    page.get_by_test_id("st-record").click()
    saved(page, 1)
    assert Event.objects.filter(game=game).count() == 1
    expect(page.get_by_test_id("st-cards-s1-2")).not_to_be_checked()  # a fresh form


def test_a_refused_fyrtioett_deal_keeps_the_bids_and_tricks(page, live_server, output_dir):
    club = demo_members()
    game = recording.start_game(club, "fyrtioett", seated(club, 4), None)
    open_pad(page, live_server, game)
    bids = {"s3": 7, "s2": 5, "s1": 8, "s0": 4}
    tricks = {"s3": 0, "s2": 0, "s1": 8, "s0": 6}  # 14 tricks of 13
    for key, bid in bids.items():
        tap(page, f"bid-{key}-{bid}")
    for key, took in tricks.items():
        tap(page, f"tricks-{key}-{took}")
    page.get_by_test_id("f41-save").click()

    assert_refused_in_view(page, "f41-save", "14")
    for key in bids:
        expect(page.get_by_test_id(f"bid-{key}-{bids[key]}")).to_be_checked()
        expect(page.get_by_test_id(f"tricks-{key}-{tricks[key]}")).to_be_checked()
    page.screenshot(path=output_dir / "fyrtioett-refused.png")

    tap(page, "tricks-s0-5")
    page.get_by_test_id("f41-save").click()
    saved(page, 1)
    assert Event.objects.filter(game=game).count() == 1


def test_a_refused_nittionio_deal_keeps_the_calls_bids_and_tricks(page, live_server, output_dir):
    club = demo_members()
    game = recording.start_game(club, "nittionio", seated(club, 3), None)
    open_pad(page, live_server, game)
    picks = ["call-s1-declare", "bid-s0-2", "bid-s1-4", "bid-s2-3"]
    picks += ["tricks-s0-2", "tricks-s1-4", "tricks-s2-4"]  # 10 tricks of 9
    for testid in picks:
        tap(page, testid)
    page.get_by_test_id("n99-save").click()

    assert_refused_in_view(page, "n99-save", "10")
    for testid in picks:
        expect(page.get_by_test_id(testid)).to_be_checked()
    page.screenshot(path=output_dir / "nittionio-refused.png")

    tap(page, "tricks-s2-3")
    page.get_by_test_id("n99-save").click()
    saved(page, 1)
    assert Event.objects.filter(game=game).count() == 1


AUCTION = ["call-1-8H", "call-2-pass", "call-3-pass"]  # s1 (förhand) bids 8♥, the others pass
ELEVEN_TRICKS = [*AUCTION, "tricks-s1-8", "tricks-s2-1", "tricks-s0-2"]


def test_a_refused_femhundra_deal_keeps_the_contract_and_tricks(page, live_server, output_dir):
    club = demo_members()
    game = recording.start_game(club, "femhundra", seated(club, 3), None)
    open_pad(page, live_server, game)
    picks = ELEVEN_TRICKS  # of ten
    for testid in picks:
        tap(page, testid)
    page.get_by_test_id("fh-save").click()

    # On screen, but behind the sticky tally: see the next test.
    assert_refused_in_view(page, "fh-save", "11", uncovered=False)
    for testid in picks:
        expect(page.get_by_test_id(testid)).to_be_checked()
    page.screenshot(path=output_dir / "femhundra-refused.png")

    tap(page, "tricks-s0-1")
    page.get_by_test_id("fh-save").click()
    saved(page, 1)
    assert Event.objects.filter(game=game).count() == 1


def test_a_refusal_on_a_long_bidding_pad_is_not_hidden_behind_the_sticky_tally(
    page, live_server, output_dir
):
    club = demo_members()
    game = recording.start_game(club, "femhundra", seated(club, 3), None)
    open_pad(page, live_server, game)
    for testid in ELEVEN_TRICKS:
        tap(page, testid)
    page.get_by_test_id("fh-save").click()
    feedback = page.get_by_test_id("pad-feedback")
    expect(feedback).to_contain_text("11")
    page.screenshot(path=output_dir / "femhundra-refused-under-the-tally.png")
    assert_in_view(page, feedback)


def test_a_refused_kasino_claim_keeps_what_was_certain(page, live_server, output_dir):
    club = demo_members()
    game = recording.start_game(club, "kasino", seated(club, 2), None)
    # s0 has 9 after a deal: most cards, storan, three aces, sistan and 2 tabbar.
    _record(
        game,
        "deal",
        {
            "most_cards": "s0",
            "most_spades": "s1",
            "big_casino": "s0",
            "little_casino": "s1",
            "aces": {"S": "s0", "H": "s0", "D": "s0", "C": "s1"},
            "last": "s0",
            "tabbar": {"s0": 2},
        },
    )
    open_pad(page, live_server, game)
    expect(page.get_by_test_id("score-s0")).to_contain_text("9")
    # 9 + storan 2 + three aces + one tabbe = 15: short of 16.
    page.get_by_test_id("kasino-claim").locator("summary").click()
    picks = ["claim-s0", "claim-big", "claim-aces-3", "claim-tabbar-1"]
    for testid in picks:
        page.get_by_test_id(testid).check()
    page.get_by_test_id("claim-save").click()

    assert_refused_in_view(page, "claim-save", "15")
    expect(page.get_by_test_id("kasino-claim")).to_have_attribute("open", "")
    for testid in picks:
        expect(page.get_by_test_id(testid)).to_be_checked()
    page.screenshot(path=output_dir / "kasino-claim-refused.png")

    page.get_by_test_id("claim-aces-4").check()
    page.get_by_test_id("claim-save").click()
    saved(page, 2)
    expect(page.get_by_test_id("winner")).to_be_visible()
    assert Event.objects.filter(game=game).count() == 2


def test_a_refused_cribbage_count_keeps_the_tapped_cards(page, live_server, output_dir):
    club = demo_members()
    game = recording.start_game(club, "cribbage", seated(club, 2), None)
    _record(game, "starter", {"card": "5D"})
    open_pad(page, live_server, game)
    cards = page.locator("details.count-cards")
    cards.locator("summary").click()
    for card in ("5H", "5S", "JD"):  # three cards: a hand has four
        cards.locator(f'label.pick:has(input[value="{card}"])').click()
    page.get_by_test_id("show-count").click()

    assert_refused_in_view(page, "show-count", re.compile(r"\b3\b"))
    expect(page.locator("details.count-cards")).to_have_attribute("open", "")
    for card in ("5H", "5S", "JD"):
        expect(page.locator(f'details.count-cards input[value="{card}"]')).to_be_checked()
    expect(page.locator('details.count-cards input[value="KC"]')).not_to_be_checked()
    page.screenshot(path=output_dir / "cribbage-count-refused.png")

    page.locator('details.count-cards label.pick:has(input[value="KC"])').click()
    page.get_by_test_id("show-count").click()
    saved(page, 2)
    expect(page.locator(".history-list")).to_contain_text("handen 21")
    assert Event.objects.filter(game=game).count() == 2


def test_after_a_save_the_next_deal_starts_at_the_top_of_the_screen(page, live_server):
    club = demo_members()
    game = recording.start_game(club, "nittionio", seated(club, 3), None)
    open_pad(page, live_server, game)
    for testid in ("bid-s0-2", "bid-s1-4", "bid-s2-3", "tricks-s0-2", "tricks-s1-4"):
        tap(page, testid)
    tap(page, "tricks-s2-3")
    # The thumb is at the bottom of a long pad, far below the form's top.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.get_by_test_id("n99-deal").bounding_box()["y"] < -500
    page.get_by_test_id("n99-save").click()

    saved(page, 1)
    form = page.get_by_test_id("n99-deal")
    expect(form).to_contain_text("Giv 2")
    top = page.locator(".topbar").bounding_box()
    box = form.bounding_box()
    assert top["y"] + top["height"] - 1 <= box["y"] <= 200, f"the form's top is at {box['y']}"
    expect(form).to_be_focused()


def test_the_undo_button_says_what_it_undoes(page, live_server):
    club = demo_members()
    game = recording.start_game(club, "stopp", seated(club, 3), None)
    open_pad(page, live_server, game)
    expect(page.get_by_test_id("undo")).to_have_count(0)
    for key, cards in (("s0", 0), ("s1", 2), ("s2", 3)):
        tap(page, f"st-cards-{key}-{cards}")
    page.get_by_test_id("st-record").click()
    saved(page, 1)
    undo = page.get_by_test_id("undo")
    expect(undo).to_have_text(re.compile(r"^↶ Ångra: Giv 1\b"))

    undo.click()
    saved(page, 2)
    expect(page.get_by_test_id("capital-s2")).to_contain_text("10")
    assert Event.objects.filter(game=game).count() == 2
