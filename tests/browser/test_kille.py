"""A scorer records a Kille deal with a showing by tapping, on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

import ledger
from club.models import Role
from ledger.models import Account
from scoring import recording
from tests.browser.conftest import assert_fits_the_phone, open_pad
from tests.factories import PASSWORD, make_member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_scorer_records_a_deal_with_a_showing_by_tapping(page, live_server, output_dir, club):
    anna = make_member(club, "Anna Andersson", roles=[Role.SCORER])
    others = [make_member(club, name) for name in ("Bo Berg", "Cilla Carlsson", "Dan Dahl")]
    game = recording.start_game(club, "kille", [anna, *others], anna.user)

    open_pad(page, live_server, game, anna.user.username, PASSWORD)
    pot = page.get_by_test_id("kille-pot")
    expect(pot).to_contain_text("0,00")
    page.get_by_test_id("ante").click()
    expect(pot).to_contain_text("8,00")

    # Bo (förhand) knocks; from his left Cilla stays, Dan folds, Anna stays; Bo knocks again in
    # the second call.
    page.get_by_test_id("knock-s1").click()
    expect(page.get_by_test_id("stay-s2")).to_be_visible()
    expect(page.get_by_test_id("fold-s3")).to_have_count(0)  # not his turn yet
    page.get_by_test_id("stay-s2").click()
    expect(page.get_by_test_id("fold-s3")).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "kille-fold.png", full_page=True)
    page.get_by_test_id("fold-s3").click()
    expect(page.get_by_test_id("seat-s3")).to_have_class("kille-seat folded")
    page.get_by_test_id("stay-s0").click()
    page.get_by_test_id("knock-s1").click()

    # Cilla took the fourth trick and lays up first.
    expect(page.get_by_test_id("fourth_trick-s2")).to_be_visible()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "kille-tricks.png", full_page=True)
    page.get_by_test_id("fourth_trick-s2").click()
    expect(page.get_by_test_id("show-s2")).to_be_visible()
    page.get_by_test_id("show-s2").click()

    # The last cards, from the Kille grid: Cilla's blaren is lowest.
    expect(page.get_by_test_id("cards-s0")).to_be_visible()
    page.get_by_test_id("card-s0-7").click()
    page.get_by_test_id("card-s1-kille").click()
    page.get_by_test_id("card-s2-blaren").click()
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "kille-reveal.png", full_page=True)
    page.get_by_test_id("reveal").click()

    # Cilla takes 8 kr; Anna and Bo, who lost the showing, pay 2 kr each for the next deal.
    expect(pot).to_contain_text("4,00")
    expect(page.get_by_test_id("seat-s2")).to_contain_text("6,00")
    expect(page.get_by_test_id("seat-s0")).to_contain_text("−4,00")
    expect(page.get_by_test_id("kille-last")).to_contain_text("Cilla Carlsson")
    expect(page.get_by_test_id("bud-s2")).to_be_visible()  # Cilla is förhand in deal 2
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "kille-after-showing.png", full_page=True)

    pot_account = Account.objects.get(club=club, key="pot:kille")
    assert ledger.balance(pot_account) == 400
    assert ledger.balance(ledger.member_account(others[1])) == 600


def test_a_scorer_records_an_elimination_deal(page, live_server, output_dir, club):
    anna = make_member(club, "Anna Andersson", roles=[Role.SCORER])
    others = [make_member(club, name) for name in ("Bo Berg", "Cilla Carlsson")]
    game = recording.start_game(club, "kille_elimination", [anna, *others], anna.user)

    open_pad(page, live_server, game, anna.user.username, PASSWORD)
    page.get_by_test_id("fourth_trick-s1").click()
    page.get_by_test_id("pass-s1").click()
    page.get_by_test_id("declare-s2").click()
    page.get_by_test_id("card-s0-gök").click()
    page.get_by_test_id("card-s1-3").click()
    page.get_by_test_id("card-s2-blaren").click()
    page.get_by_test_id("reveal").click()
    expect(page.get_by_test_id("score-s0")).to_have_text("17")
    expect(page.get_by_test_id("score-s1")).to_have_text("3")
    expect(page.get_by_test_id("score-s2")).to_have_text("0")
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / "kille-elimination.png", full_page=True)
