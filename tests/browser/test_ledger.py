"""A treasurer runs an evening's money on a phone: records who paid in, sees it, settles."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import ledger
from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member
from tests.browser.conftest import assert_fits_the_phone, log_in
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_treasurer_records_a_payment_and_sees_the_balance(page, live_server, output_dir):
    club = demo_members()
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.get_by_role("navigation", name="Delar").get_by_role("link", name="Kassa").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Kassa")
    page.get_by_role("link", name="Betalning").click()

    page.get_by_label("Medlem betalar in").check()
    page.get_by_label("Medlem", exact=True).select_option(label="Bertil Holm")
    page.get_by_label("Belopp").fill("125,505")
    page.get_by_role("button", name="Bokför").click()
    expect(page.get_by_text("Ett belopp har högst två decimaler (ören).")).to_be_visible()

    page.get_by_label("Belopp").fill("125,50 kr")
    page.get_by_role("button", name="Bokför").click()
    expect(page).to_have_url(re.compile(rf"/c/{club.slug}/ledger/$"))
    expect(page.get_by_role("status")).to_contain_text("Bokfört")
    bertil = page.locator(".money-row", has_text="Bertil Holm")
    expect(bertil).to_contain_text("125,50\u00a0kr")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "ledger-overview.png", full_page=True)

    account = ledger.member_account(Member.objects.get(club=club, name="Bertil Holm"))
    assert ledger.balance(account) == 12550
