from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

import ledger
from ledger.models import AccountKind, Transaction
from tests.conftest import client_for
from tests.factories import ledger_url_name, make_member


def url(club, name, *args):
    return reverse(ledger_url_name(name), args=[club.slug, *args])


def test_a_treasurer_records_cash_in_and_the_overview_shows_it(treasurer_client, club, member):
    page = treasurer_client.get(url(club, "ledger-payment"))
    submission = page.context["form"].initial["submission"]
    data = {
        "kind": "cash_in",
        "member": member.pk,
        "amount": "150,50 kr",
        "memo": "",
        "date": "2026-11-20",
        "submission": submission,
    }
    assert treasurer_client.post(url(club, "ledger-payment"), data).status_code == 302
    # A double tap sends the same form again: it records once.
    assert treasurer_client.post(url(club, "ledger-payment"), data).status_code == 302
    assert Transaction.objects.filter(club=club).count() == 1
    assert ledger.balance(ledger.member_account(member)) == 15050
    assert ledger.system_account(club, AccountKind.CASH).shown_balance == 15050
    overview = treasurer_client.get(url(club, "ledger")).content.decode()
    assert "150,50\u00a0kr" in overview


@pytest.mark.parametrize("amount", ["12,505", "tolv", "-5", "0"])
def test_a_bad_amount_is_a_field_error_and_nothing_is_posted(
    treasurer_client, club, member, amount
):
    data = {
        "kind": "cash_in",
        "member": member.pk,
        "amount": amount,
        "date": "2026-11-20",
        "submission": "k1",
    }
    response = treasurer_client.post(url(club, "ledger-payment"), data)
    assert response.status_code == 422
    assert response.context["form"].errors["amount"]
    assert Transaction.objects.count() == 0


def test_a_payment_in_needs_a_member(treasurer_client, club):
    data = {"kind": "cash_in", "amount": "10", "date": "2026-11-20", "submission": "k1"}
    response = treasurer_client.post(url(club, "ledger-payment"), data)
    assert response.context["form"].has_error("member")


def test_a_club_expense_needs_no_member(treasurer_client, club):
    data = {
        "kind": "expense",
        "amount": "80",
        "memo": "Kaffe",
        "date": "2026-11-20",
        "submission": "k1",
    }
    treasurer_client.post(url(club, "ledger-payment"), data)
    assert ledger.system_account(club, AccountKind.EXPENSES).shown_balance == 8000
    assert ledger.system_account(club, AccountKind.CASH).shown_balance == -8000


def test_a_transfer_between_members(treasurer_client, club, member, scorer):
    data = {
        "payer": member.pk,
        "payee": scorer.pk,
        "amount": "25",
        "memo": "Lån",
        "submission": "k",
    }
    treasurer_client.post(url(club, "ledger-transfer"), data)
    assert ledger.member_account(member).balance_ore == -2500
    assert ledger.member_account(scorer).balance_ore == 2500


def test_a_transfer_to_oneself_is_refused(treasurer_client, club, member):
    data = {"payer": member.pk, "payee": member.pk, "amount": "25", "submission": "k"}
    response = treasurer_client.post(url(club, "ledger-transfer"), data)
    assert response.context["form"].has_error("payee", code="same_member")


@pytest.mark.parametrize("name", ["ledger-payment", "ledger-transfer"])
@pytest.mark.parametrize("submission", [None, "", "ab\x00cd", "x" * 65])
def test_a_post_without_its_submission_key_is_refused_and_posts_nothing(
    treasurer_client, club, member, scorer, name, submission
):
    data = {
        "kind": "cash_in",
        "member": member.pk,
        "payer": member.pk,
        "payee": scorer.pk,
        "amount": "10",
        "date": "2026-11-20",
    }
    if submission is not None:
        data["submission"] = submission
    for _ in range(2):  # each resend would otherwise post again
        response = treasurer_client.post(url(club, name), data)
        assert response.status_code == 422
        assert response.context["form"].has_error("submission")
        if not submission:
            assert "utan sin inskickningsnyckel" in response.content.decode()
    assert not Transaction.objects.exists()


