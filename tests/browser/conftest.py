"""Playwright in Debian's Chromium on a phone viewport, against Django's live server.

The browser is never downloaded: it is /usr/bin/chromium, which the test command installs.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
OUTPUT = Path(__file__).resolve().parents[2] / "test-results"
# Chromium logs every 4xx response as a console error; a pad's 409 (stale) and 422 (refused)
# are answers the page shows, not errors of the page.
_EXPECTED_REFUSAL = re.compile(r"status of 4(09|22)\b")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session", autouse=True)
def one_request_at_a_time_on_sqlite(django_db_setup):
    """On SQLite the test database lives in memory and Django's live server shares the test's
    one connection with every request thread: two requests at once (a navigation and the
    service worker's fetch of the same page) then use one sqlite3 connection from two threads,
    and one of them fails with "bad parameter or other API misuse". The live server answers one
    request at a time there (Django's non-threaded server closes each connection after its
    answer, so a phone's keep-alive never holds it). PostgreSQL keeps the threaded server."""
    from django.core.servers.basehttp import WSGIServer
    from django.db import connection
    from django.test.testcases import LiveServerThread

    if connection.vendor != "sqlite":
        yield
        return

    class OneAtATime(WSGIServer):
        def __init__(self, *args, connections_override=None, **kwargs):
            # The server's own thread already uses the test's connection (LiveServerThread.run).
            super().__init__(*args, **kwargs)

    threaded = LiveServerThread.server_class
    LiveServerThread.server_class = OneAtATime
    yield
    LiveServerThread.server_class = threaded


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run the README's test command, which installs it")
    # Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
    # test itself (fixtures) are still synchronous and safe.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="sv-SE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text)
            if message.type == "error" and not _EXPECTED_REFUSAL.search(message.text)
            else None
        ),
    )
    yield page
    context.close()
    assert not errors, f"the page logged errors: {errors}"


@pytest.fixture
def output_dir(request) -> Path:
    """A folder per test for screenshots: test-results/<test name>/."""
    folder = OUTPUT / re.sub(r"[^\w.-]+", "_", request.node.nodeid.split("::")[-1])
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def assert_fits_the_phone(page) -> None:
    """No horizontal scrolling at phone width."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide"


def log_in(page, live_server, username: str, password: str, *, expect_failure=False) -> None:
    """Log in and wait until the login's answer has arrived: a test that goes on to another
    page at once would otherwise cut the login's request off and land back on the login page."""
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    with page.expect_response(lambda response: response.request.method == "POST"):
        page.get_by_role("button", name=re.compile("Logga in|Log in")).click()
    if not expect_failure:
        page.wait_for_url(lambda url: "/login/" not in url)


def open_pad(
    page, live_server, game, username: str = DEMO_USERNAME, password: str = DEMO_PASSWORD
) -> None:
    """Log in (as the demo club's scorer unless told) and open the game's pad."""
    log_in(page, live_server, username, password)
    page.goto(live_server.url + reverse("scoring:game-detail", args=[game.club.slug, game.pk]))


def seated(club, count: int) -> list[Member]:
    """The club's first ``count`` members by name: a table in seat order."""
    return list(Member.objects.filter(club=club).order_by("name")[:count])


def start_by_tapping(page, live_server, club, key: str, players, options=None) -> None:
    """Open the game's start page, tap the players in seat order (the first tapped deals
    first), fill in the options, and start."""
    page.goto(f"{live_server.url}/c/{club.slug}/play/{key}/")
    for member in players:
        page.locator(".seat-choice", has_text=member.name).click()
    if options:
        page.locator("details.rules summary").click()
        for field, value in options.items():
            page.locator(f"#id_rule_{field}").fill(value)
    page.get_by_role("button", name=re.compile("Starta|Start")).click()


def tap(page, testid: str) -> None:
    """Tap a radio or a check box of the pad."""
    page.get_by_test_id(testid).check()


