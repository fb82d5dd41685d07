"""Every tap is kept, in order, and belongs to one login (static/js/pad.js's outbox queue).

Cribbage pegged card by card on a slow network: taps made while earlier ones are on their way
queue behind them and are recorded once each, in order. A refusal in the middle stops the
queue: the later taps wait as drafts to be sent or discarded. Taps left on a shared phone are
sent by their own scorer when he logs out, or discarded with a message, never recorded under
the next person's login."""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member, User
from engine import cribbage
from scoring import recording
from scoring.models import Event
from tests.browser.conftest import assert_in_view, hold_polls, log_in, open_pad, seated
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EVENTS = re.compile(r"/events/$")
POLL = re.compile(r"/poll/")
OUTBOX = "protokoll:outbox:"
LATENCY_MS = 1500
BETWEEN_TAPS_S = 0.2

# Astrid (s0) deals, Bertil (s1) leads. All eight cards fit under 31, so no go is needed and
# every card the scorer taps is a button on any earlier pad too (the count only grows).
DEAL = [
    ("s1", "5"),
    ("s0", "10"),
    ("s1", "A"),
    ("s0", "4"),
    ("s1", "2"),
    ("s0", "A"),
    ("s1", "3"),
    ("s0", "2"),
]
RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "10": 10, "K": 13}


@pytest.fixture
def page(phones):
    """A phone whose service worker is blocked, so that routes and the slow network see every
    request the pad makes; failed loads (aborted taps) are not errors of the page."""
    return phones(network_failures_ok=True, service_workers="block")


def cribbage_game(starter: str = "5D"):
    club = demo_members()
    game = recording.start_game(club, "cribbage", seated(club, 2), None)
    recording.append_event(
        game, "starter", {"card": starter}, expected_seq=0, idempotency_key="starter", by=None
    )
    return game


def slow_network(page, latency_ms: int = LATENCY_MS) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )


def expected_scores(cards) -> dict:
    """What the engine makes of the play, the starter first: the score the pad must show."""
    state = cribbage.new_game(["s0", "s1"], cribbage.Rules())
    state = cribbage.apply(state, {"type": "starter", "card": "5D"})
    for player, rank in cards:
        state = cribbage.apply(state, {"type": "play", "player": player, "card": RANKS[rank]})
    return dict(state.scores)


def plays(game) -> list[tuple[str, int]]:
    return [
        (e.payload["player"], e.payload["card"])
        for e in Event.objects.filter(game=game, type="play").order_by("seq")
    ]


def peg(page, ranks) -> None:
    for rank in ranks:
        page.get_by_test_id(f"play-{rank}").click()
        time.sleep(BETWEEN_TAPS_S)


def stored(page) -> dict:
    """The outbox in the phone's localStorage, key by key."""
    return page.evaluate(
        f"""Object.fromEntries(Object.keys(localStorage)
              .filter(k => k.startsWith({OUTBOX!r}))
              .map(k => [k, JSON.parse(localStorage.getItem(k))]))"""
    )


def board(page):
    return page.locator("svg.board")


# --- Pegging at the table's pace ------------------------------------------------------------


def test_a_deal_pegged_card_by_card_on_a_slow_network_records_every_card_once_in_order(
    page, live_server, output_dir
):
    game = cribbage_game()
    polls = []

    def answer_poll(route) -> None:
        polls.append(time.monotonic())
        route.fulfill(status=204)

    page.route(POLL, answer_poll)
    open_pad(page, live_server, game)
    expect(page.get_by_test_id("play-cards")).to_contain_text("Bertil Holm spelar")
    slow_network(page)
    bar = page.get_by_test_id("pad-outbox")

    started = time.monotonic()
    peg(page, [rank for _, rank in DEAL])
    tapped = time.monotonic()
    expect(bar).to_contain_text(re.compile(r"\d+ tryck väntar"))
    page.screenshot(path=output_dir / "queued.png")
    waiting_at_last_tap = len(next(iter(stored(page).values()))["queue"])

    expect(page.locator("#pad")).to_have_attribute("data-seq", str(1 + len(DEAL)), timeout=60_000)
    done = time.monotonic()
    print(
        f"\n{len(DEAL)} cards tapped in {tapped - started:.1f} s, {waiting_at_last_tap} waiting "
        f"after the last tap; all recorded {done - started:.1f} s after the first tap "
        f"({LATENCY_MS} ms a request)"
    )
    assert waiting_at_last_tap >= 2
    assert plays(game) == [(player, RANKS[rank]) for player, rank in DEAL]
    keys = list(Event.objects.filter(game=game).values_list("idempotency_key", flat=True))
    assert len(set(keys)) == len(keys) == 1 + len(DEAL)
    scores = expected_scores(DEAL)
    game.refresh_from_db()
    assert game.snapshot["scores"] == scores
    expect(board(page)).to_have_attribute(
        "aria-label", f"Astrid Lindqvist {scores['s0']} · Bertil Holm {scores['s1']}"
    )
    expect(bar).to_be_hidden()
    expect(page.get_by_test_id("pad-feedback")).to_be_empty()
    assert stored(page) == {}
    # No poll while taps were on their way.
    assert not [t for t in polls if started < t < done - 0.1]


