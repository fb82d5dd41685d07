"""Membership dues: charged once per member and period, by the beat task or "charge now"."""

from __future__ import annotations

from datetime import date

import pytest
import time_machine
from django.conf import settings
from django.core.exceptions import ValidationError
from django.urls import reverse

import ledger
from config.celery import app
from ledger import dues
from ledger.models import AccountKind, DuesPlan, Source, Transaction
from ledger.tasks import charge_all_dues_task, charge_dues_task
from tests.conftest import client_for
from tests.factories import ledger_url_name, make_member


def dues_url(club, name="ledger-dues"):
    return reverse(ledger_url_name(name), args=[club.slug])


@pytest.fixture
def yearly(club):
    return dues.save_plan(club, 25000, DuesPlan.Interval.YEARLY, active=True)


def income(club) -> int:
    return ledger.balance(ledger.system_account(club, AccountKind.DUES_INCOME))


def test_running_twice_in_a_period_charges_each_member_once(club, member, treasurer, yearly):
    first = dues.charge_dues(club, today=date(2026, 3, 1))
    second = dues.charge_dues(club, today=date(2026, 11, 30))
    assert sorted(m.name for m in first.charged) == ["Kerstin Kassör", "Maja Medlem"]
    assert second.charged == []
    assert second.already == 2
    assert ledger.balance(ledger.member_account(member)) == -25000
    assert income(club) == 50000
    assert Transaction.objects.filter(club=club, source=Source.DUES).count() == 2
    assert ledger.verify_balances(club) == []


def test_the_key_not_the_pre_check_stops_a_second_charge(club, member, yearly, monkeypatch):
    dues.charge_dues(club, today=date(2026, 3, 1))
    # A second run that read "nobody charged yet" before the first committed: the ledger's
    # unique key makes its postings no-ops.
    monkeypatch.setattr(dues.Transaction.objects, "filter", lambda **kw: Transaction.objects.none())
    dues.charge_dues(club, today=date(2026, 3, 2))
    monkeypatch.undo()
    assert ledger.balance(ledger.member_account(member)) == -25000
    assert Transaction.objects.filter(club=club, source=Source.DUES).count() == 1


def test_a_new_period_charges_again(club, member):
    dues.save_plan(club, 5000, DuesPlan.Interval.MONTHLY, active=True)
    for day in (date(2026, 1, 31), date(2026, 2, 1), date(2026, 2, 28), date(2026, 12, 31)):
        dues.charge_dues(club, today=day)
    assert ledger.balance(ledger.member_account(member)) == -15000
    keys = sorted(Transaction.objects.filter(club=club).values_list("key", flat=True))
    assert keys == [f"dues:{club.pk}:2026-{m}:{member.pk}" for m in ("01", "02", "12")]


def test_inactive_members_and_inactive_plans_charge_nobody(club, member):
    gone = make_member(club, "Gunnar Gått", login=False)
    gone.active = False
    gone.save()
    dues.save_plan(club, 100, DuesPlan.Interval.YEARLY, active=False)
    assert dues.charge_dues(club).period is None
    dues.save_plan(club, 100, DuesPlan.Interval.YEARLY, active=True)
    charged = dues.charge_dues(club).charged
    assert [m.name for m in charged] == ["Maja Medlem"]
    assert ledger.balance(ledger.member_account(gone)) == 0


def test_a_closed_account_is_reported_not_charged(club, member, yearly):
    ledger.close_account(ledger.member_account(member))
    run = dues.charge_dues(club)
    assert run.charged == []
    assert run.refused[0][0] == member


def test_the_daily_task_charges_every_club_with_a_plan(club, other_club, member, outsider):
    dues.save_plan(club, 1000, DuesPlan.Interval.YEARLY, active=True)
    with time_machine.travel("2026-05-05 04:10 +0200"):
        assert charge_all_dues_task.delay().get() == {str(club.pk): 1}
        assert charge_all_dues_task.delay().get() == {str(club.pk): 0}
        dues.save_plan(other_club, 2000, DuesPlan.Interval.MONTHLY, active=True)
        assert charge_dues_task.delay(other_club.pk).get() == 1
    assert ledger.balance(ledger.member_account(outsider)) == -2000


def test_a_fee_above_the_ceiling_is_refused_before_any_charge(club):
    with pytest.raises(ValidationError) as refusal:
        dues.save_plan(club, settings.MAX_AMOUNT_ORE + 1, DuesPlan.Interval.YEARLY, active=True)
    assert refusal.value.code == "too_large"
    assert not DuesPlan.objects.exists()


