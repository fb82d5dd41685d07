"""Pages a link opens without the club's login: a table's link and a guest's link
(``scoring.guest`` has the design). The host's two buttons (make a guest link, close every one)
are here too, behind the club's login.

Both links render the club's own pad (``scoring/game_detail.html``) with their own URLs for its
forms, polls and links (``/t/<token>/…``, ``/g/<token>/…``) and no club in the context: the page
has no tab bar and no way to the club's pages, and nothing on it reveals another table.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Case, IntegerField, Value, When
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from club.access import club_view
from club.models import Member, Role
from core import inputs
from evenings import table_links
from evenings.models import Table
from scoring import guest
from scoring.models import Game, GameStatus, GuestPass
from scoring.views import MAX_SEQ, _game, _render_pad, record_tap

# --- a table's link: /t/<token>/ ---------------------------------------------------------------


def _closed(request: HttpRequest, status: int, heading: str, explanation: str) -> HttpResponse:
    """A link that leads nowhere, said plainly; its ``#pad`` replaces a polling pad in place."""
    template = "scoring/guest_closed.html" + ("#pad" if request.htmx else "")
    context = {"heading": heading, "explanation": explanation}
    return render(request, template, context, status=status)


def _no_table(request: HttpRequest) -> HttpResponse:
    return _closed(
        request,
        404,
        _("No such table"),
        _("This link does not lead to a table. Ask the host for the table's code again."),
    )


def _is_member(request: HttpRequest, table: Table) -> bool:
    return (
        request.user.is_authenticated
        and Member.objects.filter(
            club_id=table.evening.club_id, user=request.user, active=True
        ).exists()
    )


def _follow_context(request: HttpRequest, token: str, game: Game) -> dict:
    login = reverse("login") + "?" + urlencode({"next": request.path})
    return {
        "may_record": False,
        "can_invite_guest": False,
        "event_url": "",
        "pad_url": reverse("scoring:table-follow", args=[token]),
        "poll_url": reverse("scoring:table-follow-poll", args=[token, game.pk]),
        "pad_note": "follow",
        "login_url": "" if request.user.is_authenticated else login,
    }


@require_safe
def table_follow(request: HttpRequest, token: str) -> HttpResponse:
    """A member of the table's club goes to the table's game (or the evening, before one
    starts); anyone else follows the game read-only."""
    table = table_links.table_for(token)
    if table is None:
        return _no_table(request)
    game = guest.table_game(table)
    if _is_member(request, table):
        slug = table.evening.club.slug
        if game is None:
            return redirect("evenings:detail", club_slug=slug, evening_id=table.evening_id)
        return redirect("scoring:game-detail", club_slug=slug, game_id=game.pk)
    if game is None:
        login = reverse("login") + "?" + urlencode({"next": request.path})
        context = {
            "table": table,
            "poll_url": reverse("scoring:table-follow-poll", args=[token, 0]),
            "login_url": "" if request.user.is_authenticated else login,
        }
        return render(request, "scoring/table_follow.html", context)
    return _render_pad(request, game, **_follow_context(request, token, game))


def _table_now(table: Table) -> tuple[int, int] | None:
    """(id, seq) of the table's game as ``guest.table_game`` picks it, in one query."""
    rank = Case(
        When(status=GameStatus.OPEN, then=Value(0)),
        When(status=GameStatus.FINISHED, then=Value(1)),
        default=Value(2),
        output_field=IntegerField(),
    )
    return (
        Game.objects.filter(table=table)
        .order_by(rank, "-started_at", "-pk")
        .values_list("pk", "seq")
        .first()
    )


