"""The season's honours (members) and the club's hand prizes (treasurer or admin)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from club.access import club_view
from club.models import Role, Season
from club.seasons import current_season
from core.money import format_ore
from engine import honours as engine_honours
from engine import registry
from honours import services
from honours.forms import FundForm, PrizeForm
from honours.models import HandPrize, HonourPaid, kind_name

PANEL_ROWS = 3


def panel_context(request: HttpRequest) -> dict:
    """The start page: the club's latest honours (one query), and the prizes' page for those
    who set them."""
    latest = list(
        HonourPaid.objects.filter(club=request.club, reversed_at__isnull=True)
        .select_related("member")
        .order_by("-created_at", "-id")[:PANEL_ROWS]
    )
    return {"honours": latest, "sets_prizes": request.member.can(Role.TREASURER)}


def _kronor(amount_ore: int) -> str:
    """An amount as the form reads it back ("100" or "12,50")."""
    kronor, ore = divmod(amount_ore, 100)
    return f"{kronor},{ore:02d}" if ore else str(kronor)


@require_safe
@club_view()
def season(request: HttpRequest) -> HttpResponse:
    seasons = list(Season.objects.filter(club=request.club))
    chosen = None
    wanted = request.GET.get("season", "")
    if wanted.isdigit():
        chosen = next((s for s in seasons if s.pk == int(wanted)), None)
        if chosen is None:
            raise Http404(_("No such season."))
    if chosen is None:
        chosen = current_season(request.club)
        if chosen not in seasons:
            seasons.insert(0, chosen)
    rows = list(
        HonourPaid.objects.filter(
            club=request.club,
            reversed_at__isnull=True,
            created_at__date__gte=chosen.start,
            created_at__date__lte=chosen.end,
        )
        .select_related("member")
        .order_by("-created_at", "-id")
    )
    context = {
        "seasons": seasons,
        "chosen": chosen,
        "rows": rows,
        "paid_total": sum(row.amount_ore for row in rows),
        "sets_prizes": request.member.can(Role.TREASURER),
    }
    return render(request, "honours/season.html", context)


@require_safe
@club_view(role=Role.TREASURER)
def prizes(request: HttpRequest) -> HttpResponse:
    set_up = {p.kind: p for p in HandPrize.objects.filter(club=request.club)}
    pots = services.hand_pots(request.club)
    kinds = [
        {"kind": kind, "name": kind_name(kind.key), "prize": set_up.get(kind.key)}
        for kind in engine_honours.kinds().values()
    ]
    impossible = [
        {"game": _(registry.display_name(game)), "name": _(name), "why": _(why)}
        for game, (name, why) in engine_honours.impossible().items()
    ]
    context = {"kinds": kinds, "impossible": impossible, "pots": pots}
    return render(request, "honours/prizes.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.TREASURER)
def prize(request: HttpRequest, kind: str) -> HttpResponse:
    if kind not in engine_honours.kinds():
        raise Http404(_("No such hand."))
    existing = HandPrize.objects.filter(club=request.club, kind=kind).first()
    pots = {p.key: p for p in services.hand_pots(request.club)}
    initial = {"active": True, "pot_name": _("Hand prizes")}
    if existing is not None:
        pot = pots.get(existing.pot_key)
        initial = {
            "active": existing.active,
            "whole_pot": existing.whole_pot,
            "amount": _kronor(existing.amount_ore) if existing.amount_ore else "",
            "pot_name": pot.name if pot else existing.pot_key,
        }
    data = request.POST if request.method == "POST" else None
    form = PrizeForm(data, club=request.club, initial=initial)
    if request.method == "POST" and form.is_valid():
        cleaned = form.cleaned_data
        services.save_prize(
            request.club,
            kind,
            amount_ore=cleaned["amount"] or 0,
            whole_pot=cleaned["whole_pot"],
            pot_name=cleaned["pot_name"],
            active=cleaned["active"] and (cleaned["whole_pot"] or bool(cleaned["amount"])),
        )
        messages.success(request, _("Saved: %(hand)s") % {"hand": kind_name(kind)})
        return redirect("honours:prizes", club_slug=request.club.slug)
    context = {"form": form, "title": kind_name(kind), "kind": kind}
    return render(request, "honours/prize_form.html", context, status=422 if form.is_bound else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.TREASURER)
def fund(request: HttpRequest) -> HttpResponse:
    pots = services.hand_pots(request.club)
    data = request.POST if request.method == "POST" else None
    form = FundForm(data, club=request.club, pots=pots, initial=request.GET.dict())
    if request.method == "POST" and form.is_valid():
        cleaned = form.cleaned_data
        pot = next(p for p in pots if p.key == cleaned["pot"])
        try:
            services.fund_pot(
                request.club,
                pot,
                cleaned["source"],
                cleaned["amount"],
                request.user,
                key=form.ledger_key("hands-fund"),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                _("%(amount)s into %(pot)s")
                % {"amount": format_ore(cleaned["amount"]), "pot": pot.label},
            )
            return redirect("honours:prizes", club_slug=request.club.slug)
    context = {"form": form, "title": _("Money into a prize pot"), "pots": pots}
    return render(request, "honours/fund.html", context, status=422 if form.is_bound else 200)
