"""The whist start form shows only the chosen variant's options (app.js, data-variants)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game
from tests.browser.conftest import DEMO_PASSWORD, DEMO_USERNAME, log_in, seated
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_choosing_a_variant_shows_its_options_only(page, live_server):
    club = demo_members()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(f"{live_server.url}/c/{club.slug}/play/whist/")
    page.locator("details.rules summary").click()
    tie = page.locator("[name=rule_guerre_tie]")
    stake = page.locator("[name=rule_stake_ore]")
    honours = page.locator("[name=rule_honours]")
    expect(tie).to_be_hidden()  # short whist by default
    expect(stake).to_be_visible()
    page.select_option("[name=rule_variant]", "guerre")
    expect(tie).to_be_visible()
    expect(stake).to_be_hidden()
    expect(honours).to_be_visible()
    page.select_option("[name=rule_variant]", "american")
    expect(honours).to_be_hidden()
    expect(stake).to_be_visible()
    page.select_option("[name=rule_variant]", "guerre")
    page.select_option("[name=rule_guerre_tie]", "shared")
    for member in seated(club, 4):
        page.locator(".seat-choice", has_text=member.name).click()
    page.get_by_role("button", name=re.compile("Starta|Start")).click()
    page.wait_for_url(lambda url: "/play/" not in url)
    game = Game.objects.get(club=club, game_key="whist")
    assert (game.rules["variant"], game.rules["guerre_tie"]) == ("guerre", "shared")