def shown(page, selector: str) -> str:
    """The text an element shows including CSS-generated content (the pads' counters in
    ``::after``), as the phone renders it.

    The DOM has no API for counter values; Chromium's accessibility tree holds the rendered text.
    """
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument")["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        backend = cdp.send("DOM.describeNode", {"nodeId": node})["node"]["backendNodeId"]
        nodes = {n["nodeId"]: n for n in cdp.send("Accessibility.getFullAXTree")["nodes"]}
    finally:
        cdp.detach()
    todo = [next(n for n in nodes.values() if n.get("backendDOMNodeId") == backend)]
    texts = []
    while todo:
        current = todo.pop(0)
        if current["role"]["value"] == "StaticText":
            texts.append(current["name"]["value"])
        todo.extend(nodes[c] for c in current.get("childIds", []) if c in nodes)
    return "".join(texts).strip()


# --- Phones of their own and messages in view (tests/browser/test_pad_*.py) ------------------

# A failed load Chromium logs as a console error: what taking a phone offline, or aborting its
# requests, causes on purpose.
_NETWORK_FAILURE = re.compile(r"net::ERR_(INTERNET_DISCONNECTED|TIMED_OUT|FAILED|NETWORK_CHANGED)")


@pytest.fixture
def phones(browser):
    """Open another phone: ``phones()`` gives a page of a browser context of its own (its own
    login, localStorage and network) at 390×844 in Swedish, e.g. a second scorer at the table.

    Like ``page``, the test fails if a page of the phone logs an error, 409 and 422 answers
    apart; ``network_failures_ok=True`` also lets through the failed loads a test causes on
    purpose (offline, aborted requests). ``service_workers="block"`` for a test that routes
    requests: Playwright's routes do not see what a service worker fetches."""
    contexts = []
    errors: list[str] = []

    def watch(page, network_failures_ok: bool) -> None:
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda error: errors.append(str(error)))

        def console(message) -> None:
            text = message.text
            if message.type != "error" or _EXPECTED_REFUSAL.search(text):
                return
            if network_failures_ok and _NETWORK_FAILURE.search(text):
                return
            errors.append(text)

        page.on("console", console)

    def open_phone(*, network_failures_ok: bool = False, service_workers: str = "allow"):
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, locale="sv-SE", service_workers=service_workers
        )
        contexts.append(context)
        # Every page the phone opens is watched, the first and any opened later.
        context.on("page", lambda page: watch(page, network_failures_ok))
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()
    assert not errors, f"a phone logged errors: {errors}"


@pytest.fixture
def page_offline_ok(phones):
    """``page``, for a test that takes the phone offline or aborts its requests: the failed loads
    that causes are not errors of the page. Service workers are blocked so that routes see every
    request the pad makes."""
    return phones(network_failures_ok=True, service_workers="block")


def assert_in_view(page, locator, *, uncovered: bool = True) -> None:
    """The element is on the phone's screen: below the sticky top bar and above the fixed tab bar;
    and, unless told, not covered: what a thumb would hit at the middle of its top and bottom
    edges is the element, a part of it or what it lies on (not the sticky tally of a bidding pad
    or the outbox bar)."""
    box = locator.bounding_box()
    assert box is not None, "the element is not shown"
    top = page.locator(".topbar").bounding_box()
    bottom = page.locator(".tabbar").bounding_box()
    top_edge = top["y"] + top["height"] if top else 0
    bottom_edge = bottom["y"] if bottom else PHONE["height"]
    assert box["height"] > 0
    assert box["y"] >= top_edge - 1, f"{box} is under the top bar (it ends at {top_edge})"
    assert box["y"] + box["height"] <= bottom_edge + 1, (
        f"{box} is below the screen or under the tab bar (it starts at {bottom_edge})"
    )
    if not uncovered:
        return
    hit = locator.evaluate(
        """el => {
             const r = el.getBoundingClientRect();
             const inset = Math.min(8, r.height / 2);
             return [r.top + inset, r.bottom - inset].every((y) => {
               const hit = document.elementFromPoint(r.left + r.width / 2, y);
               return hit && (el.contains(hit) || hit.contains(el));
             });
           }"""
    )
    assert hit, "something is drawn over the element"


def hold_polls(target) -> None:
    """The pad's polls from this page (or browser context) go unanswered, as if the phone had
    not heard back yet. Also for tests not about polls: a poll that meets a tap at the live
    server can find its in-memory SQLite tables locked (every club page saves the session), and
    the page gets a 400."""
    target.route(re.compile(r"/games/\d+/poll/"), lambda route: None)
