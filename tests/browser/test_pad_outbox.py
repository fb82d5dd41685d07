"""A tap on a pad is not lost to the network or to another phone (static/js/pad.js's outbox):
two scorers at one table, a phone that goes offline, a request that times out after the server
stored it, and a tap still waiting when the pad is closed."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from scoring import recording
from scoring.models import Event
from tests.browser.conftest import assert_in_view, hold_polls, open_pad, seated, tap
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EVENTS = re.compile(r"/events/$")
POLL = re.compile(r"/poll/")
OUTBOX = "protokoll:outbox:"


@pytest.fixture
def page(phones):
    """The shared ``page``, its polls held (see ``hold_polls``) and its service worker blocked:
    after every save pad.js has the worker fetch the whole pad again for its offline copy, and a
    test that ends right after a save has the live server still serving that fetch, locking
    SQLite's tables while pytest-django flushes them ("database table is locked" at teardown)."""
    page = phones(service_workers="block")
    hold_polls(page)
    return page


def tap_all(page, testids) -> None:
    for testid in testids:
        tap(page, testid)


def assert_all_checked(page, testids) -> None:
    for testid in testids:
        expect(page.get_by_test_id(testid)).to_be_checked()


def events(game) -> int:
    return Event.objects.filter(game=game).count()


def queued(page) -> list[str]:
    """The outbox's keys in the phone's localStorage (one per login and pad with taps waiting)."""
    return page.evaluate(f"Object.keys(localStorage).filter(k => k.startsWith({OUTBOX!r}))")


# --- Two phones at one table ------------------------------------------------------------------

A_DEAL = ["bid-s0-2", "bid-s1-4", "bid-s2-3", "tricks-s0-2", "tricks-s1-4", "tricks-s2-3"]
B_DEAL = ["bid-s0-3", "bid-s1-2", "bid-s2-1", "tricks-s0-4", "tricks-s1-2", "tricks-s2-3"]


@pytest.fixture
def two_phones(page, phones, live_server):
    """A Nittionio game open on two scorers' phones, A and B (both the demo scorer). B's polls
    go unanswered: B has not heard of A's deal when B taps. A's too: A does not need them."""
    club = demo_members()
    game = recording.start_game(club, "nittionio", seated(club, 3), None)
    a, b = page, phones(service_workers="block")
    hold_polls(b)
    open_pad(a, live_server, game)
    open_pad(b, live_server, game)
    return game, a, b


def a_saves_first_then_b(a, b) -> None:
    tap_all(b, B_DEAL)
    tap_all(a, A_DEAL)
    a.get_by_test_id("n99-save").click()
    expect(a.locator("#pad")).to_have_attribute("data-seq", "1")
    b.get_by_test_id("n99-save").click()


def test_a_deal_tapped_after_another_phone_saved_is_kept_as_a_draft_and_sent_once_more(
    two_phones, output_dir
):
    game, a, b = two_phones
    a_saves_first_then_b(a, b)

    feedback = b.get_by_test_id("pad-feedback")
    expect(feedback).to_contain_text("Någon annan protokollförde under tiden")
    expect(feedback).to_contain_text("bud 2, 2 stick")  # what A recorded
    expect(feedback).to_be_focused()
    # Its first line; all of it is not: see the next test.
    assert_in_view(b, feedback.get_by_text("Någon annan protokollförde under tiden"))
    form = b.get_by_test_id("n99-deal")
    expect(form.get_by_test_id("pad-feedback")).to_have_count(1)  # next to B's Save
    expect(form).to_have_class(re.compile(r"\bdraft\b"))
    expect(b.get_by_test_id("discard-draft")).to_be_visible()
    assert_all_checked(b, B_DEAL)
    expect(b.locator("#pad")).to_have_attribute("data-seq", "1")  # B now sees A's deal
    b.screenshot(path=output_dir / "conflict-draft.png")
    assert events(game) == 1

    b.get_by_test_id("n99-save").click()
    expect(b.locator("#pad")).to_have_attribute("data-seq", "2")
    expect(b.get_by_test_id("pad-feedback")).to_be_empty()
    expect(b.get_by_test_id("n99-deal")).not_to_have_class(re.compile(r"\bdraft\b"))
    deals = list(Event.objects.filter(game=game).order_by("seq"))
    assert [e.payload["tricks"] for e in deals] == [
        {"s0": 2, "s1": 4, "s2": 3},
        {"s0": 4, "s1": 2, "s2": 3},
    ]