def test_a_huge_fee_from_before_the_ceiling_stops_neither_this_club_nor_the_next(
    club, other_club, member, outsider
):
    # A fee saved before there was a ceiling (the probe's 92 233 720 368 547 758 kr): each
    # charge is refused and reported, and the nightly run goes on to every other club.
    DuesPlan.objects.create(club=club, fee_ore=9_223_372_036_854_775_800, active=True)
    dues.save_plan(other_club, 2000, DuesPlan.Interval.YEARLY, active=True)
    run = dues.charge_dues(club)
    assert run.charged == []
    assert [m for m, _reason in run.refused] == [member]
    assert dues.charge_all_dues() == {club.pk: 0, other_club.pk: 1}
    assert ledger.balance(ledger.member_account(outsider)) == -2000
    assert not Transaction.objects.filter(club=club).exists()


def test_one_clubs_failure_does_not_stop_the_nightly_run(club, other_club, outsider, monkeypatch):
    dues.save_plan(club, 1000, DuesPlan.Interval.YEARLY, active=True)
    dues.save_plan(other_club, 2000, DuesPlan.Interval.YEARLY, active=True)
    real = dues.charge_dues

    def failing(target, **kwargs):
        if target.pk == club.pk:
            raise RuntimeError("the database went away")
        return real(target, **kwargs)

    monkeypatch.setattr(dues, "charge_dues", failing)
    assert dues.charge_all_dues() == {other_club.pk: 1}


def test_beat_runs_the_dues_task_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["charge-dues"]
    assert entry["task"] in app.tasks
    assert entry["task"] == charge_all_dues_task.name
    schedule = entry["schedule"]
    assert schedule.hour == {4}
    assert len(schedule.day_of_week) == 7
    assert len(schedule.day_of_month) == 31


# --- the treasurer's page ------------------------------------------------------------------


def test_the_treasurer_sets_the_fee_and_charges_now(treasurer_client, club, member):
    response = treasurer_client.post(
        dues_url(club), {"fee": "250 kr", "interval": "yearly", "active": "on"}
    )
    assert response.status_code == 302
    plan = DuesPlan.objects.get(club=club)
    assert (plan.fee_ore, plan.interval, plan.active) == (25000, "yearly", True)
    page = treasurer_client.get(dues_url(club))
    assert page.context["status"]["charged"] == 0
    assert page.context["form"].initial["fee"] == "250,00\u00a0kr"
    assert treasurer_client.post(dues_url(club, "ledger-dues-charge")).status_code == 302
    assert treasurer_client.post(dues_url(club, "ledger-dues-charge")).status_code == 302
    assert ledger.balance(ledger.member_account(member)) == -25000
    status = treasurer_client.get(dues_url(club)).context["status"]
    assert (status["charged"], status["active"]) == (2, 2)
    tx = Transaction.objects.filter(club=club, source=Source.DUES).first()
    assert tx.created_by.members.get(club=club).is_treasurer


@pytest.mark.parametrize(
    ("fee", "code"),
    [
        ("12,505", "decimals"),
        ("-5", "negative"),
        ("gratis", "invalid"),
        ("0", "zero"),
        ("1000000,01", "too_large"),
    ],
)
def test_a_bad_fee_is_a_field_error_and_nothing_is_saved(treasurer_client, club, fee, code):
    response = treasurer_client.post(dues_url(club), {"fee": fee, "interval": "yearly"})
    assert response.status_code == 422
    assert response.context["form"].has_error("fee", code=code)
    assert not DuesPlan.objects.exists()


def test_charge_now_without_a_plan_charges_nobody(treasurer_client, club, member):
    treasurer_client.post(dues_url(club, "ledger-dues-charge"))
    assert not Transaction.objects.exists()


def test_a_member_cannot_and_another_clubs_treasurer_sees_nothing(
    member_client, club, other_club, yearly
):
    assert member_client.get(dues_url(club)).status_code == 403
    assert member_client.post(dues_url(club, "ledger-dues-charge")).status_code == 403
    stranger = client_for(make_member(other_club, "Främling", roles=["treasurer"]))
    assert stranger.get(dues_url(club)).status_code == 404
    assert stranger.post(dues_url(club, "ledger-dues-charge")).status_code == 404
    assert not Transaction.objects.exists()
