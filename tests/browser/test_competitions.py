"""A competition run from a phone (issue 29, item 5): the admin announces a cribbage Swiss,
enters four members and starts it; the page shows the round's two tables, each with its pad's
link and QR code; the admin starts table 1's game; a second phone (another member, his own
login) opens that table's link and lands on its pad. Screenshots in test-results/."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member, User
from competitions.models import Competition, Status
from scoring.models import Game
from tests.browser.conftest import assert_fits_the_phone, log_in, seated
from tests.browser.test_tap_targets import _MEASURE, MIN_PX
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_admin_runs_a_swiss_and_a_second_phone_opens_a_tables_pad(
    live_server, phones, output_dir
):
    club = demo_members()
    players = seated(club, 4)
    bertil = Member.objects.get(club=club, name="Bertil Holm")
    bertil.user = User.objects.create_user("bertil", password="bertil-kille-121")
    bertil.save(update_fields=["user"])

    admin, second = phones(), phones()
    log_in(admin, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    admin.goto(live_server.url + reverse("competitions:list", args=[club.slug]))
    form = admin.get_by_test_id("announce-form")
    expect(form).to_be_visible()  # open: the club has no competition yet
    form.locator("#id_name").fill("Höstcupen")
    form.locator("#id_kind").select_option("swiss")
    form.locator("#id_game_key").select_option("cribbage")
    form.locator("#id_rounds").fill("3")
    form.locator("#id_entry_fee").fill("20")
    form.locator("#id_prize_percents").fill("60/40")
    admin.screenshot(path=output_dir / "1-the-announce-form.png", full_page=True)
    admin.get_by_test_id("announce-submit").click()
    admin.wait_for_url(re.compile(r"/competitions/\d+/$"))
    competition = Competition.objects.get(club=club)
    assert (competition.entry_fee_ore, competition.prize_percents) == (2000, [60, 40])

    for member in players:
        admin.get_by_test_id("enter-someone").locator("summary").click()
        admin.locator("#id_member").select_option(label=member.name)
        admin.get_by_test_id("enter-submit").click()
        expect(admin.get_by_test_id("entrant").filter(has_text=member.name)).to_be_visible()
    expect(admin.get_by_test_id("entrant")).to_have_count(4)

    admin.get_by_test_id("start-competition").click()
    tables = admin.get_by_test_id("competition-tables")
    expect(tables.locator("[data-testid^=competition-table-]")).to_have_count(2)
    expect(admin.get_by_test_id("next-round")).to_be_disabled()  # the tables play
    expect(admin.get_by_test_id("waiting")).to_contain_text("2 av 2 bord spelar fortfarande")
    links = admin.get_by_test_id("table-link")
    expect(links).to_have_count(2)
    first_table = links.first.get_attribute("data-table-url")
    assert first_table.startswith(f"{live_server.url}/c/{club.slug}/competitions/table/")
    admin.get_by_test_id("table-qr").first.locator("summary").click()
    expect(admin.get_by_test_id("table-qr").first.locator("svg")).to_be_visible()
    assert_fits_the_phone(admin)
    assert admin.evaluate(_MEASURE, MIN_PX) == []
    admin.screenshot(path=output_dir / "2-round-1-with-two-tables.png", full_page=True)

    # The admin (a scorer) starts table 1's game and lands on its pad.
    admin.get_by_test_id("start-table-game").first.click()
    admin.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(competition_table__round__competition=competition)
    assert admin.url.endswith(f"/games/{game.pk}/")

    # The second phone "scans" table 1: the login first, then the table's pad.
    second.goto(first_table)
    second.fill("#id_username", "bertil")
    second.fill("#id_password", "bertil-kille-121")
    second.get_by_role("button", name="Logga in").click()
    second.wait_for_url(f"**/games/{game.pk}/")
    expect(second.locator("#pad")).to_be_visible()
    second.screenshot(path=output_dir / "3-the-second-phone-on-table-1s-pad.png")

    # Back on the competition page table 1 is playing, with "Open the pad" instead of "Start".
    admin.goto(live_server.url + reverse("competitions:detail", args=[club.slug, competition.pk]))
    table_1 = admin.get_by_test_id("competition-table-1")
    expect(table_1.get_by_test_id("open-table-pad")).to_be_visible()
    expect(table_1.get_by_test_id("start-table-game")).to_have_count(0)
    board = live_server.url + reverse("competitions:board", args=[club.slug, competition.pk])
    admin.goto(board)
    expect(admin.get_by_test_id("progress")).to_contain_text("0 av 2 bord klara")
    assert_fits_the_phone(admin)
    admin.screenshot(path=output_dir / "4-the-board.png", full_page=True)
    competition.refresh_from_db()
    assert competition.status == Status.RUNNING