def test_the_whole_conflict_message_and_its_discard_button_are_in_view(two_phones, output_dir):
    game, a, b = two_phones
    a_saves_first_then_b(a, b)
    feedback = b.get_by_test_id("pad-feedback")
    expect(b.get_by_test_id("discard-draft")).to_be_visible()
    b.screenshot(path=output_dir / "conflict-under-the-tally.png")
    assert_in_view(b, feedback)
    assert_in_view(b, b.get_by_test_id("discard-draft"))


def test_a_draft_is_discarded_by_a_tap(two_phones):
    game, a, b = two_phones
    a_saves_first_then_b(a, b)
    expect(b.get_by_test_id("n99-deal")).to_have_class(re.compile(r"\bdraft\b"))

    b.get_by_test_id("discard-draft").click()
    expect(b.get_by_test_id("pad-feedback")).to_be_empty()
    expect(b.get_by_test_id("n99-deal")).not_to_have_class(re.compile(r"\bdraft\b"))
    for testid in B_DEAL:
        expect(b.get_by_test_id(testid)).not_to_be_checked()
    assert events(game) == 1

    # The fresh form records the next deal.
    tap_all(b, A_DEAL)
    b.get_by_test_id("n99-save").click()
    expect(b.locator("#pad")).to_have_attribute("data-seq", "2")
    assert events(game) == 2


def test_a_half_filled_form_survives_another_phones_deal_arriving_by_poll(
    page, phones, live_server
):
    club = demo_members()
    game = recording.start_game(club, "nittionio", seated(club, 3), None)
    a, b = page, phones(service_workers="block")  # B polls, A does not
    open_pad(a, live_server, game)
    open_pad(b, live_server, game)
    half = B_DEAL[:4]
    tap_all(b, half)
    tap_all(a, A_DEAL)
    # A saves just after one of B's polls, not at the same moment (see ``hold_polls``).
    with b.expect_response(POLL):
        pass
    a.get_by_test_id("n99-save").click()
    expect(a.locator("#pad")).to_have_attribute("data-seq", "1")

    expect(b.locator("#pad")).to_have_attribute("data-seq", "1")  # B's poll brought it
    expect(b.get_by_test_id("pad-feedback")).to_contain_text("Någon annan protokollförde")
    expect(b.get_by_test_id("n99-deal")).to_have_class(re.compile(r"\bdraft\b"))
    assert_all_checked(b, half)
    tap_all(b, B_DEAL[4:])
    b.get_by_test_id("n99-save").click()
    expect(b.locator("#pad")).to_have_attribute("data-seq", "2")
    assert events(game) == 2


def test_a_half_filled_form_is_left_alone_while_nothing_new_arrives(phones, live_server):
    page = phones(service_workers="block")  # it polls
    club = demo_members()
    game = recording.start_game(club, "nittionio", seated(club, 3), None)
    open_pad(page, live_server, game)
    tap_all(page, B_DEAL[:2])
    for _ in range(2):  # two polls: nobody else recorded anything
        with page.expect_response(lambda response: bool(POLL.search(response.url))) as poll:
            pass
        assert poll.value.status == 204
    expect(page.locator("#pad")).to_have_attribute("data-seq", "0")
    assert_all_checked(page, B_DEAL[:2])
    # Already answered: the polls are over.
    expect(page.get_by_test_id("pad-feedback")).to_be_empty(timeout=1_000)
    expect(page.get_by_test_id("n99-deal")).not_to_have_class(re.compile(r"\bdraft\b"))


def test_a_conflict_on_a_long_bidding_pad_is_not_hidden_behind_the_sticky_tally(
    page, live_server, output_dir
):
    club = demo_members()
    game = recording.start_game(club, "femhundra", seated(club, 3), None)
    open_pad(page, live_server, game)
    calls = ["call-1-8H", "call-2-pass", "call-3-pass"]
    tap_all(page, [*calls, "tricks-s1-8", "tricks-s2-1", "tricks-s0-1"])
    recording.append_event(  # another phone's deal
        game,
        "deal",
        # From förhand s1: two passes, then the dealer s0 bids 8♥ (one chance each).
        {"auction": ["pass", "pass", "8H"], "tricks": {"s0": 5, "s1": 1, "s2": 4}},
        expected_seq=0,
        idempotency_key="other-phone",
        by=None,
    )
    page.get_by_test_id("fh-save").click()
    feedback = page.get_by_test_id("pad-feedback")
    expect(feedback).to_contain_text("Någon annan protokollförde under tiden")
    page.screenshot(path=output_dir / "femhundra-conflict-under-the-tally.png")
    assert_in_view(page, feedback)


