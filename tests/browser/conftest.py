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


def log_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.get_by_role("button", name=re.compile("Logga in|Log in")).click()


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
