"""What a treasurer records by hand, turned into balanced ledger postings.

Each kind of payment is a pair of entries (credit positive, see club.models):
- cash in:    a member hands the treasurer money        cash −x, member +x
- payout:     the club pays a member out of the box     member −x, cash +x
- dues cash:  dues paid in cash, never charged before   cash −x, dues income +x
- expense:    the club buys coffee                      expenses −x, cash +x
- transfer:   one member owes another                   from −x, to +x
- settlement: a debtor pays a creditor outside the box  debtor +x, creditor −x
"""

from __future__ import annotations

from datetime import date as Date

from django.db.models import TextChoices
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from club.models import Club, Member, User
from ledger.accounts import member_account, system_account
from ledger.models import AccountKind, Source, Transaction
from ledger.postings import LedgerError, legs_for_transfer, post


class PaymentKind(TextChoices):
    CASH_IN = "cash_in", gettext_lazy("Member pays in")
    PAYOUT = "payout", gettext_lazy("Payout to member")
    DUES_CASH = "dues_cash", gettext_lazy("Dues paid in cash")
    EXPENSE = "expense", gettext_lazy("Club expense")


NEEDS_MEMBER = {PaymentKind.CASH_IN, PaymentKind.PAYOUT, PaymentKind.DUES_CASH}


def record_payment(
    club: Club,
    kind: str,
    amount_ore: int,
    memo: str,
    by: User | None,
    *,
    member: Member | None = None,
    date: Date | None = None,
    key: str | None = None,
) -> Transaction:
    kind = PaymentKind(kind)
    cash = system_account(club, AccountKind.CASH)
    if kind in NEEDS_MEMBER and member is None:
        raise LedgerError(_("Choose the member."), code="member_required")
    if kind is PaymentKind.CASH_IN:
        legs = legs_for_transfer(cash, member_account(member), amount_ore)
        source = Source.MANUAL
    elif kind is PaymentKind.PAYOUT:
        legs = legs_for_transfer(member_account(member), cash, amount_ore)
        source = Source.MANUAL
    elif kind is PaymentKind.DUES_CASH:
        income = system_account(club, AccountKind.DUES_INCOME)
        legs = legs_for_transfer(cash, income, amount_ore)
        source = Source.DUES
    else:
        expenses = system_account(club, AccountKind.EXPENSES)
        legs = legs_for_transfer(expenses, cash, amount_ore)
        source = Source.MANUAL
    memo = memo.strip() or str(kind.label) + (f": {member.name}" if member else "")
    return post(club, legs, memo, source, by, date=date, key=key)


def record_transfer(
    club: Club,
    payer: Member,
    payee: Member,
    amount_ore: int,
    memo: str,
    by: User | None,
    *,
    key: str | None = None,
) -> Transaction:
    if payer.pk == payee.pk:
        raise LedgerError(_("Choose two different members."), code="same_member")
    legs = legs_for_transfer(member_account(payer), member_account(payee), amount_ore)
    memo = memo.strip() or f"{payer.name} → {payee.name}"
    return post(club, legs, memo, Source.MANUAL, by, key=key)


def record_settlement(
    club: Club,
    payer_key: str,
    payee_key: str,
    amount_ore: int,
    by: User | None,
    *,
    key: str | None = None,
    ref: str = "",
) -> Transaction:
    """``payer`` paid ``payee`` outside the books (Swish, cash between them).

    Keys are account keys ("member:12") or "cash" for the club's box; ``ref`` ties the payment
    to what it settles (``evening:<id>:paid``: tonight's settle-up counts it).
    """
    accounts = {a.key: a for a in club.accounts.filter(key__in=[payer_key, payee_key])}
    if payer_key == "cash":
        accounts["cash"] = system_account(club, AccountKind.CASH)
    if payee_key == "cash":
        accounts["cash"] = system_account(club, AccountKind.CASH)
    payer, payee = accounts.get(payer_key), accounts.get(payee_key)
    if payer is None or payee is None or payer.pk == payee.pk:
        raise LedgerError(_("Unknown accounts for a settlement."), code="accounts")
    legs = [(payer, amount_ore), (payee, -amount_ore)]
    memo = _("Settlement: %(payer)s → %(payee)s") % {"payer": payer.name, "payee": payee.name}
    return post(club, legs, memo, Source.SETTLEMENT, by, key=key, ref=ref)
