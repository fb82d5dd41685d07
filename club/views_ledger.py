"""The treasurer's pages, phone first. Members see the club totals and their own statement.

Every money number on these pages comes from ``club.ledger`` (cached balances, or sums of
entries), formatted only by the ``money`` filter.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club import ledger, payments
from club.access import club_view
from club.forms import ClosePeriodForm, DateRangeForm, PaymentForm, ReverseForm, TransferForm
from club.models import Account, AccountKind, Entry, Period, Role, Transaction


def _accounts(club) -> list[Account]:
    return list(Account.objects.for_club(club).select_related("member"))


@require_GET
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
    return render(request, "club/ledger.html", context)


def _form_error(form, error: ValidationError) -> None:
    form.add_error(None, error)


@require_http_methods(["GET", "POST"])
@club_view(role=Role.TREASURER)
def payment(request: HttpRequest) -> HttpResponse:
    form = PaymentForm(request.POST or None, club=request.club, initial=request.GET.dict())
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
            return redirect("club:ledger", club_slug=request.club.slug)
    return render(request, "club/ledger_form.html", {"form": form, "title": _("Record a payment")})


@require_http_methods(["GET", "POST"])
@club_view(role=Role.TREASURER)
def transfer(request: HttpRequest) -> HttpResponse:
    form = TransferForm(request.POST or None, club=request.club)
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
            return redirect("club:ledger", club_slug=request.club.slug)
    return render(
        request, "club/ledger_form.html", {"form": form, "title": _("Transfer between members")}
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


@require_GET
@club_view()
def transaction_detail(request: HttpRequest, tx_id: int) -> HttpResponse:
    tx = _visible_transaction(request, tx_id)
    reversal = Transaction.objects.filter(reverses=tx).first()
    return render(
        request,
        "club/transaction_detail.html",
        {"tx": tx, "reversal": reversal, "form": ReverseForm()},
    )


@require_POST
@club_view(role=Role.TREASURER)
def transaction_reverse(request: HttpRequest, tx_id: int) -> HttpResponse:
    tx = _visible_transaction(request, tx_id)
    form = ReverseForm(request.POST)
    if form.is_valid():
        try:
            ledger.reverse(tx, form.cleaned_data["reason"], request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The transaction was reversed."))
            return redirect("club:ledger-transaction", club_slug=request.club.slug, tx_id=tx.pk)
    return render(
        request,
        "club/transaction_detail.html",
        {"tx": tx, "reversal": None, "form": form},
        status=422,
    )


@require_GET
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
    stmt = ledger.statement(account, start, end)
    return render(
        request, "club/account_statement.html", {"stmt": stmt, "account": account, "form": form}
    )


@require_GET
@club_view()
def my_statement(request: HttpRequest) -> HttpResponse:
    account = ledger.member_account(request.member)
    return redirect("club:ledger-account", club_slug=request.club.slug, account_id=account.pk)


# --- settle-up -----------------------------------------------------------------------------


def _settle_context(request: HttpRequest) -> dict:
    from club import settle  # noqa: PLC0415 - pure maths module, needed on this page only

    accounts = [a for a in _accounts(request.club) if a.kind == AccountKind.MEMBER]
    balances = {a.key: a.balance_ore for a in accounts if a.balance_ore}
    names = {a.key: a.name for a in accounts} | {"cash": _("the club")}
    numbers = {a.key: a.member.swish_number for a in accounts} | {"cash": request.club.swish_number}
    mode = request.GET.get("mode", "all")
    member_key = request.GET.get("member", "")
    total = sum(balances.values())
    try:
        if mode == "treasury":
            plan = settle.settle_against(balances, party="cash")
        elif mode == "one" and member_key in balances:
            plan = settle.settle_one(
                {**balances, "cash": -total} if total else balances, member_key
            )
        else:
            mode = "all"
            # Money in pots and the box is not the members': whatever does not net to zero
            # among members is settled with the club.
            plan = settle.plan_settlement({**balances, "cash": -total} if total else balances)
    except settle.SettlementError as error:
        plan = []
        messages.error(request, str(error))
    language = get_language() or "sv"
    rows = []
    for payment in plan:
        number = numbers.get(payment.payee, "")
        url = svg = ""
        if number:
            try:
                message = _("%(club)s: settle-up") % {"club": request.club.name}
                url = settle.swish_payment_url(number, payment.amount_ore, message)
                svg = settle.swish_qr_svg(url)
            except settle.SettlementError:
                url = svg = ""
        rows.append(
            {
                "payment": payment,
                "text": settle.describe(payment, names, lang=language[:2]),
                "swish_url": url,
                "qr_svg": svg,
                "payee_has_swish": bool(number),
            }
        )
    return {
        "rows": rows,
        "mode": mode,
        "member_key": member_key,
        "debtors": sorted((a for a in accounts if a.balance_ore), key=lambda a: a.name),
    }


@require_GET
@club_view(role=Role.TREASURER)
def settle_up(request: HttpRequest) -> HttpResponse:
    return render(request, "club/settle_up.html", _settle_context(request))


@require_POST
@club_view(role=Role.TREASURER)
def settle_confirm(request: HttpRequest) -> HttpResponse:
    try:
        amount = int(request.POST.get("amount_ore", ""))
    except ValueError:
        raise Http404 from None
    payer, payee = request.POST.get("payer", ""), request.POST.get("payee", "")
    submission = request.POST.get("submission", "")
    try:
        payments.record_settlement(
            request.club,
            payer,
            payee,
            amount,
            request.user,
            key=f"settle:{submission}" if submission else None,
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("The payment was recorded."))
    return redirect(f"{request.path.rsplit('confirm/', 1)[0]}?{request.GET.urlencode()}")


# --- closing periods -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@club_view(role=Role.TREASURER)
def periods(request: HttpRequest) -> HttpResponse:
    form = ClosePeriodForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            period = ledger.close_period(
                request.club, data["name"], data["start"], data["end"], request.user
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s is closed.") % {"name": period.name})
            return redirect("club:ledger-period", club_slug=request.club.slug, period_id=period.pk)
    closed = Period.objects.filter(club=request.club)
    return render(request, "club/periods.html", {"form": form, "closed": closed})


@require_GET
@club_view(role=Role.TREASURER)
def period_report(request: HttpRequest, period_id: int) -> HttpResponse:
    period = get_object_or_404(Period, pk=period_id, club=request.club)
    balances = period.balances.select_related("account").order_by("account__kind", "account__name")
    return render(request, "club/period_report.html", {"period": period, "balances": balances})