def test_an_empty_post_is_refused_too(treasurer_client, club):
    response = treasurer_client.post(url(club, "ledger-payment"))
    assert response.status_code == 422
    assert not Transaction.objects.exists()


def test_the_probes_huge_transfer_is_refused_with_the_ceiling_in_kronor(
    treasurer_client, club, member, scorer
):
    data = {"payer": member.pk, "payee": scorer.pk, "submission": "k", "amount": ""}
    for amount in ("92233720368547758", "1000000,01", "1 000 001 kr"):
        response = treasurer_client.post(url(club, "ledger-transfer"), data | {"amount": amount})
        assert response.status_code == 422
        assert response.context["form"].has_error("amount", code="too_large")
    response = treasurer_client.post(url(club, "ledger-transfer"), data | {"amount": "1000000,01"})
    assert "Ett belopp får vara högst 1\u00a0000\u00a0000,00\u00a0kr." in response.content.decode()
    assert not Transaction.objects.exists()
    response = treasurer_client.post(url(club, "ledger-transfer"), data | {"amount": "1000000"})
    assert response.status_code == 302
    assert ledger.member_account(scorer).balance_ore == 100_000_000


def test_a_reversal_needs_a_reason_and_restores_balances(treasurer_client, club, member, treasurer):
    tx = ledger.post(
        club,
        ledger.legs_for_transfer(
            ledger.system_account(club, "cash"), ledger.member_account(member), 500
        ),
        "In",
        "manual",
        treasurer.user,
    )
    assert (
        treasurer_client.post(url(club, "ledger-reverse", tx.pk), {"reason": ""}).status_code == 422
    )
    response = treasurer_client.post(url(club, "ledger-reverse", tx.pk), {"reason": "Fel person"})
    assert response.status_code == 302
    assert ledger.member_account(member).balance_ore == 0
    page = treasurer_client.get(url(club, "ledger-transaction", tx.pk)).content.decode()
    assert "Fel person" in page


@pytest.mark.books_by_hand
def test_a_game_transaction_links_to_its_game_and_cannot_be_reversed_from_the_books(
    treasurer_client, club, member, treasurer
):
    ref = "game:41:event:3"
    pot = ledger.pot_account(club, "pot:polskt_pass", "Pott: Polskt pass")
    tx = ledger.post(
        club,
        ledger.legs_for_transfer(pot, ledger.member_account(member), 800),
        "Polskt pass #41: Maja vann betet",
        "game",
        None,
        key=ref,
        ref=ref,
    )
    page = treasurer_client.get(url(club, "ledger-transaction", tx.pk)).content.decode()
    assert reverse("scoring:game-detail", args=[club.slug, 41]) in page
    assert "spel #41" in page
    assert url(club, "ledger-reverse", tx.pk) not in page

    response = treasurer_client.post(url(club, "ledger-reverse", tx.pk), {"reason": "Fel"})
    assert response.status_code == 422
    assert "Ångra händelsen eller makulera spelet" in response.content.decode()
    assert Transaction.objects.filter(club=club).count() == 1
    assert ledger.member_account(member).balance_ore == 800
    assert treasurer_client.post(url(club, "ledger-reverse", tx.pk), {}).status_code == 422
    assert Transaction.objects.filter(club=club).count() == 1


def test_a_member_cannot_post_or_reverse(member_client, club, member, treasurer):
    assert member_client.get(url(club, "ledger-payment")).status_code == 403
    assert member_client.post(url(club, "ledger-transfer"), {}).status_code == 403
    tx = ledger.post(
        club,
        ledger.legs_for_transfer(
            ledger.system_account(club, "cash"), ledger.member_account(member), 500
        ),
        "In",
        "manual",
        treasurer.user,
    )
    assert (
        member_client.post(url(club, "ledger-reverse", tx.pk), {"reason": "x"}).status_code == 403
    )
    assert Transaction.objects.count() == 1


