"""The treasurer's pages, phone first. Members see the club totals and their own statement.

Every money number on these pages comes from the books' modules (cached balances, or sums of
entries), formatted only by the ``money`` filter.
"""

from __future__ import annotations

import uuid
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.access import club_view
from club.models import Role
from core import inputs
from core.money import format_ore
from ledger import dues, payments, postings, settle
from ledger.accounts import member_account
from ledger.forms import (
    ClosePeriodForm,
    DateRangeForm,
    DuesPlanForm,
    PaymentForm,
    ReverseForm,
    SettleOneForm,
    TransferForm,
)
from ledger.memos import describe
from ledger.models import Account, AccountKind, DuesPlan, Entry, Period, Transaction
from ledger.periods import close_period
from ledger.settle_rows import payment_rows, record_paid
from ledger.statement_pages import statement_page

# The settle-up rows' keys: the page's render key and the row number ("<hex>-3").
MAX_PAGE = 1_000_000  # a statement page number


def _accounts(club) -> list[Account]:
    return list(Account.objects.for_club(club).select_related("member"))


@require_safe
@club_view()
def overview(request: HttpRequest) -> HttpResponse:
    accounts = _accounts(request.club)
    members = sorted(
        (a for a in accounts if a.kind == AccountKind.MEMBER),
        key=lambda a: (-a.balance_ore, a.name),
    )
    own = next((a for a in members if a.member_id == request.member.pk), None)
    context = {
        "system": [
            a
            for a in accounts
            if a.kind not in (AccountKind.MEMBER, AccountKind.POT, AccountKind.BET)
        ],
        "pots": [a for a in accounts if a.kind == AccountKind.POT],
        "bets": [a for a in accounts if a.kind == AccountKind.BET and a.balance_ore],
        "owed": [a for a in members if a.balance_ore > 0],
        "owing": [a for a in members if a.balance_ore < 0],
        "owed_total": sum(a.balance_ore for a in members if a.balance_ore > 0),
        "owing_total": -sum(a.balance_ore for a in members if a.balance_ore < 0),
        "own": own,
        "is_treasurer": request.member.is_treasurer,
    }
    return render(request, "ledger/ledger.html", context)


def _form_error(form, error: ValidationError) -> None:
    form.add_error(None, error)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.TREASURER)
def payment(request: HttpRequest) -> HttpResponse:
    # Bound on every POST, even an empty one: a post without the form's key is refused (422).
    data = request.POST if request.method == "POST" else None
    form = PaymentForm(data, club=request.club, initial=request.GET.dict())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tx = payments.record_payment(
                request.club,
                data["kind"],
                data["amount"],
                data["memo"],
                request.user,
                member=data["member"],
                date=data["date"],
                key=form.ledger_key("payment"),
            )
        except ValidationError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("Recorded: %(memo)s") % {"memo": tx.memo})
            return redirect("ledger:overview", club_slug=request.club.slug)
    return render(
        request,
        "ledger/ledger_form.html",
        {"form": form, "title": _("Record a payment")},
        status=422 if form.is_bound else 200,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.TREASURER)
def transfer(request: HttpRequest) -> HttpResponse:
    form = TransferForm(request.POST if request.method == "POST" else None, club=request.club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tx = payments.record_transfer(
                request.club,
                data["payer"],
                data["payee"],
                data["amount"],
                data["memo"],
                request.user,
                key=form.ledger_key("transfer"),
            )
        except ValidationError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("Recorded: %(memo)s") % {"memo": tx.memo})
            return redirect("ledger:overview", club_slug=request.club.slug)
    return render(
        request,
        "ledger/ledger_form.html",
        {"form": form, "title": _("Transfer between members")},
        status=422 if form.is_bound else 200,
    )


def _visible_transaction(request: HttpRequest, tx_id: int) -> Transaction:
    tx = get_object_or_404(
        Transaction.objects.select_related("reverses", "created_by").prefetch_related(
            Prefetch("entries", queryset=Entry.objects.select_related("account"))
        ),
        pk=tx_id,
        club=request.club,
    )
    if not request.member.is_treasurer and not any(
        e.account.member_id == request.member.pk for e in tx.entries.all()
    ):
        raise Http404
    return tx


