"""The installable app on a phone: the service worker takes over, keeps the pad as last seen,
and an offline reload of the pad shows that copy read only, with an honest banner; back online
the pad is live again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from club.models import Role
from config.pwa import CACHE_VERSION
from scoring import recording
from tests.browser.conftest import open_pad, tap
from tests.factories import PASSWORD, make_club, make_member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def game():
    club = make_club("Kortklubben Klöver Kung")
    scorer = make_member(club, "Astrid Lindqvist", roles=[Role.SCORER])
    others = [make_member(club, name, login=False) for name in ("Bo Ek", "Cilla Ros")]
    return recording.start_game(club, "stopp", [scorer, *others], scorer.user)


@pytest.fixture
def phone(phones):
    """A phone that goes offline on purpose (its failed loads are not errors), with the worker."""
    return phones(network_failures_ok=True)


def cached_pad(page) -> str:
    """The worker's copy of this pad ("" while it has none)."""
    return page.evaluate(
        f"""() => caches.open("protokoll-pads-{CACHE_VERSION}")
              .then((cache) => cache.match(location.pathname))
              .then((response) => response ? response.text() : "")"""
    )


def wait_for_cached_seq(page, seq: int) -> None:
    for _ in range(50):
        if f'data-seq="{seq}"' in cached_pad(page):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the worker never cached the pad at seq {seq}")


def test_an_offline_reload_shows_the_last_seen_pad_read_only(phone, live_server, game, output_dir):
    page = phone
    open_pad(page, live_server, game, game.created_by.username, PASSWORD)
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.state)") == (
        "activated"
    )
    wait_for_cached_seq(page, 0)
    # A deal recorded on this phone: the worker's copy follows what the phone saw.
    for player, cards in (("s0", 0), ("s1", 3), ("s2", 2)):
        tap(page, f"st-cards-{player}-{cards}")
    page.get_by_test_id("st-record").click()
    expect(page.locator("#pad")).to_have_attribute("data-seq", "1")
    wait_for_cached_seq(page, 1)

    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_test_id("pad-outbox")).to_be_visible()
    expect(page.get_by_test_id("pad-outbox")).to_contain_text("bara för läsning")
    expect(page.locator("#pad")).to_have_attribute("data-seq", "1")
    expect(page.get_by_test_id("st-sheet")).to_contain_text("3 kort")
    expect(page.get_by_test_id("st-record")).to_be_disabled()
    page.screenshot(path=output_dir / "offline-pad.png")

    page.context.set_offline(False)  # the pad reloads itself and is live again
    expect(page.get_by_test_id("st-record")).to_be_enabled()
    expect(page.get_by_test_id("pad-outbox")).to_be_hidden()


def test_another_page_opened_offline_says_so(phone, live_server, game):
    page = phone
    open_pad(page, live_server, game, game.created_by.username, PASSWORD)
    page.evaluate("navigator.serviceWorker.ready")
    wait_for_cached_seq(page, 0)
    page.context.set_offline(True)
    page.goto(f"{live_server.url}/c/{game.club.slug}/ledger/")
    expect(page.get_by_test_id("offline-page")).to_contain_text("Inget nät")
    page.context.set_offline(False)


def test_logging_out_forgets_the_cached_pads(page, live_server, game):
    open_pad(page, live_server, game, game.created_by.username, PASSWORD)
    page.evaluate("navigator.serviceWorker.ready")
    wait_for_cached_seq(page, 0)
    page.get_by_role("link", name="Klubbar").click()  # logging out is on the club list
    page.get_by_role("button", name="Logga ut").click()
    page.wait_for_url("**/")
    for _ in range(50):
        names = page.evaluate("caches.keys()")
        if f"protokoll-pads-{CACHE_VERSION}" not in names:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the pads are still cached after logging out: {names}")
