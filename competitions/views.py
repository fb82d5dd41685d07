"""The competition pages, under /c/<club>/competitions/ (namespace ``competitions``).

- ``competition_list``: the club's competitions (running, announced, finished), and the
  admin's "announce" form; a refusal shows on the form in place (422), nothing lost.
- ``competition_detail``: what a player needs at the table: the round's pairings or tables,
  each with its pad's link and QR code and "Start the game" for a scorer; the standings in the
  format's columns; the entrants ("enter me", an admin's or scorer's "enter"/"withdraw"); the
  admin's "Start", "Next round" and "Finish"; when finished, the winners and their prizes.
- ``competition_board``: the round's progress for the club room's screen, polling itself.

Every POST goes to the detail page with an ``action``; the services are idempotent and each
form says what it acts on (the round it was shown for, the status it saw), so a double tap
acts once: the second tap finds it done and is told so, never refused or done twice.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, Exists, IntegerField, Max, OuterRef, Q, Subquery
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from club.access import club_view
from club.models import Club, Role
from competitions import running, tables
from competitions.forms import AnnounceForm, EnterForm, two_player_keys
from competitions.models import Competition, Entrant, Kind, Round, Status, Table
from core import inputs
from engine import registry
from evenings import board as evening_board
from evenings import table_links

FINISHED_SHOWN = 20  # finished competitions on the list
PANEL_SHOWN = 3
BOARD_STANDINGS = 10
PODIUM = 3  # the winners a finished competition without prizes shows
# A second "Announce" with the same name by the same login this soon is the same tap again.
DOUBLE_TAP = timedelta(minutes=2)


def _game_name(key: str) -> str:
    return _(registry.display_name(key))


def _listed(club: Club, member=None):
    """The club's competitions with what a list shows, in a fixed number of queries: the
    entrants (those still in), the round under way and, for a member, whether he is in."""
    still_in = (
        Entrant.objects.filter(competition=OuterRef("pk"), dropped_after__isnull=True)
        .order_by()
        .values("competition")
        .annotate(n=Count("pk"))
        .values("n")
    )
    latest = (
        Round.objects.filter(competition=OuterRef("pk"))
        .order_by()
        .values("competition")
        .annotate(n=Max("number"))
        .values("n")
    )
    found = Competition.objects.filter(club=club).annotate(
        entrant_count=Subquery(still_in, output_field=IntegerField()),
        round_number=Subquery(latest, output_field=IntegerField()),
    )
    if member is not None:
        found = found.annotate(
            is_entered=Exists(
                Entrant.objects.filter(
                    competition=OuterRef("pk"), member=member, dropped_after__isnull=True
                )
            )
        )
    return found


def _rows(competitions) -> list[dict]:
    return [{"competition": c, "game_name": _game_name(c.game_key)} for c in competitions]


def panel_context(request: HttpRequest) -> dict:
    """The start page's panel: the running competitions and their rounds, the announced ones
    with "enter"; a link to the list either way."""
    under_way = _listed(request.club, request.member).exclude(status=Status.FINISHED)
    shown = list(under_way.order_by("-status", "starts_at", "pk")[:PANEL_SHOWN])
    return {"rows": _rows(shown)}


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def competition_list(request: HttpRequest) -> HttpResponse:
    is_admin = request.member.can(Role.ADMIN)
    form = AnnounceForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if not is_admin:
            raise PermissionDenied(_("Your role at this club does not allow this."))
        if form.is_valid():
            try:
                competition, fresh = _announce(request, form)
            except ValidationError as refusal:
                form.add_refusal(refusal)
            else:
                if fresh:
                    messages.success(request, _("Announced: members can enter now."))
                return redirect(
                    "competitions:detail",
                    club_slug=request.club.slug,
                    competition_id=competition.pk,
                )
        status = 422
    listed = _listed(request.club, request.member)
    context = {
        "running": _rows(listed.filter(status=Status.RUNNING)),
        "announced": _rows(listed.filter(status=Status.ANNOUNCED).order_by("starts_at", "pk")),
        "finished": _rows(
            listed.filter(status=Status.FINISHED).order_by("-finished_at", "-pk")[:FINISHED_SHOWN]
        ),
        "form": form if is_admin else None,
        "is_admin": is_admin,
        "two_player_games": ", ".join(_game_name(key) for key in two_player_keys()),
    }
    return render(request, "competitions/competition_list.html", context, status=status)


def _announce(request: HttpRequest, form: AnnounceForm) -> tuple[Competition, bool]:
    """Announce once: the club's row is locked while the same name, announced by the same
    login a moment ago (a double tap, or the form sent again), is looked for."""
    kwargs = form.announce_kwargs()
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=request.club.pk).first()
        same = Competition.objects.filter(
            club=request.club,
            name=kwargs["name"],
            created_by=request.user,
            status=Status.ANNOUNCED,
            created_at__gte=timezone.now() - DOUBLE_TAP,
        ).first()
        if same is not None:
            return same, False
        return running.announce(request.club, request.user, **kwargs), True


def _competition(request: HttpRequest, competition_id: int) -> Competition:
    return get_object_or_404(
        Competition.objects.select_related("club"), pk=competition_id, club=request.club
    )


def _play_url(table) -> str:
    """The scoring view that starts (POST) or opens (GET) a table's game."""
    try:
        return reverse(
            "scoring:competition-table-play", args=[table.round.competition.club.slug, table.pk]
        )
    except NoReverseMatch:  # scoring has not registered it
        return ""


