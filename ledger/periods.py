"""Closing periods: ``close_period`` freezes a stretch of dates.

Postings dated inside a closed period are refused (``ledger.postings``: the correction is
posted today), and the period's opening and closing balances of every account are stored
with it (``PeriodBalance``), so its report never changes afterwards. A closing takes the
club's lock, as postings do, and is sealed in the audit chain (``ledger.audit``).
"""

from __future__ import annotations

from datetime import date as Date
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, User
from ledger import audit
from ledger.balances import balances_at
from ledger.models import AuditRecord, Period, PeriodBalance
from ledger.postings import LedgerError


@transaction.atomic
def close_period(club: Club, name: str, start: Date, end: Date, by: User | None) -> Period:
    """Close the books from ``start`` to ``end``; their report never changes afterwards."""
    if start > end:
        raise LedgerError(_("The period ends before it starts."), code="dates")
    now = timezone.now()
    if end > timezone.localdate(now):
        raise LedgerError(_("A period can only be closed once it has ended."), code="future")
    Club.objects.select_for_update().get(pk=club.pk)
    if Period.objects.filter(club=club, start__lte=end, end__gte=start).exists():
        raise LedgerError(_("The period overlaps one that is already closed."), code="overlap")
    period = Period.objects.create(
        club=club, name=name.strip() or f"{start}–{end}", start=start, end=end, closed_by=by
    )
    # The day before the period (none before the calendar's first day: nothing was booked).
    opening = balances_at(club, start - timedelta(days=1)) if start > Date.min else {}
    closing = balances_at(club, end)
    PeriodBalance.objects.bulk_create(
        PeriodBalance(
            period=period,
            account_id=account_id,
            opening_ore=opening.get(account_id, 0),
            closing_ore=closing.get(account_id, 0),
        )
        for account_id in sorted(set(opening) | set(closing))
    )
    audit.append_books_record(club, AuditRecord.Action.CLOSE, by, now, period=period)
    return period