# --- A refusal in the middle ------------------------------------------------------------------

# 5, 10, K (25), then a king that would make 35: refused; the 2 and the 3 behind it wait.
REFUSED_AT = [("s1", "5"), ("s0", "10"), ("s1", "K")]
AFTER = [("s0", "2"), ("s1", "3")]


def refused_in_the_middle(page, live_server):
    game = cribbage_game()
    hold_polls(page)
    open_pad(page, live_server, game)
    slow_network(page, 800)
    peg(page, ["5", "10", "K", "K", "2", "3"])
    feedback = page.get_by_test_id("pad-feedback")
    expect(feedback.get_by_role("alert").first).to_contain_text("31", timeout=30_000)
    return game


def test_a_refused_tap_stops_the_queue_and_the_taps_after_it_wait_as_drafts(
    page, live_server, output_dir
):
    game = refused_in_the_middle(page, live_server)
    held = page.get_by_test_id("held-taps")
    expect(held).to_be_visible()
    expect(held.locator("li")).to_have_count(2)
    # The refusal is where the thumb is: in the grid of ranks, in view.
    grid = page.locator("form", has=page.get_by_test_id("play-A"))
    expect(grid.get_by_test_id("pad-feedback")).to_have_count(1)
    assert_in_view(page, page.get_by_test_id("pad-feedback"), uncovered=False)
    expect(page.get_by_test_id("play-K")).to_have_attribute("aria-disabled", "true")  # 25 + 10
    page.screenshot(path=output_dir / "refused-in-the-middle.png")
    time.sleep(2)  # nothing more goes out by itself
    assert plays(game) == [(p, RANKS[r]) for p, r in REFUSED_AT]
    [outbox] = stored(page).values()
    assert outbox["queue"] == []
    assert len(outbox["held"]) == 2

    # Reloaded, the drafts are still there; one tap sends them, in order, after the kings.
    page.reload()
    expect(page.get_by_test_id("held-taps").locator("li")).to_have_count(2)
    page.get_by_test_id("send-held").click()
    expect(page.locator("#pad")).to_have_attribute("data-seq", "6", timeout=20_000)
    assert plays(game) == [(p, RANKS[r]) for p, r in [*REFUSED_AT, *AFTER]]
    expect(page.get_by_test_id("held-taps")).to_have_count(0)
    assert stored(page) == {}


def test_the_taps_held_after_a_refusal_can_be_discarded(page, live_server):
    game = refused_in_the_middle(page, live_server)
    page.get_by_test_id("discard-held").click()
    expect(page.get_by_test_id("held-taps")).to_have_count(0)
    assert stored(page) == {}
    time.sleep(1)
    assert plays(game) == [(p, RANKS[r]) for p, r in REFUSED_AT]


def test_queued_taps_survive_a_reload_and_are_sent_in_order(page, live_server):
    game = cribbage_game()
    hold_polls(page)
    open_pad(page, live_server, game)
    page.route(EVENTS, lambda route: route.abort("internetdisconnected"))
    peg(page, ["5", "10", "A"])
    expect(page.get_by_test_id("pad-outbox")).to_contain_text("3 tryck väntar")
    [outbox] = stored(page).values()
    assert len(outbox["queue"]) == 3
    page.reload()
    expect(page.get_by_test_id("pad-outbox")).to_contain_text("3 tryck väntar")
    page.unroute(EVENTS)
    expect(page.locator("#pad")).to_have_attribute("data-seq", "4", timeout=20_000)
    assert plays(game) == [("s1", 5), ("s0", 10), ("s1", 1)]
    assert stored(page) == {}


