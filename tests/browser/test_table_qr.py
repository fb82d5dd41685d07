"""A table's QR code, scanned (issue 28, item 4): the host's phone shows the table's code and
link on the evening page; a second phone, another member's with its own login, opens that link,
lands on the table's pad and records a deal there; the host's pad shows it. Screenshots in
test-results/."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

import evenings
from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member, User
from scoring import recording
from tests.browser.conftest import log_in, seated, tap
from tests.browser.test_tap_targets import _MEASURE, MIN_PX
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STOPP_DEAL = ["st-cards-s0-0", "st-cards-s1-2", "st-cards-s2-3"]


def test_a_second_phone_opens_the_tables_link_and_records_there(live_server, phones, output_dir):
    club = demo_members()
    players = seated(club, 3)
    evening = evenings.open_evening(club, None)
    here = [evenings.check_in(evening, None, member=m) for m in players]
    [table] = evenings.form_tables(evening, "stopp", [here], None)
    game = recording.start_game(club, "stopp", players, None, table=table)
    bertil = Member.objects.get(club=club, name="Bertil Holm")
    bertil.user = User.objects.create_user("bertil", password="bertil-kille-121")
    bertil.save(update_fields=["user"])

    host, second = phones(), phones()
    log_in(host, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    host.goto(live_server.url + reverse("evenings:detail", args=[club.slug, evening.pk]))
    host.get_by_test_id("table-qr").locator("summary").click()
    expect(host.get_by_test_id("table-qr").locator("svg")).to_be_visible()
    link = host.get_by_test_id("table-link").get_attribute("data-table-url")
    assert link.startswith(f"{live_server.url}/t/")
    host.screenshot(path=output_dir / "the-evening-page-with-the-tables-code.png")
    assert host.evaluate(_MEASURE, MIN_PX) == []  # the crawl of tap targets never opens an evening
    host.goto(link)  # the host's own phone goes to the pad too
    expect(host.locator("#pad")).to_have_attribute("data-seq", "0")

    # The second phone "scans": it opens the link, logs in (next=…) and lands on the pad.
    second.goto(link)
    expect(second.get_by_test_id("pad-note")).to_be_visible()  # read-only before the login
    assert second.evaluate(_MEASURE, MIN_PX) == []
    second.get_by_test_id("follow-login").click()
    second.fill("#id_username", "bertil")
    second.fill("#id_password", "bertil-kille-121")
    second.get_by_role("button", name="Logga in").click()
    second.wait_for_url(f"**/games/{game.pk}/")
    for testid in STOPP_DEAL:
        tap(second, testid)
    second.get_by_test_id("st-record").click()
    expect(second.locator("#pad")).to_have_attribute("data-seq", "1")
    expect(host.locator("#pad")).to_have_attribute("data-seq", "1")  # its poll brought it
    host.screenshot(path=output_dir / "the-hosts-pad-after-the-second-phones-deal.png")