# --- No network -----------------------------------------------------------------------------

STOPP_DEAL = ["st-cards-s0-0", "st-cards-s1-2", "st-cards-s2-3"]


def stopp_pad(page, live_server):
    hold_polls(page)
    club = demo_members()
    game = recording.start_game(club, "stopp", seated(club, 3), None)
    open_pad(page, live_server, game)
    return game


def posts(page) -> list:
    """The taps the page sends from now on (its POSTs to the events URL)."""
    sent = []

    def note(request) -> None:
        if request.method == "POST" and EVENTS.search(request.url):
            sent.append(request)

    page.on("request", note)
    return sent


def test_a_tap_offline_waits_and_is_sent_once_when_the_network_is_back(
    page_offline_ok, live_server, output_dir
):
    page = page_offline_ok
    game = stopp_pad(page, live_server)
    sent = posts(page)
    bar = page.get_by_test_id("pad-outbox")
    tap_all(page, STOPP_DEAL)

    page.context.set_offline(True)
    page.get_by_test_id("st-record").click()
    expect(bar).to_be_visible()
    expect(bar).to_have_attribute("data-state", "waiting")
    expect(bar).to_contain_text(bar.get_attribute("data-waiting"))
    assert_in_view(page, bar)
    assert len(queued(page)) == 1
    page.screenshot(path=output_dir / "offline-waiting.png")

    # A second tap (the same deal again) queues behind the first: nothing is refused.
    page.get_by_test_id("st-record").click()
    expect(bar).to_contain_text("2 tryck väntar")
    expect(bar).to_have_attribute("data-state", "waiting")
    page.screenshot(path=output_dir / "offline-second-tap.png")
    assert sent == []
    assert events(game) == 0
    assert_all_checked(page, STOPP_DEAL)

    started = time.monotonic()
    page.context.set_offline(False)
    expect(page.locator("#pad")).to_have_attribute("data-seq", "2")
    delay = time.monotonic() - started
    print(f"\nback online → both taps saved in {delay * 1000:.0f} ms")
    expect(bar).to_be_hidden()
    assert events(game) == 2
    assert len(sent) == 2
    keys = [parse_qs(request.post_data)["idempotency_key"][0] for request in sent]
    assert keys[0] != keys[1]
    assert [parse_qs(request.post_data)["expected_seq"][0] for request in sent] == ["0", "1"]
    assert queued(page) == []


def test_a_request_that_timed_out_after_the_server_stored_it_records_once(
    page_offline_ok, live_server
):
    page = page_offline_ok
    game = stopp_pad(page, live_server)
    bodies = []

    def time_out_the_first(route):
        bodies.append(parse_qs(route.request.post_data))
        if len(bodies) == 1:
            route.fetch()  # the server stores the deal; its answer never reaches the phone
            route.abort("timedout")
        else:
            route.continue_()

    page.route(EVENTS, time_out_the_first)
    tap_all(page, STOPP_DEAL)
    page.get_by_test_id("st-record").click()
    expect(page.get_by_test_id("pad-outbox")).to_have_attribute("data-state", "waiting")
    assert events(game) == 1

    expect(page.locator("#pad")).to_have_attribute("data-seq", "1")  # retried by itself
    expect(page.get_by_test_id("pad-outbox")).to_be_hidden()
    expect(page.get_by_test_id("st-sheet")).to_contain_text("3 kort")
    assert len(bodies) == 2
    assert bodies[0]["idempotency_key"] == bodies[1]["idempotency_key"]
    assert events(game) == 1
    page.unroute(EVENTS)


def test_a_tap_still_waiting_when_the_pad_is_closed_is_sent_when_it_is_opened_again(
    page_offline_ok, live_server
):
    page = page_offline_ok
    game = stopp_pad(page, live_server)
    pad_url = page.url
    page.route(EVENTS, lambda route: route.abort("internetdisconnected"))
    tap_all(page, STOPP_DEAL)
    page.get_by_test_id("st-record").click()
    expect(page.get_by_test_id("pad-outbox")).to_have_attribute("data-state", "waiting")
    assert len(queued(page)) == 1
    assert events(game) == 0
    context = page.context
    page.close()

    again = context.new_page()
    again.goto(pad_url)
    expect(again.locator("#pad")).to_have_attribute("data-seq", "1")
    expect(again.get_by_test_id("pad-outbox")).to_be_hidden()
    assert queued(again) == []
    assert events(game) == 1