# --- One login's taps -------------------------------------------------------------------------


def second_scorer(club) -> User:
    """Bertil Holm, a scorer of the demo club, with a login of his own."""
    user = User.objects.create_user("bertil", password=DEMO_PASSWORD)
    bertil = Member.objects.get(club=club, name="Bertil Holm")
    bertil.user = user
    bertil.save()  # through the model: the login is sealed in the audit chain
    return user


def tap_unsent(page, live_server, game) -> str:
    """The demo scorer (Astrid) opens the pad and taps a card that cannot reach the server."""
    hold_polls(page.context)
    open_pad(page, live_server, game)
    pad_url = page.url
    page.route(EVENTS, lambda route: route.abort("internetdisconnected"))
    page.get_by_test_id("play-5").click()
    expect(page.get_by_test_id("pad-outbox")).to_have_attribute("data-state", "waiting")
    assert len(stored(page)) == 1
    return pad_url


def log_out(page, live_server) -> None:
    page.goto(f"{live_server.url}/clubs/")
    page.get_by_role("button", name="Logga ut").click()
    page.wait_for_url(re.compile(r"/login/"), timeout=20_000)


def test_taps_left_by_one_login_are_discarded_not_recorded_under_the_next(
    page, live_server, output_dir
):
    game = cribbage_game()
    bertil = second_scorer(game.club)
    pad_url = tap_unsent(page, live_server, game)
    log_out(page, live_server)  # the tap still cannot be sent: it is left on the phone
    page.unroute(EVENTS)

    log_in(page, live_server, "bertil", DEMO_PASSWORD)
    page.goto(pad_url)
    notice = page.get_by_test_id("foreign-taps")
    expect(notice).to_contain_text("1 tryck av Astrid Lindqvist")
    expect(notice).to_contain_text("kastades")
    page.screenshot(path=output_dir / "discarded.png")
    time.sleep(1.5)
    assert not Event.objects.filter(game=game, recorded_by=bertil).exists()
    assert plays(game) == []
    assert stored(page) == {}

    # Bertil's own taps are his.
    page.get_by_test_id("play-5").click()
    expect(page.locator("#pad")).to_have_attribute("data-seq", "2")
    assert list(Event.objects.filter(game=game, type="play").values_list("recorded_by", flat=True))
    assert Event.objects.get(game=game, type="play").recorded_by == bertil


def test_taps_waiting_at_logout_are_sent_under_their_own_login_first(page, live_server):
    game = cribbage_game()
    astrid = User.objects.get(username=DEMO_USERNAME)
    second_scorer(game.club)
    tap_unsent(page, live_server, game)
    page.goto(f"{live_server.url}/clubs/")
    page.unroute(EVENTS)  # the network is back while the club list is open
    page.get_by_role("button", name="Logga ut").click()
    page.wait_for_url(re.compile(r"/login/"), timeout=20_000)
    [event] = Event.objects.filter(game=game, type="play")
    assert event.recorded_by == astrid
    assert stored(page) == {}
    log_in(page, live_server, "bertil", DEMO_PASSWORD)
    page.goto(f"{live_server.url}/c/{game.club.slug}/games/{game.pk}/")
    expect(page.locator("#pad")).to_have_attribute("data-seq", "2")
    expect(page.get_by_test_id("foreign-taps")).to_have_count(0)
    assert Event.objects.filter(game=game).count() == 2


def test_the_outbox_is_stored_under_the_users_id(page, live_server):
    game = cribbage_game()
    tap_unsent(page, live_server, game)
    astrid = User.objects.get(username=DEMO_USERNAME)
    [key] = stored(page)
    assert key.startswith(f"{OUTBOX}u{astrid.pk}:")
    assert json.loads(json.dumps(stored(page)[key]))["user"] == str(astrid.pk)
