"""Balances: an account's now, at a date, and the whole club's at the end of a day.

``Account.balance_ore`` is "now" (one row read), kept by ``ledger.postings`` with ``F()``
updates. A balance at a date is a sum of entries over the (account, date) index — or, for a
recent date, the cached balance less the entries after it, whichever side of the date is
shorter (``opening_balance``). ``verify_balances`` is the check that the cache and the entries
agree and that every transaction sums to zero (``manage.py check_ledger``,
``ledger.checks``).
"""

from __future__ import annotations

from datetime import date as Date
from datetime import timedelta

from django.db.models import F, Max, Min, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Coalesce

from club.models import Club
from ledger.models import Account, Entry


def balance(account: Account, at: Date | None = None) -> int:
    """The balance now (the cached column), or at the end of the day ``at``."""
    if at is None or at == Date.max:
        return Account.objects.values_list("balance_ore", flat=True).get(pk=account.pk)
    return opening_balance(account, at + timedelta(days=1))


def opening_balance(account: Account, start: Date | None) -> int:
    """The balance at the start of the day ``start`` (0 without one).

    One sum over the (account, date) index, of the shorter side of ``start`` in the account's
    span of dates: the entries before it, or — for a recent date, the usual case — the cached
    balance less the entries from it on, in one statement (a posting in between cannot come
    between the two). The span is two index probes."""
    if start is None:
        return 0
    span = Entry.objects.filter(account=account).aggregate(first=Min("date"), last=Max("date"))
    if span["first"] is None:
        return 0
    if start - span["first"] <= span["last"] - start:
        before = Entry.objects.filter(account=account, date__lt=start)
        return before.aggregate(s=Sum("amount_ore"))["s"] or 0
    since = (
        Entry.objects.filter(account=OuterRef("pk"), date__gte=start)
        .order_by()
        .values("account_id")
        .annotate(s=Sum("amount_ore"))
        .values("s")
    )
    opening = F("balance_ore") - Coalesce(Subquery(since), 0)
    return Account.objects.filter(pk=account.pk).values_list(opening, flat=True).get()


def entries_between(account: Account, start: Date | None = None, end: Date | None = None):
    """The account's entries between two dates (both included; None: no bound), unordered."""
    entries = Entry.objects.filter(account=account)
    if start is not None:
        entries = entries.filter(date__gte=start)
    if end is not None:
        entries = entries.filter(date__lte=end)
    return entries


def balances_at(club: Club, at: Date) -> dict[int, int]:
    """Every account's balance at the end of ``at``, in one grouped query."""
    sums = (
        Entry.objects.filter(account__club=club, date__lte=at)
        .values("account_id")
        .annotate(s=Sum("amount_ore"))
    )
    return {row["account_id"]: row["s"] for row in sums}


def verify_balances(club: Club) -> list[str]:
    """Every cached balance equals the sum of its entries, and all entries sum to zero."""
    problems = []
    sums = dict(
        Entry.objects.filter(account__club=club)
        .values("account_id")
        .annotate(s=Sum("amount_ore"))
        .values_list("account_id", "s")
    )
    for account in Account.objects.filter(club=club):
        if account.balance_ore != sums.get(account.pk, 0):
            problems.append(
                f"{account.key}: cached {account.balance_ore}, entries {sums.get(account.pk, 0)}"
            )
    unbalanced = (
        Entry.objects.filter(transaction__club=club)
        .values("transaction_id")
        .annotate(s=Sum("amount_ore"))
        .filter(~Q(s=0))
    )
    problems.extend(f"transaction {row['transaction_id']} sums to {row['s']}" for row in unbalanced)
    return problems
