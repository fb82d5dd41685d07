"""Share buttons (templates/_share.html, static/js/app.js) on a phone: the share sheet where the
browser has one, else the clipboard with a visible "Kopierat", else the field selected.

Headless Chromium's Web Share API is taken away (or stubbed) by an init script so that each
test walks the path it names, whatever the Chromium build offers.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member
from engine import registry
from scoring import games, recording
from tests.browser.conftest import assert_fits_the_phone, log_in
from tests.demo import demo_members
from tests.scoring import toy_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_SHARE_SHEET = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
RECORD_SHARES = """
window.shared = [];
Navigator.prototype.share = function (data) { window.shared.push(data); return Promise.resolve(); };
Navigator.prototype.canShare = function () { return true; };
"""
NO_CLIPBOARD = (
    NO_SHARE_SHEET
    + """
Object.defineProperty(Navigator.prototype, "clipboard", {
  get() { return { writeText: () => Promise.reject(new DOMException("no", "NotAllowedError")) }; },
});
"""
)


@pytest.fixture
def toy():
    registry.register(toy_game)
    games.register(games.Pad(toy_game.KEY))
    yield
    games.unregister(toy_game.KEY)
    registry.unregister(toy_game.KEY)


@pytest.fixture
def finished_game(toy):
    club = demo_members()
    astrid, bertil = Member.objects.filter(club=club).order_by("name")[:2]
    game = recording.start_game(club, toy_game.KEY, [astrid, bertil], astrid.user)
    for seq, (kind, payload) in enumerate(
        [("stake", {"player": "s0", "amount": 500}), ("win", {"player": "s1"})]
    ):
        recording.append_event(
            game, kind, payload, expected_seq=seq, idempotency_key=f"k{seq}", by=astrid.user
        )
    return game


def _pad(live_server, game) -> str:
    return live_server.url + reverse("scoring:game-detail", args=[game.club.slug, game.pk])


def test_a_finished_game_is_copied_when_there_is_no_share_sheet(
    page, live_server, finished_game, output_dir
):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.add_init_script(NO_SHARE_SHEET)
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(_pad(live_server, finished_game))
    result = page.get_by_test_id("share-result")
    result.get_by_role("button", name="Dela", exact=True).click()
    expect(result.get_by_test_id("share-status")).to_have_text("Kopierat")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert f" #{finished_game.pk}: Bertil Holm vann. http" in copied
    assert copied.endswith(f"/games/{finished_game.pk}/")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "pad-share.png", full_page=True)


def test_without_a_clipboard_the_text_is_selected(page, live_server, finished_game):
    page.add_init_script(NO_CLIPBOARD)
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(_pad(live_server, finished_game))
    result = page.get_by_test_id("share-result")
    result.get_by_role("button", name="Dela", exact=True).click()
    expect(result.get_by_test_id("share-status")).to_have_text("Markerat: kopiera det själv.")
    selected = page.evaluate(
        "(() => { const f = document.activeElement;"
        " return f.value.slice(f.selectionStart, f.selectionEnd); })()"
    )
    assert f" #{finished_game.pk}: Bertil Holm vann. http" in selected


def test_the_public_league_link_opens_the_share_sheet(page, live_server, output_dir):
    club = demo_members()
    page.add_init_script(RECORD_SHARES)
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(live_server.url + reverse("league:standings", args=[club.slug]))
    page.get_by_role("button", name="Skapa en publik länk").click()
    page.get_by_role("button", name="Dela", exact=True).click()
    page.wait_for_function("window.shared.length === 1")
    shared = page.evaluate("window.shared[0]")
    club.refresh_from_db()
    assert shared["url"].endswith(club.league_share_token + "/")
    assert shared["title"] == f"Ligan i {club.name}"
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "league-share.png", full_page=True)


def test_an_invite_link_is_copied(page, live_server):
    club = demo_members()
    guest = Member.objects.filter(club=club, user__isnull=True).order_by("name").first()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.add_init_script(NO_SHARE_SHEET)
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(live_server.url + reverse("club:member-list", args=[club.slug]))
    page.locator(
        f"form[action='{reverse('club:member-invite', args=[club.slug, guest.pk])}'] button"
    ).click()
    page.get_by_role("button", name="Dela", exact=True).click()
    expect(page.get_by_test_id("share-status")).to_have_text("Kopierat")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "/invite/" in copied
    assert copied == page.locator("[data-share-field]").input_value()
    assert_fits_the_phone(page)