def _table_cards(request: HttpRequest, rows, *, with_qr: bool) -> list[dict]:
    cards = []
    for row in rows:
        url = request.build_absolute_uri(row.link) if row.link else ""
        title = _("Table %(n)s") % {"n": row.table.number}
        cards.append(
            {
                "row": row,
                "url": url,
                "svg": table_links.qr_svg(url, title) if url and with_qr else "",
                "play_url": "" if row.is_bye else _play_url(row.table),
            }
        )
    return cards


def _earlier(competition: Competition, current: Round | None) -> list[tuple[Round, list]]:
    """The rounds before the current one, the latest first, with their tables (who met whom,
    the scores): a handful of queries a round."""
    if current is None:
        return []
    rounds = competition.round_set.filter(number__lt=current.number).order_by("-number")
    return [(round_, tables.round_view(round_)) for round_ in rounds]


def _winners(competition: Competition, standings) -> list[tuple]:
    """A finished competition's winners: as the prize payment paid them, or without prizes
    (no fee) the standings' top three."""
    if competition.status != Status.FINISHED:
        return []
    return tables.winners(competition) or [
        (row.entrant, row.rank, 0) for row in standings if row.rank <= PODIUM
    ]


def _has_results(competition: Competition) -> bool:
    """Standings say something once a table has finished or someone had a bye."""
    return (
        Table.objects.filter(round__competition=competition)
        .filter(Q(number=0) | Q(results__isnull=False))
        .exists()
    )


def _round_numbers(competition: Competition, current: Round | None) -> list[int]:
    """A championship's standings have a column per round played so far."""
    if competition.is_two_player or current is None:
        return []
    played = current.number - 1 if current.is_final else current.number  # the final: a column
    return list(range(1, played + 1))


def _round_state(competition: Competition, current: Round | None) -> dict:
    """What the admin's buttons say: the round's progress and why "Next round" or "Finish"
    waits."""
    if current is None:
        return {"finished": 0, "all": 0, "waiting": "", "last": False, "next_is_final": False}
    done, total = tables.progress(current)
    waiting = ""
    if done < total:
        waiting = _("%(n)s of %(all)s tables are still playing.") % {
            "n": total - done,
            "all": total,
        }
    # The planned rounds count the final table's round (running.announce).
    last = current.is_final or current.number >= competition.rounds
    next_is_final = bool(competition.final_table_size) and current.number + 1 == competition.rounds
    return {
        "finished": done,
        "all": total,
        "waiting": waiting,
        "last": last,
        "next_is_final": next_is_final,
    }


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def competition_detail(request: HttpRequest, competition_id: int) -> HttpResponse:
    competition = _competition(request, competition_id)
    enter_form = None
    status = 200
    if request.method == "POST":
        outcome = _act(request, competition)
        if isinstance(outcome, HttpResponse):
            return outcome
        enter_form = outcome
        status = 422
        competition.refresh_from_db()
    context = _detail_context(request, competition, enter_form)
    return render(request, "competitions/competition_detail.html", context, status=status)


def _detail_context(request, competition: Competition, enter_form) -> dict:
    member = request.member
    can_run = member.can(Role.ADMIN)
    can_seat = member.can(Role.SCORER)
    current = running.current_round(competition)
    rows = tables.round_view(current) if current else []
    entrants = list(competition.entrants.select_related("member").order_by("seed"))
    mine = next((e for e in entrants if e.member_id == member.pk), None)
    finished = competition.status == Status.FINISHED
    standings = tables.standings(competition) if _has_results(competition) else []
    winners = _winners(competition, standings)
    if enter_form is None and can_seat and not finished:
        enter_form = EnterForm(competition=competition)
    return {
        "competition": competition,
        "game_name": _game_name(competition.game_key),
        "current": current,
        "cards": _table_cards(request, rows, with_qr=True),
        "state": _round_state(competition, current),
        "earlier": _earlier(competition, current),
        "standings": standings,
        "round_numbers": _round_numbers(competition, current),
        "entrants": entrants,
        "mine": mine,
        "can_enter_me": not finished
        and mine is None
        and not (competition.is_running and competition.kind == Kind.ROUND_ROBIN),
        "can_run": can_run,
        "can_seat": can_seat,
        "enter_form": enter_form,
        "winners": winners,
        # The pool: what it holds, or once paid out, what the prizes took from it.
        "pool_ore": sum(w[2] for w in winners) if finished else tables.pool_ore(competition),
    }