@require_safe
@club_view()
def transaction_detail(request: HttpRequest, tx_id: int) -> HttpResponse:
    tx = _visible_transaction(request, tx_id)
    reversal = Transaction.objects.filter(reverses=tx).first()
    describe([tx, tx.reverses, reversal])
    return render(
        request,
        "ledger/transaction_detail.html",
        {"tx": tx, "reversal": reversal, "form": ReverseForm()},
    )


@require_POST
@club_view(role=Role.TREASURER)
def transaction_reverse(request: HttpRequest, tx_id: int) -> HttpResponse:
    tx = _visible_transaction(request, tx_id)
    form = ReverseForm(request.POST)
    if form.is_valid():
        try:
            postings.reverse(tx, form.cleaned_data["reason"], request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The transaction was reversed."))
            return redirect("ledger:transaction", club_slug=request.club.slug, tx_id=tx.pk)
    return render(
        request,
        "ledger/transaction_detail.html",
        {"tx": tx, "reversal": None, "form": form},
        status=422,
    )


def _url_before_id(name: str, club_slug: str) -> str:
    """The route's URL up to its id, for one whose id ends it ("…/tx/<id>/")."""
    return reverse(name, args=[club_slug, 0]).removesuffix("0/")


@require_safe
@club_view()
def account_statement(request: HttpRequest, account_id: int) -> HttpResponse:
    account = get_object_or_404(
        Account.objects.select_related("member"), pk=account_id, club=request.club
    )
    is_own = account.member_id == request.member.pk and account.kind == AccountKind.MEMBER
    public = account.kind in (AccountKind.POT, AccountKind.BET)
    if not (is_own or public or request.member.is_treasurer):
        raise Http404
    form = DateRangeForm(request.GET or None)
    start = end = None
    if form.is_bound and form.is_valid():
        start, end = form.cleaned_data["start"], form.cleaned_data["end"]
    try:
        number = inputs.parse_int(request.GET.get("page", ""), lo=1, hi=MAX_PAGE)
    except ValidationError:
        number = None  # no page, or one that does not read: the latest lines
    stmt = statement_page(account, start, end, number)
    dates = {key: value.isoformat() for key, value in (("start", start), ("end", end)) if value}
    context = {
        "stmt": stmt,
        "lines": stmt.lines,
        "account": account,
        "form": form,
        "query": f"{urlencode(dates)}&" if dates else "",
        # A page links to a hundred deals or more: their links are these plus the id, reversed
        # once (``reverse`` compiles a regular expression for every id it is given).
        "tx_url": _url_before_id("ledger:transaction", request.club.slug),
        "game_url": _url_before_id("scoring:game-detail", request.club.slug),
    }
    return render(request, "ledger/account_statement.html", context)


@require_safe
@club_view()
def my_statement(request: HttpRequest) -> HttpResponse:
    account = member_account(request.member)
    return redirect("ledger:account", club_slug=request.club.slug, account_id=account.pk)


# --- settle-up -----------------------------------------------------------------------------


def _settle_context(request: HttpRequest) -> dict:
    """The plan for the chosen mode (``ledger.settle.members_plan``): fewest payments among
    members, everyone via the club's box, or one member (fully, or a chosen amount of their
    balance)."""
    accounts = [a for a in _accounts(request.club) if a.kind == AccountKind.MEMBER]
    balances = {a.key: a.balance_ore for a in accounts if a.balance_ore}
    names = {a.key: a.name for a in accounts} | {"cash": _("the club")}
    numbers = {a.key: a.member.swish_number for a in accounts} | {"cash": request.club.swish_number}
    debtors = sorted((a for a in accounts if a.balance_ore), key=lambda a: a.name)
    mode = request.GET.get("mode", "all")
    if mode not in settle.MODES:
        mode = "all"
    one_form = SettleOneForm(
        request.GET if mode == "one" else None, accounts=debtors, club=request.club, prefix="one"
    )
    plan: list = []
    try:
        if mode != "one":
            plan = settle.members_plan(balances, mode)
        elif one_form.is_valid():
            data = one_form.cleaned_data
            plan = settle.members_plan(balances, mode, data["member"], data["amount"])
    except settle.SettlementError as error:
        messages.error(request, str(error))
    message = _("%(club)s: settle-up") % {"club": request.club.name}
    rows = payment_rows(plan, names, numbers, message, club=request.club)
    return {
        "rows": rows,
        "mode": mode,
        "one_form": one_form,
        "debtors": debtors,
        # One key per rendering: a double tap on "paid" records once, a later page a new one.
        "render_key": uuid.uuid4().hex,
        # "Paid" comes back to the same plan (its mode and member), recomputed.
        "paid_url": reverse("ledger:settle-confirm", args=[request.club.slug])
        + (f"?{request.GET.urlencode()}" if request.GET else ""),
    }


@require_safe
@club_view(role=Role.TREASURER)
def settle_up(request: HttpRequest) -> HttpResponse:
    return render(request, "ledger/settle_up.html", _settle_context(request))


@require_POST
@club_view(role=Role.TREASURER)
def settle_confirm(request: HttpRequest) -> HttpResponse:
    refused = record_paid(request, key_prefix="settle")
    if refused is not None:
        return refused
    target = reverse("ledger:settle", args=[request.club.slug])
    # Back to the same plan, recomputed; a part payment is not proposed again.
    params = request.GET.copy()
    params.pop("one-amount", None)
    query = params.urlencode()
    return redirect(f"{target}?{query}" if query else target)


# --- dues ------------------------------------------------------------------------------------


def _dues_page(request: HttpRequest, form: DuesPlanForm, status: int = 200) -> HttpResponse:
    context = {"form": form, "status": dues.period_status(request.club)}
    return render(request, "ledger/dues.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.TREASURER)
def dues_plan(request: HttpRequest) -> HttpResponse:
    plan = DuesPlan.objects.filter(club=request.club).first()
    initial = (
        {"fee": format_ore(plan.fee_ore), "interval": plan.interval, "active": plan.active}
        if plan
        else {"interval": DuesPlan.Interval.YEARLY, "active": True}
    )
    form = DuesPlanForm(request.POST or None, initial=initial, club=request.club)
    if request.method == "POST":
        if not form.is_valid():
            return _dues_page(request, form, status=422)
        data = form.cleaned_data
        try:
            dues.save_plan(request.club, data["fee"], data["interval"], data["active"])
        except ValidationError as error:
            form.add_error("fee", error)
            return _dues_page(request, form, status=422)
        messages.success(request, _("The membership fee is saved."))
        return redirect("ledger:dues", club_slug=request.club.slug)
    return _dues_page(request, form)


@require_POST
@club_view(role=Role.TREASURER)
def dues_charge(request: HttpRequest) -> HttpResponse:
    if not DuesPlan.objects.filter(club=request.club, active=True).exists():
        messages.error(request, _("Set an active membership fee first."))
        return redirect("ledger:dues", club_slug=request.club.slug)
    run = dues.charge_dues(request.club, by=request.user)
    messages.success(
        request,
        _("%(period)s: %(charged)s charged now, %(already)s already charged.")
        % {"period": run.period.label, "charged": len(run.charged), "already": run.already},
    )
    for member, reason in run.refused:
        messages.error(request, f"{member.name}: {reason}")
    return redirect("ledger:dues", club_slug=request.club.slug)


# --- closing periods -----------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.TREASURER)
def periods(request: HttpRequest) -> HttpResponse:
    form = ClosePeriodForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            period = close_period(
                request.club, data["name"], data["start"], data["end"], request.user
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s is closed.") % {"name": period.name})
            return redirect("ledger:period", club_slug=request.club.slug, period_id=period.pk)
    closed = Period.objects.filter(club=request.club)
    return render(request, "ledger/periods.html", {"form": form, "closed": closed})


@require_safe
@club_view(role=Role.TREASURER)
def period_report(request: HttpRequest, period_id: int) -> HttpResponse:
    period = get_object_or_404(Period, pk=period_id, club=request.club)
    balances = period.balances.select_related("account").order_by("account__kind", "account__name")
    return render(request, "ledger/period_report.html", {"period": period, "balances": balances})
