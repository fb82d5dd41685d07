"""After an evening, the treasurer settles up on a phone: reads the payments aloud, shows a
Swish QR code to the payer, and records a payment once it is made."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import ledger
from club.demo import DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member
from ledger.models import Source, Transaction
from tests.browser.conftest import assert_fits_the_phone, log_in
from tests.demo import demo_members

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_treasurer_settles_up_with_swish_and_records_a_payment(page, live_server, output_dir):
    club = demo_members()
    accounts = {
        m.name.split()[0]: ledger.member_account(m) for m in Member.objects.filter(club=club)
    }
    # An evening of Kille: Bertil and Cecilia lost, Doris and Einar won.
    ledger.post(
        club,
        [
            (accounts["Bertil"], -12500),
            (accounts["Cecilia"], -4000),
            (accounts["Doris"], 9000),
            (accounts["Einar"], 7500),
        ],
        "Kille",
        Source.GAME,
        None,
    )
    log_in(page, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    page.goto(f"{live_server.url}/c/{club.slug}/ledger/")
    page.locator(f"a[href='/c/{club.slug}/ledger/settle/']").click()

    payments = page.get_by_test_id("payment")
    expect(payments).to_have_count(3)
    expect(payments.nth(0).locator(".say")).to_have_text(
        "Bertil Holm betalar 90,00\u00a0kr till Doris Ek."
    )
    expect(payments.nth(1).locator(".say")).to_have_text(
        "Bertil Holm betalar 35,00\u00a0kr till Einar Sjöberg."
    )
    expect(payments.nth(2).locator(".say")).to_have_text(
        "Cecilia Berg betalar 40,00\u00a0kr till Einar Sjöberg."
    )
    link = payments.nth(0).get_by_test_id("swish-link")
    expect(link).to_have_attribute(
        "href", re.compile(r"^https://app\.swish\.nu/1/p/sw/\?sw=46701234504&amt=90\.00&cur=SEK&")
    )
    payments.nth(0).locator("summary").click()
    qr = payments.nth(0).get_by_test_id("swish-qr").locator("svg")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box["width"] >= 180  # big enough to scan from across the table
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "settle-up.png", full_page=True)

    payments.nth(0).get_by_test_id("record-payment").click()
    expect(page.get_by_role("status")).to_be_visible()
    expect(page.get_by_test_id("payment")).to_have_count(2)
    expect(page.get_by_test_id("payment").nth(0).locator(".say")).to_have_text(
        "Bertil Holm betalar 35,00\u00a0kr till Einar Sjöberg."
    )
    assert ledger.balance(accounts["Bertil"]) == -3500
    assert ledger.balance(accounts["Doris"]) == 0
    assert Transaction.objects.filter(club=club, source=Source.SETTLEMENT).count() == 1

    # Part of a balance: Cecilia pays 15 kr of her 40 now.
    page.locator("details.card summary").click()
    page.get_by_label("Medlem").select_option(value=accounts["Cecilia"].key)
    page.locator("#id_one-amount").fill("15")
    page.get_by_test_id("settle-one").locator("button").click()
    expect(page.get_by_test_id("payment")).to_have_count(1)
    expect(page.get_by_test_id("payment").locator(".say")).to_have_text(
        "Cecilia Berg betalar 15,00\u00a0kr till Einar Sjöberg."
    )
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "settle-part.png", full_page=True)