def _act(request: HttpRequest, competition: Competition):
    """One POST action. Returns a response (done: back to the page), or the enter form (a
    refusal: the page again with the message, 422)."""
    action = request.POST.get("action", "")
    member = request.member
    page = reverse(
        "competitions:detail", args=[request.club.slug, competition.pk]
    )  # the page again, GET
    enter_form = None
    try:
        if action == "enter-me":
            with transaction.atomic():
                running.enter(competition, request.user, member=member)
            messages.success(request, _("You are in."))
            return redirect(page)
        if action == "enter":
            _need(member, Role.SCORER)
            enter_form = EnterForm(request.POST, competition=competition)
            if enter_form.is_valid():
                with transaction.atomic():
                    entrant = running.enter(
                        competition,
                        request.user,
                        member=enter_form.cleaned_data["member"],
                        guest_name=enter_form.cleaned_data["guest_name"] or "",
                    )
                messages.success(request, _("Entered: %(name)s.") % {"name": entrant.name})
                return redirect(page)
            messages.error(request, _("Nobody was entered; see the form."))
            return enter_form
        if action == "withdraw":
            entrant = _entrant(request, competition)
            if entrant.member_id != member.pk:
                _need(member, Role.SCORER)
            if entrant.dropped_after is None:
                with transaction.atomic():
                    running.withdraw(entrant, request.user)
            messages.success(request, _("Withdrawn: %(name)s.") % {"name": entrant.name})
            return redirect(page)
        if action == "start":
            _need(member, Role.ADMIN)
            if competition.status == Status.ANNOUNCED:
                _once(
                    lambda: running.start(competition, request.user),
                    lambda: _status(competition) != Status.ANNOUNCED,
                )
                messages.success(request, _("Round 1 is seated: to the tables!"))
            return redirect(page)
        if action == "next-round":
            _need(member, Role.ADMIN)
            shown = request.POST.get("round", "")
            current = running.current_round(competition)
            if current is not None and inputs.is_int_text(shown) and str(current.number) == shown:
                _once(
                    lambda: running.next_round(
                        competition, request.user, number=current.number + 1
                    ),
                    lambda: running.current_round(competition).number != current.number,
                )
                messages.success(
                    request,
                    _("Round %(n)s is seated: to the tables!") % {"n": current.number + 1},
                )
            return redirect(page)
        if action == "finish":
            _need(member, Role.ADMIN)
            if competition.status == Status.RUNNING:
                _once(
                    lambda: running.finish(competition, request.user),
                    lambda: _status(competition) == Status.FINISHED,
                )
                messages.success(request, _("Finished: the prizes are paid."))
            return redirect(page)
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
        return enter_form
    return HttpResponseBadRequest(_("Unknown action."))


def _once(call, done) -> None:
    """Run a service in a transaction; a refusal because another tap (the same button twice,
    two phones at once) did it meanwhile is that tap's answer too, not an error."""
    try:
        with transaction.atomic():
            call()
    except ValidationError:
        if not done():
            raise


def _status(competition: Competition) -> str:
    return Competition.objects.values_list("status", flat=True).get(pk=competition.pk)


def _need(member, role: str) -> None:
    if not member.can(role):
        raise PermissionDenied(_("Your role at this club does not allow this."))


def _entrant(request: HttpRequest, competition: Competition) -> Entrant:
    value = request.POST.get("entrant", "")
    if not inputs.is_pk_text(value):
        raise ValidationError(_("No such entrant; reload the page."), code="entrant")
    return get_object_or_404(
        Entrant.objects.select_related("member"), pk=int(value), competition=competition
    )


@require_safe
@club_view()
def competition_board(request: HttpRequest, competition_id: int) -> HttpResponse:
    """The round's progress for the club room: each table's state and score, the standings'
    top ten; redraws itself every few seconds (``#board``); ``?tv=1`` for the big screen."""
    competition = _competition(request, competition_id)
    current = running.current_round(competition)
    rows = tables.round_view(current) if current else []
    tv = "tv" in request.GET
    standings = tables.standings(competition)[:BOARD_STANDINGS] if _has_results(competition) else []
    longest = max((len(r.entrant.name) for r in standings), default=10)
    context = {
        "competition": competition,
        "game_name": _game_name(competition.game_key),
        "current": current,
        "cards": _table_cards(request, rows, with_qr=not tv),
        "state": _round_state(competition, current),
        "standings": standings,
        "round_numbers": _round_numbers(competition, current),
        "tv": tv,
        "layout": evening_board.tv_layout(len(standings), len(rows), longest),
        "winners": _winners(competition, standings),
    }
    template = "competitions/competition_board.html"
    if request.htmx:
        template += "#board"
    return render(request, template, context)
