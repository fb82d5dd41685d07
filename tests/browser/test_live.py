"""Push to every phone (live/, static/js/live.js) on the server production runs: uvicorn with
config.asgi, PostgreSQL's NOTIFY fanning out. Two phones at a Stopp table: one taps, the other's
pad shows the deal without polling for it (its 2 s poll is held while the stream is open).
Without a stream the pad polls as before: every other browser test runs that way (Django's live
server is WSGI, where no page offers a stream). Screenshots in test-results/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring import recording
from tests.browser.conftest import open_pad, seated, tap
from tests.demo import demo_members
from tests.live.server import asgi_server

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL = re.compile(r"/games/\d+/poll/")
STOPP_DEAL = ["st-cards-s0-0", "st-cards-s1-2", "st-cards-s2-3"]


@pytest.fixture
def served():
    """Ask for it before ``phones``: the phones close before the server stops (a stream the
    server cuts is a failed load the page logs)."""
    with asgi_server() as server:
        yield server


def polls_of(page) -> list[str]:
    sent: list[str] = []
    page.on(
        "request", lambda request: sent.append(request.url) if POLL.search(request.url) else None
    )
    return sent


def stream_open(page) -> None:
    page.wait_for_function("() => window.protokollLive && window.protokollLive.isOpen()")


def test_a_tap_on_one_phone_reaches_the_other_by_push(served, phones, output_dir):
    club = demo_members()
    game = recording.start_game(club, "stopp", seated(club, 3), None)
    scorer, other = phones(), phones()
    for phone in (scorer, other):
        open_pad(phone, served, game)
        stream_open(phone)
    asked = polls_of(other)
    other.wait_for_timeout(4500)  # two periods of the 2 s poll: none goes while the stream is open
    assert asked == []

    for testid in STOPP_DEAL:
        tap(scorer, testid)
    scorer.get_by_test_id("st-record").click()
    expect(scorer.locator("#pad")).to_have_attribute("data-seq", "1")
    expect(other.locator("#pad")).to_have_attribute("data-seq", "1")
    assert len(asked) == 1, asked  # the one fetch the signal asked for
    other.screenshot(path=output_dir / "the-other-phone-after-the-tap.png")

    recording.append_event(  # a third phone records straight away
        game, "undo", {}, expected_seq=1, idempotency_key="third-phone", by=None
    )
    expect(other.locator("#pad")).to_have_attribute("data-seq", "2")
    expect(scorer.locator("#pad")).to_have_attribute("data-seq", "2")
    stream_open(other)  # the swap kept the stream: the same channel