def test_a_member_sees_their_own_statement_and_the_pots_but_not_others(
    member_client, club, member, scorer
):
    own = ledger.member_account(member)
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    assert member_client.get(url(club, "ledger-account", own.pk)).status_code == 200
    assert member_client.get(url(club, "ledger-account", pot.pk)).status_code == 200
    other = ledger.member_account(scorer)
    assert member_client.get(url(club, "ledger-account", other.pk)).status_code == 404
    assert member_client.get(url(club, "ledger-me"))["Location"] == url(
        club, "ledger-account", own.pk
    )


def test_a_statement_filters_by_date_and_refuses_reversed_dates(member_client, club, member):
    own = ledger.member_account(member)
    response = member_client.get(
        url(club, "ledger-account", own.pk), {"start": "2026-12-01", "end": "2026-11-01"}
    )
    assert response.context["form"].errors


def test_a_treasurer_of_one_club_cannot_touch_another(club, other_club, treasurer):
    stranger = make_member(other_club, "Främling")
    account = ledger.member_account(stranger)
    client = client_for(treasurer)
    assert client.get(reverse("ledger:account", args=[club.slug, account.pk])).status_code == 404
    assert client.get(reverse("ledger:overview", args=[other_club.slug])).status_code == 404


def test_the_overview_makes_the_same_few_queries_for_many_members(
    treasurer_client, club, django_assert_max_num_queries
):
    for n in range(30):
        make_member(club, f"Extra {n}", login=False)
    with django_assert_max_num_queries(8):
        treasurer_client.get(url(club, "ledger"))


def test_closing_a_period_from_the_page(treasurer_client, club):
    response = treasurer_client.post(
        url(club, "ledger-periods"), {"name": "Oktober", "start": "2026-10-01", "end": "2026-10-31"}
    )
    assert response.status_code == 302
    report = treasurer_client.get(response["Location"])
    assert "Oktober" in report.content.decode()


@pytest.mark.parametrize("day", ["0001-01-01", "9999-12-31", "1900-01-01"])
def test_a_payment_dated_far_from_today_is_a_field_error(treasurer_client, club, member, day):
    data = {
        "kind": "cash_in",
        "member": member.pk,
        "amount": "10",
        "date": day,
        "submission": "k1",
    }
    response = treasurer_client.post(url(club, "ledger-payment"), data)
    assert response.status_code == 422
    assert response.context["form"].has_error("date", code="date_range")
    assert Transaction.objects.count() == 0


@pytest.mark.parametrize("memo", ["Kaffe\x00", "Kaffe\x1b[31m", "x" * 201])
def test_a_note_that_no_column_can_hold_is_a_field_error(treasurer_client, club, member, memo):
    data = {"kind": "expense", "amount": "10", "memo": memo, "date": "", "submission": "k1"}
    data["date"] = timezone.localdate().isoformat()
    response = treasurer_client.post(url(club, "ledger-payment"), data)
    assert response.status_code == 422
    assert response.context["form"].has_error("memo")
    assert Transaction.objects.count() == 0


def test_closing_a_period_from_the_first_day_of_the_calendar_is_a_form_error(
    treasurer_client, club
):
    data = {"name": "Allt", "start": "0001-01-01", "end": "2026-01-31"}
    response = treasurer_client.post(url(club, "ledger-periods"), data)
    assert response.status_code == 200
    assert response.context["form"].has_error("start", code="date_range")


@pytest.mark.parametrize("params", [{"start": "0001-01-01"}, {"end": "9999-12-31"}])
def test_a_statement_for_dates_out_of_range_says_so(member_client, club, member, params):
    account = ledger.member_account(member)
    response = member_client.get(url(club, "ledger-account", account.pk), params)
    assert response.status_code == 200
    assert not response.context["form"].is_valid()
