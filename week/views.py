"""The club's week, under /c/<club>/week/ (namespace ``week``): the member's coming evenings
with one-tap answers and his calendar link; a planned evening's replies and wait-list (the
admin moves it, sets its seats, cancels it); the admin's schedule; and the calendar feed
itself, /cal/<token>.ics, without a login."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.access import club_view
from club.models import Member, Role
from core import inputs
from evenings.models import Evening, EveningStatus
from week import feed, planning, replies
from week.forms import ExceptionForm, MoveForm, ReplyForm, ScheduleForm, SeatsForm
from week.models import Reply, ReplyAnswer, Schedule, ScheduleException

COMING_SHOWN = 8  # planned evenings on the member's page (the start page's panel: 3)
PANEL_SHOWN = 3


@dataclass(frozen=True)
class Card:
    """One coming evening as a member sees it: his reply, his place in line, the seats left."""

    evening: Evening
    reply: Reply | None
    place: int | None
    seats_left: int | None
    error: str = ""

    @property
    def answer(self) -> str:
        return self.reply.answer if self.reply else ""


def _cards(member: Member, evenings: list[Evening]) -> list[Card]:
    mine = {r.evening_id: r for r in Reply.objects.filter(member=member, evening__in=evenings)}
    taken: dict[int, int] = {}
    for r in Reply.objects.filter(evening__in=evenings, answer=ReplyAnswer.COMING, waiting=False):
        taken[r.evening_id] = taken.get(r.evening_id, 0) + r.wants
    cards = []
    for evening in evenings:
        reply = mine.get(evening.pk)
        left = None if evening.cap is None else max(evening.cap - taken.get(evening.pk, 0), 0)
        place = replies.place_in_line(reply) if reply else None
        cards.append(Card(evening, reply, place, left))
    return cards


def _coming(club, limit: int) -> list[Evening]:
    return list(
        Evening.objects.filter(
            club=club,
            status__in=[EveningStatus.PLANNED, EveningStatus.CANCELLED],
            date__gte=timezone.localdate(),
        ).order_by("date", "pk")[:limit]
    )


def panel_context(request: HttpRequest) -> dict:
    """The start page's panel: the member's next evenings with one-tap answers."""
    return {"cards": _cards(request.member, _coming(request.club, PANEL_SHOWN))}


def _planned(request: HttpRequest, evening_id: int) -> Evening:
    return get_object_or_404(
        Evening.objects.select_related("club"), pk=evening_id, club=request.club
    )


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def mine(request: HttpRequest) -> HttpResponse:
    """The member's coming evenings and his calendar link (POST: a new link, the old one
    revoked)."""
    if request.method == "POST":
        feed.new_token(request.member)
        messages.success(request, _("A new calendar link: the old one no longer works."))
        return redirect("week:mine", club_slug=request.club.slug)
    token = feed.current_token(request.member)
    calendar_url = (
        request.build_absolute_uri(reverse("week:calendar", args=[token])) if token else ""
    )
    context = {
        "cards": _cards(request.member, _coming(request.club, COMING_SHOWN)),
        "calendar_url": calendar_url,
    }
    return render(request, "week/week_mine.html", context)


@require_POST
@club_view()
def answer(request: HttpRequest, evening_id: int) -> HttpResponse:
    """A member's one-tap answer; htmx gets the evening's card back, others the page."""
    evening = _planned(request, evening_id)
    form = ReplyForm(request.POST)
    error = ""
    if form.is_valid():
        try:
            reply = replies.answer(
                evening,
                request.member,
                form.cleaned_data["answer"],
                form.cleaned_data["guest_name"] or "",
            )
        except ValidationError as refusal:
            error = " ".join(refusal.messages)
        else:
            if reply.waiting and not request.htmx:  # htmx: the card says it
                messages.info(
                    request,
                    _("Full: you are number %(n)s on the wait-list.")
                    % {"n": replies.place_in_line(reply)},
                )
    else:
        error = " ".join(e for errors in form.errors.values() for e in errors)
    status = 422 if error else 200
    if request.htmx:
        evening.refresh_from_db()
        card = _cards(request.member, [evening])[0]
        card = Card(card.evening, card.reply, card.place, card.seats_left, error)
        return render(request, "week/_evening_card.html", {"card": card}, status=status)
    if error:
        messages.error(request, error)
    return redirect("week:evening", club_slug=request.club.slug, evening_id=evening.pk)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def evening(request: HttpRequest, evening_id: int) -> HttpResponse:
    """A planned evening: the member's answer, who is coming and the wait-list; the admin
    moves it, sets its seats or cancels it."""
    found = _planned(request, evening_id)
    is_admin = request.member.can(Role.ADMIN)
    start = found.starts_at and timezone.localtime(found.starts_at)
    move_form = MoveForm(
        initial={"date": found.date, "start_time": start.time() if start else None}
    )
    seats_form = SeatsForm(initial={"cap": found.cap})
    status = 200
    if request.method == "POST":
        if not is_admin:
            raise PermissionDenied(_("Your role at this club does not allow this."))
        action = request.POST.get("action", "")
        try:
            if action == "move":
                move_form = MoveForm(request.POST)
                if move_form.is_valid():
                    planning.move(
                        found,
                        move_form.cleaned_data["date"],
                        move_form.cleaned_data["start_time"],
                        today=timezone.localdate(),
                    )
                    messages.success(request, _("Moved."))
                    return redirect(request.path)
            elif action == "seats":
                seats_form = SeatsForm(request.POST)
                if seats_form.is_valid():
                    promoted = replies.set_cap(found, seats_form.cleaned_data["cap"])
                    messages.success(
                        request,
                        _("Saved. From the wait-list: %(n)s.") % {"n": len(promoted)},
                    )
                    return redirect(request.path)
            elif action == "cancel":
                planning.cancel(found)
                messages.success(request, _("The evening is cancelled."))
                return redirect(request.path)
            else:
                return HttpResponseBadRequest(_("Unknown action."))
        except ValidationError as refusal:
            messages.error(request, " ".join(refusal.messages))
        status = 422
    rows = list(
        Reply.objects.filter(evening=found).select_related("member").order_by("queued_at", "pk")
    )
    context = {
        "evening": found,
        "card": _cards(request.member, [found])[0],
        "seated": [r for r in rows if r.answer == ReplyAnswer.COMING and not r.waiting],
        "waiting": [r for r in rows if r.waiting],
        "maybe": [r for r in rows if r.answer == ReplyAnswer.MAYBE],
        "declined": [r for r in rows if r.answer == ReplyAnswer.NOT],
        "is_admin": is_admin,
        "move_form": move_form,
        "seats_form": seats_form,
    }
    return render(request, "week/evening_replies.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def schedule(request: HttpRequest) -> HttpResponse:
    """The club's schedule: every <weekday> at <time>, from, until, seats, title, the dates it
    skips, and "plan now"."""
    form = ScheduleForm(initial={"first_date": timezone.localdate()})
    exception_form = ExceptionForm()
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "add":
            form = ScheduleForm(request.POST)
            if form.is_valid():
                data = form.cleaned_data
                Schedule.objects.create(
                    club=request.club,
                    weekday=data["weekday"],
                    start_time=data["start_time"],
                    first_date=data["first_date"],
                    until=data["until"],
                    cap=data["cap"],
                    title=data["title"] or "",
                    games=list(data["games"]),
                )
                _plan_now(request)
                return redirect(request.path)
        elif action == "skip":
            exception_form = ExceptionForm(request.POST)
            if exception_form.is_valid():
                found = Schedule.objects.filter(
                    club=request.club, pk=exception_form.cleaned_data["schedule"]
                ).first()
                if found is None:
                    raise Http404(_("No such schedule."))
                ScheduleException.objects.get_or_create(
                    schedule=found, date=exception_form.cleaned_data["date"]
                )
                _plan_now(request)
                return redirect(request.path)
        elif action in ("stop", "plan"):
            if action == "stop":
                picked = request.POST.get("schedule", "")
                pk = int(picked) if inputs.is_pk_text(picked) else 0
                Schedule.objects.filter(club=request.club, pk=pk).update(active=False)
            _plan_now(request)
            return redirect(request.path)
        else:
            return HttpResponseBadRequest(_("Unknown action."))
        status = 422
    schedules = list(
        Schedule.objects.filter(club=request.club, active=True).prefetch_related("exceptions")
    )
    context = {
        "schedules": schedules,
        "form": form,
        "exception_form": exception_form,
        "coming": _coming(request.club, 20),
    }
    return render(request, "week/schedule.html", context, status=status)


def _plan_now(request: HttpRequest) -> None:
    made = planning.plan_ahead(request.club, timezone.localdate())
    messages.success(request, _("Evenings planned now: %(n)s.") % {"n": len(made)})


@require_safe
def calendar(request: HttpRequest, token: str) -> HttpResponse:
    """The member's calendar feed: no login, the secret URL is the key (404 otherwise)."""
    member = feed.member_for(token)
    if member is None:
        raise Http404(_("No such calendar."))
    # The site's own address, not the request's: an evening's UID must not change with the
    # host name a phone subscribed through (the calendar would show it twice).
    with translation.override(feed.language_of(member)):
        body = feed.calendar(member, base_url=settings.SITE_URL)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="protokoll.ics"'
    return response
