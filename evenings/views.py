"""Club evening pages: tonight (check-in, tables, starting a game at a table), the board (live,
and a big-screen view), closing, and tonight's settle-up with "paid"."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.access import club_view
from club.models import Role
from engine import registry, whist_drive
from evenings import (
    attendance,
    board,
    card,
    drive_page,
    drives,
    opening,
    options,
    pots,
    tables,
    tonight,
)
from evenings.forms import (
    CheckInForm,
    DriveCorrectionForm,
    DriveReportForm,
    DriveStartForm,
    OpenEveningForm,
    OptionsForm,
    TableForm,
)
from evenings.models import Evening, EveningStatus
from ledger.settle_rows import payment_rows, record_paid


def _evening(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(
        Evening.objects.select_related("club"), pk=evening_id, club=request.club
    )


def _host(request: HttpRequest) -> None:
    if not request.member.can(Role.SCORER):
        raise PermissionDenied(_("Your role at this club does not allow this."))


def _may_record_payments(member) -> bool:
    """Tonight's "paid" is the host's or the treasurer's: money between members is his book."""
    return member.can(Role.SCORER) or member.can(Role.TREASURER)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def evening_list(request: HttpRequest) -> HttpResponse:
    """Tonight's evening (or the button that opens it) and the evenings before."""
    form = OpenEveningForm(request.POST or None)
    if request.method == "POST":
        _host(request)
        if form.is_valid():
            evening = opening.open_evening(
                request.club,
                request.user,
                title=form.cleaned_data["title"],
                games=form.cleaned_data["games"],
            )
            return redirect("evenings:detail", club_slug=request.club.slug, evening_id=evening.pk)
    # Evenings planned ahead (or called off) that have not opened: the coming ones, soonest
    # first, apart from the evenings held.
    not_yet = [EveningStatus.PLANNED, EveningStatus.CANCELLED]
    evenings = Evening.objects.filter(club=request.club).exclude(status__in=not_yet)[:30]
    coming = Evening.objects.filter(
        club=request.club, status__in=not_yet, date__gte=timezone.localdate()
    ).order_by("date", "pk")[:6]
    return render(
        request,
        "evenings/evening_list.html",
        {"evenings": evenings, "coming": coming, "form": form},
        status=422 if form.is_bound else 200,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def evening_detail(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Who is here and the tables. Anyone says "I'm here"; the host does the rest."""
    evening = _evening(request, evening_id)
    check_in = CheckInForm(evening=evening)
    table_form = TableForm(evening=evening)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "here":
                attendance.check_in(evening, request.user, member=request.member)
                messages.success(request, _("Welcome! You are checked in."))
            elif action == "check-in":
                _host(request)
                check_in = CheckInForm(request.POST, evening=evening)
                if check_in.is_valid():
                    here = attendance.check_in_many(
                        evening,
                        request.user,
                        members=check_in.cleaned_data["members"],
                        guest_names=check_in.guest_names(),
                    )
                    names = ", ".join(attendee.name for attendee in here)
                    messages.success(request, _("Checked in: %(names)s.") % {"names": names})
                    return redirect(request.path)
                status = 422
            elif action in ("table", "draw"):
                _host(request)
                table_form = TableForm(request.POST, evening=evening)
                if table_form.is_valid():
                    _form_tables(request, evening, table_form, draw=action == "draw")
                    return redirect(request.path)
                status = 422
            else:
                return HttpResponseBadRequest(_("Unknown action."))
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            status = 422
        if status == 200:
            return redirect(request.path)
    attendees = list(evening.attendees.select_related("member"))
    context = {
        "evening": evening,
        "attendees": attendees,
        "me_here": any(a.member_id == request.member.pk for a in attendees),
        "check_in": check_in,
        "table_form": table_form,
        "board": board.board(evening),
        "is_host": request.member.can(Role.SCORER),
        "pot_rule": pots.RULE,
        "flags": tonight.flags(evening),
    }
    return render(request, "evenings/evening_detail.html", context, status=status)


def _form_tables(request, evening: Evening, form: TableForm, *, draw: bool) -> None:
    game_key = form.cleaned_data["game"]
    chosen = form.seated() or list(form.fields["attendees"].queryset)
    groups = tables.draw_groups(chosen, game_key) if draw else [chosen]
    formed = tables.form_tables(evening, game_key, groups, request.user)
    messages.success(
        request,
        _("Tables %(numbers)s: %(game)s.")
        % {
            "numbers": ", ".join(str(t.number) for t in formed),
            "game": _(registry.display_name(game_key)),
        },
    )


@require_safe
@club_view()
def evening_board(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Every table and the running ranking; polled by itself every few seconds (``#board``),
    and ``?tv=1`` for the big screen in the club room."""
    evening = _evening(request, evening_id)
    template = "evenings/board.html"
    if request.htmx:
        template += "#board"
    context = {"evening": evening, "board": board.board(evening), "tv": "tv" in request.GET}
    context["flags"] = tonight.flags(evening)
    return render(request, template, context)


@require_POST
@club_view(role=Role.SCORER)
def evening_close(request: HttpRequest, evening_id: int) -> HttpResponse:
    evening = _evening(request, evening_id)
    try:
        opening.close_evening(evening, request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("evenings:detail", club_slug=request.club.slug, evening_id=evening.pk)
    return redirect("evenings:summary", club_slug=request.club.slug, evening_id=evening.pk)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def evening_summary(request: HttpRequest, evening_id: int) -> HttpResponse:
    """Each attendee's evening and tonight's settle-up: the fewest payments that settle only
    tonight's money, with Swish links; "paid" records one (the host)."""
    evening = _evening(request, evening_id)
    if request.method == "POST":
        if not _may_record_payments(request.member):
            raise PermissionDenied(_("Your role at this club does not allow this."))
        return _record_paid(request, evening)
    nights = tonight.summary(evening)
    names = {n.attendee.account_key: n.attendee.name for n in nights}
    names["cash"] = _("the club")
    numbers = {
        n.attendee.account_key: n.attendee.member.swish_number
        for n in nights
        if n.attendee.member_id
    } | {"cash": request.club.swish_number}
    message = _("%(club)s: evening %(date)s") % {"club": request.club.name, "date": evening.date}
    rows = payment_rows(tonight.tonight_plan(evening), names, numbers, message, club=request.club)
    context = {
        "evening": evening,
        "nights": nights,
        "rows": rows,
        "paid": tonight.paid_so_far(evening),
        "is_host": _may_record_payments(request.member),
        "render_key": uuid.uuid4().hex,
        "holds": tonight.settle_holds(evening),
    }
    return render(request, "evenings/summary.html", context)


def _record_paid(request: HttpRequest, evening: Evening) -> HttpResponse:
    # The gate and the payment in one transaction, the games locked: an undo or a dispute
    # tapped at the same moment lands before the gate looks or after the payment is recorded.
    with transaction.atomic():
        tonight.lock_games(evening)
        holds = tonight.settle_holds(evening)
        if holds:
            # The club settles a game's money only once the table confirmed it (scoring's gate).
            messages.error(
                request,
                _("Tonight's money cannot be settled yet: %(games)s.")
                % {"games": "; ".join(hold.text for hold in holds)},
            )
            return redirect(reverse("evenings:summary", args=[request.club.slug, evening.pk]))
        refused = record_paid(request, key_prefix=f"{evening.ref}:paid", ref=f"{evening.ref}:paid")
    if refused is not None:
        return refused
    return redirect(reverse("evenings:summary", args=[request.club.slug, evening.pk]))


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def evening_options(request: HttpRequest) -> HttpResponse:
    current = options.options_for(request.club)
    initial = {
        "fee": current.fee_ore,
        "fee_kind": current.fee_kind,
        "pot_policy": current.pot_policy,
        "prize_percents": "/".join(str(share) for share in current.prize_percent_list()),
    }
    form = OptionsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            options.save_options(
                request.club,
                request.user,
                fee_ore=form.cleaned_data["fee"] or 0,
                fee_kind=form.cleaned_data["fee_kind"],
                pot_policy=form.cleaned_data["pot_policy"],
                prize_percents=form.cleaned_data["prize_percents"],
            )
        except ValidationError as error:  # a fee above the club's ceiling
            form.add_error("fee", error)
        else:
            messages.success(request, _("Saved."))
            return redirect("evenings:list", club_slug=request.club.slug)
    return render(
        request, "evenings/options.html", {"form": form}, status=422 if form.is_bound else 200
    )


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def evening_drive(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The whist drive: where everyone sits this round, the tables' reports, the ranking."""
    evening = _evening(request, evening_id)
    drive = evening.drives.order_by("-pk").first()
    start_form = DriveStartForm(evening=evening)
    report_form = None
    correction_form = None
    status = 200
    if request.method == "POST":
        _host(request)
        if drive is None:
            start_form = DriveStartForm(request.POST, evening=evening)
            if start_form.is_valid():
                data = start_form.cleaned_data
                try:
                    rules = drives.rules_for(
                        evening, deals_per_round=data["deals_per_round"], rounds=data["rounds"]
                    )
                    drives.start_drive(evening, list(data["attendees"]), request.user, rules=rules)
                except ValidationError as error:
                    start_form.add_error(None, error)
                else:
                    return redirect(request.path)
            status = 422
        elif "correct-round_no" in request.POST:
            current = drives.state(drive)
            correction_form = DriveCorrectionForm(
                request.POST, rounds=_reported_rounds(current), tables=current.table_count
            )
            if correction_form.is_valid():
                data = correction_form.cleaned_data
                try:
                    drives.correct(
                        drive,
                        data["round_no"],
                        data["table"],
                        data["ns_tricks"],
                        data["ew_tricks"],
                        data["last_deal"] or None,
                        request.user,
                    )
                except ValidationError as error:
                    correction_form.add_error(None, error)
                else:
                    messages.success(
                        request,
                        _("Round %(round)s at table %(table)s corrected.")
                        % {"round": data["round_no"], "table": data["table"]},
                    )
                    return redirect(request.path)
            status = 422
        else:
            current = drives.state(drive)
            waiting = current.rounds[-1].waiting if current.current_round else ()
            report_form = DriveReportForm(request.POST, waiting=waiting)
            if report_form.is_valid():
                data = report_form.cleaned_data
                try:
                    drives.report(
                        drive,
                        current.current_round,
                        data["table"],
                        data["ns_tricks"],
                        data["ew_tricks"],
                        data["last_deal"] or None,
                        request.user,
                    )
                except ValidationError as error:
                    report_form.add_error(None, error)
                else:
                    return redirect(request.path)
            status = 422
    context = {
        "evening": evening,
        "start_form": start_form,
        "is_host": request.member.can(Role.SCORER),
    }
    if drive is not None:
        context |= drive_page.page(drive)
        if report_form is None and context["waiting"]:
            report_form = DriveReportForm(waiting=context["waiting"])
        context["report_form"] = report_form
        rounds = _reported_rounds(context["state"])
        if correction_form is None and rounds and evening.is_open:
            correction_form = DriveCorrectionForm(
                rounds=rounds, tables=context["state"].table_count
            )
        context["correction_form"] = correction_form
        context["me_name"] = request.member.name
    return render(request, "evenings/drive.html", context, status=status)


def _reported_rounds(current: whist_drive.Drive) -> tuple[int, ...]:
    """The rounds with a table's report to correct."""
    return tuple(r.number for r in current.rounds if r.results)


@require_safe
@club_view()
def evening_card(request: HttpRequest, evening_id: int) -> HttpResponse:
    """The results card as a PNG (shared from the summary page)."""
    evening = _evening(request, evening_id)
    response = HttpResponse(card.card_png(evening), content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="protokoll-{evening.date}.png"'
    return response