@require_safe
def table_follow_poll(request: HttpRequest, token: str, game_id: int) -> HttpResponse:
    """The follower's poll: 204 while nothing changed, the read-only pad when the game moved,
    and a reload of the page when the table moved on to another game."""
    table = table_links.table_for(token)
    if table is None:
        return _no_table(request)
    now = _table_now(table)
    if (now[0] if now else 0) != game_id:
        return HttpResponseClientRefresh()
    try:
        seq = inputs.parse_int(request.GET.get("seq", ""), lo=0, hi=MAX_SEQ)
    except ValidationError:
        seq = None
    if now is None or seq == now[1]:
        return HttpResponse(status=204)
    game = guest.game_of(game_id)
    return _render_pad(request, game, **_follow_context(request, token, game))


# --- a guest's link: /g/<token>/ ---------------------------------------------------------------


def _guest_pass(request: HttpRequest, token: str) -> GuestPass | HttpResponse:
    """The token's pass, or the page that says why not (404 unknown, 403 closed)."""
    found = guest.pass_for(token)
    if found is None:
        return _closed(
            request,
            404,
            _("No such guest link"),
            _("This link does not lead to a game. Ask the host for a new guest link."),
        )
    if found.revoked_at is not None:
        return _closed(
            request,
            403,
            _("The guest link is closed"),
            _("The host has closed this guest link. Ask the host if you should keep the score."),
        )
    return found


def _guest_context(token: str, game: Game) -> dict:
    own = reverse("scoring:guest-pad", args=[token])
    return {
        "may_record": game.is_open,
        "can_invite_guest": False,
        "event_url": reverse("scoring:guest-event", args=[token]),
        "pad_url": own,
        "poll_url": reverse("scoring:guest-poll", args=[token]),
        "pad_note": "guest" if game.is_open else "guest-over",
    }


@require_safe
def guest_pad(request: HttpRequest, token: str) -> HttpResponse:
    found = _guest_pass(request, token)
    if isinstance(found, HttpResponse):
        return found
    game = guest.game_of(found.game_id)
    return _render_pad(request, game, **_guest_context(token, game))


@require_safe
def guest_poll(request: HttpRequest, token: str) -> HttpResponse:
    found = _guest_pass(request, token)
    if isinstance(found, HttpResponse):
        return found
    try:
        seq = inputs.parse_int(request.GET.get("seq", ""), lo=0, hi=MAX_SEQ)
    except ValidationError:
        seq = None
    current = Game.objects.filter(pk=found.game_id).values_list("seq", flat=True).first()
    if seq == current:
        return HttpResponse(status=204)
    game = guest.game_of(found.game_id)
    return _render_pad(request, game, **_guest_context(token, game))


@require_POST
def guest_event(request: HttpRequest, token: str) -> HttpResponse:
    """A guest's tap: the members' recording service, for the pass's own game only."""
    found = _guest_pass(request, token)
    if isinstance(found, HttpResponse):
        return found
    game = guest.game_of(found.game_id)
    pad = _guest_context(token, game)
    answer = record_tap(request, game, by=None, guest_pass=found, **pad)
    return answer or redirect("scoring:guest-pad", token=token)


# --- the host's buttons ------------------------------------------------------------------------


@require_POST
@club_view(role=Role.SCORER)
def guest_new(request: HttpRequest, game_id: int) -> HttpResponse:
    """A new guest link for an open game, shown once on the pad this answers with."""
    game = _game(request, game_id)
    if not game.is_open:
        messages.error(request, _("Only an open game takes a guest."))
        return redirect("scoring:game-detail", club_slug=request.club.slug, game_id=game.pk)
    _pass, token = guest.create_pass(game, request.user)
    url = request.build_absolute_uri(reverse("scoring:guest-pad", args=[token]))
    svg = table_links.qr_svg(url, _("The guest's link"))
    shown = {"url": url, "svg": mark_safe(svg)}  # noqa: S308 - segno's markup, its title escaped
    return _render_pad(request, game, new_guest=shown)


@require_POST
@club_view(role=Role.SCORER)
def guest_close(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(request, game_id)
    guest.revoke(game)
    messages.success(request, _("The guest's access is closed."))
    return redirect("scoring:game-detail", club_slug=request.club.slug, game_id=game.pk)
