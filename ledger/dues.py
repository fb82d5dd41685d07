"""Membership dues: a club's fee per month or per year, charged to every active member once.

``charge_dues(club)`` posts, for each active member, the fee from the member's account to the
club's dues income (the member then owes it: ``member −fee, dues income +fee``; paying it in
cash later is an ordinary "member pays in"). Running it again in the same period charges
nobody twice: each charge carries the ledger key ``dues:<club>:<period>:<member>``, and the
unique constraint on ``(club, key)`` makes a second posting — from a second run, a second
worker, or the treasurer's "charge now" racing the beat — return the first one unchanged.

Periods are calendar months ("2026-03") or calendar years ("2026") in the club's time zone.
The daily beat task charges what is due for the period holding today, so a member who joins
mid-period is charged the next morning, and a run missed one day is made up the next.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date as Date

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from club.models import Club, Member, User
from ledger.accounts import member_account, system_account
from ledger.models import AccountKind, DuesPlan, Source, Transaction
from ledger.postings import check_amount, legs_for_transfer, post

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DuesPeriod:
    label: str  # "2026" or "2026-03": part of the idempotency key, never changes meaning
    start: Date
    end: Date


def period_for(interval: str, day: Date) -> DuesPeriod:
    if interval == DuesPlan.Interval.MONTHLY:
        start = day.replace(day=1)
        following = (
            start.replace(year=start.year + 1, month=1)
            if start.month == 12
            else start.replace(month=start.month + 1)
        )
        end = following.fromordinal(following.toordinal() - 1)
        return DuesPeriod(f"{day.year}-{day.month:02d}", start, end)
    return DuesPeriod(str(day.year), Date(day.year, 1, 1), Date(day.year, 12, 31))


def charge_key(club: Club, period: DuesPeriod, member: Member) -> str:
    return f"dues:{club.pk}:{period.label}:{member.pk}"


@dataclass
class DuesRun:
    period: DuesPeriod | None
    charged: list[Member] = field(default_factory=list)
    already: int = 0
    refused: list[tuple[Member, str]] = field(default_factory=list)


def save_plan(club: Club, fee_ore: int, interval: str, active: bool) -> DuesPlan:
    """Set the club's fee; a fee above the ceiling (``ledger.check_amount``) is refused here,
    not member by member in the nightly run."""
    check_amount(fee_ore, club)
    if fee_ore <= 0:
        raise ValidationError(_("The fee must be more than 0."), code="zero")
    plan, _created = DuesPlan.objects.update_or_create(
        club=club, defaults={"fee_ore": fee_ore, "interval": interval, "active": active}
    )
    return plan


def charge_dues(club: Club, by: User | None = None, today: Date | None = None) -> DuesRun:
    """Charge every active member who has not been charged for the current period."""
    plan = DuesPlan.objects.filter(club=club, active=True).first()
    if plan is None:
        return DuesRun(period=None)
    today = today or timezone.localdate()
    period = period_for(plan.interval, today)
    members = list(Member.objects.for_club(club).active().order_by("pk"))
    keys = {member.pk: charge_key(club, period, member) for member in members}
    done = set(
        Transaction.objects.filter(club=club, key__in=keys.values()).values_list("key", flat=True)
    )
    run = DuesRun(period=period, already=len(done))
    income = system_account(club, AccountKind.DUES_INCOME)
    # Stored memos are in the club's language, whoever (or whatever) runs the charge.
    with translation.override(settings.LANGUAGE_CODE):
        memo_text = _("Membership fee %(period)s")
    for member in members:
        key = keys[member.pk]
        if key in done:
            continue
        account = member_account(member)
        try:
            post(
                club,
                legs_for_transfer(account, income, plan.fee_ore),
                memo_text % {"period": period.label},
                Source.DUES,
                by,
                date=today,
                key=key,
            )
        except ValidationError as error:
            log.warning("dues for %s in %s refused: %s", member, period.label, error.messages)
            run.refused.append((member, " ".join(error.messages)))
            continue
    posted = set(
        Transaction.objects.filter(club=club, key__in=keys.values()).values_list("key", flat=True)
    )
    run.charged = [m for m in members if keys[m.pk] in posted - done]
    return run


def charge_all_dues(today: Date | None = None) -> dict[int, int]:
    """Every club with an active plan: what the beat runs daily. Club id → members charged."""
    result = {}
    for club_id in DuesPlan.objects.filter(active=True).values_list("club_id", flat=True):
        # One posting per member, each its own transaction: a run cut short is completed by
        # the next one, never doubled. One club's failure must not stop the others' charges.
        try:
            run = charge_dues(Club.objects.get(pk=club_id), today=today)
        except Exception:
            log.exception("dues for club %s failed; the other clubs are charged", club_id)
            continue
        result[club_id] = len(run.charged)
    return result


def period_status(club: Club, today: Date | None = None) -> dict | None:
    """For the treasurer's page: the current period and how many are charged in it."""
    plan = DuesPlan.objects.filter(club=club).first()
    if plan is None:
        return None
    period = period_for(plan.interval, today or timezone.localdate())
    prefix = f"dues:{club.pk}:{period.label}:"
    charged_ids = {
        int(key.rsplit(":", 1)[1])
        for key in Transaction.objects.filter(club=club, key__startswith=prefix).values_list(
            "key", flat=True
        )
    }
    active = list(Member.objects.for_club(club).active())
    return {
        "period": period,
        "charged": sum(1 for m in active if m.pk in charged_ids),
        "active": len(active),
        "uncharged": [m for m in active if m.pk not in charged_ids],
    }
