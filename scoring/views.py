"""Pages of the table: play, a game's pad, history, and the calculators.

The pad is one template per game (``scoring/pads/<game>.html``) inside one page,
``scoring/game_detail.html``, whose ``pad`` partial is what htmx swaps: after an event, and
when polling finds that another phone recorded something. Polling answers 204 (nothing to swap)
while ``seq`` is unchanged, so an idle pad costs one indexed row read every two seconds.

The pad shows the latest ``PAD_HISTORY`` lines of the game's history, newest first, and a link
to all of them (the same page with ``?history=all``): nothing recorded is ever out of reach, and
a long evening's pad stays as quick as a short one's. Its rows are rendered once per event and
kept (``scoring.pad_history``); the state comes from the replay cache or the game's snapshot.
"""

from __future__ import annotations

import uuid
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import OuterRef, Prefetch, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import ledger
from club.access import club_view
from club.models import Member, Role
from core import inputs
from engine import registry
from evenings.models import EveningStatus, Table
from live import polls as live_polls
from scoring import calculators as calc
from scoring import confirming, games, guest, history, pad_history, recording
from scoring.forms import StartGameForm, VoidForm
from scoring.messages import event_text, sentence, with_names
from scoring.models import Confirmation, Game, GameStatus, Seat

MAX_SEQ = 2**31 - 1  # Event.seq and Game.seq are PositiveIntegerFields
MAX_TYPE = 30  # Event.type
PAD_HISTORY = pad_history.PAD_HISTORY


@require_safe
@club_view()
def play(request: HttpRequest) -> HttpResponse:
    open_games = list(
        Game.objects.for_club(request.club)
        .filter(status=GameStatus.OPEN)
        .prefetch_related("seats__member")
    )
    for game in open_games:
        game.display_name = _(registry.display_name(game.game_key))
    return render(
        request,
        "scoring/play.html",
        {
            "games": [(info, _(info.name)) for info in played_games(request.club)],
            "open_games": open_games,
        },
    )


def played_games(club) -> list[registry.GameInfo]:
    """The games the club plays (``Club.games_played``, in its order; empty: every game)."""
    known = {info.key: info for info in registry.all_games()}
    chosen = [known[key] for key in club.games_played or () if key in known]
    return chosen or list(known.values())


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.SCORER)
def game_start(request: HttpRequest, game_key: str) -> HttpResponse:
    try:
        info = registry.get(game_key)
    except KeyError:
        raise Http404 from None
    table = _start_table(request)
    if table is None and info not in played_games(request.club):
        raise Http404  # not a game this club plays (an evening's table may offer any)
    last = (
        Game.objects.for_club(request.club)
        .filter(game_key=game_key)
        .exclude(status=GameStatus.VOIDED)
        .order_by("-started_at")
        .values_list("rules", flat=True)
        .first()
    )
    defaults = request.club.game_defaults
    form = StartGameForm(
        request.POST or None,
        club=request.club,
        rules_class=info.module.Rules,
        club_rules=last,
        club_defaults=defaults.get(game_key) if isinstance(defaults, dict) else None,
        initial=_seated_at(table) if table else None,
    )
    if request.method == "POST" and form.is_valid():
        seated = form.cleaned_data["seated"]
        if table is not None:
            seated = _in_table_order(table, seated)
        setup = games.start_setup(request.club, info.key, table.number if table else None)
        if form.cleaned_data["draw_dealer"]:
            seated, setup = games.draw_first_dealer(info, seated, setup)
        try:
            game = recording.start_game(
                request.club,
                game_key,
                seated,
                request.user,
                rules=form.rules_options(),
                setup=setup,
                key=form.cleaned_data["submission"] or None,
                table=table,
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect("scoring:game-detail", club_slug=request.club.slug, game_id=game.pk)
    return render(
        request,
        "scoring/game_start.html",
        {"form": form, "info": info, "game_name": _(info.name), "table": table},
        status=422 if form.is_bound else 200,
    )


def _start_table(request: HttpRequest) -> Table | None:
    """The club evening's table the game starts at (``?table=`` on the page, a hidden field
    when sent): one of this club's open evenings' tables, else 404."""
    value = request.POST.get("table") or request.GET.get("table")
    if not value:
        return None
    if not inputs.is_pk_text(value):
        raise Http404
    return get_object_or_404(
        Table.objects.select_related("evening"),
        pk=int(value),
        evening__club=request.club,
        evening__status=EveningStatus.OPEN,
    )


def _seated_at(table: Table) -> dict:
    """The start form filled in from the table: its members in seat order, its guests."""
    seats = list(table.seats.select_related("attendee__member").order_by("position"))
    members = [s.attendee.member_id for s in seats if s.attendee.member_id]
    guests = [s.attendee.guest_name for s in seats if not s.attendee.member_id]
    return {
        "players": members,
        "order": ",".join(str(pk) for pk in members),
        "guests": ", ".join(guests),
    }


def _in_table_order(table: Table, seated: list) -> list:
    """The players in the seats the table drew or the host chose (guests included: the form
    lists members and guests apart), when they are the table's people; else as the form has
    them (the host changed who plays)."""
    seats = table.seats.select_related("attendee").order_by("position")
    at_table = [s.attendee.member_id or f"guest:{s.attendee.guest_name}" for s in seats]
    ids = [p.pk if isinstance(p, Member) else f"guest:{p.strip()}" for p in seated]
    if sorted(map(str, ids)) != sorted(map(str, at_table)):
        return seated
    by_id = dict(zip(ids, seated, strict=True))
    return [by_id[who] for who in at_table]


def _game(request: HttpRequest, game_id: int) -> Game:
    game = get_object_or_404(
        Game.objects.for_club(request.club)
        .select_related("table")
        # The pad draws from the replayed state; the stored snapshot (which grows with every
        # deal of an evening) is read only if a page asks for it (a finished game's result).
        .defer("snapshot")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("member"))),
        pk=game_id,
    )
    game.club = request.club  # the club it was looked up in: no second read
    return game


def _wants_all_history(request: HttpRequest) -> bool:
    return request.GET.get("history") == "all"


def _pad_context(
    request: HttpRequest, game: Game, *, may_record: bool | None = None, **extra
) -> dict:
    """``may_record``: whether this reader records (None: a scorer of the club does); a guest's
    and a follower's pads say so, and give their own ``*_url`` (``scoring.views_guest``)."""
    if may_record is None:
        member = getattr(request, "member", None)
        may_record = member is not None and member.is_scorer
    info = game.played
    pad = games.pad_for(game.game_key)
    seats = list(game.seats.all())
    state, _nets = recording.current_state(game)
    everything = _wants_all_history(request)
    names = games.names_of(seats)
    # Readers outside the club (a follower, a guest) are not told who recorded what.
    in_club = getattr(request, "member", None) is not None
    history = pad_history.rows(game, names, everything=everything, show_by=in_club)
    undo_what = pad_history.undo_what(game, history, names)
    if extra.get("error"):
        extra["error"] = sentence(with_names(str(extra["error"]), names))
    if extra.get("stale"):
        extra["stale"] = [event_text(event, names) for event in extra["stale"]]
    return {
        "game": game,
        "info": info,
        "game_name": _(info.name),
        "seats": seats,
        "names": names,
        "state": state,
        "pad_template": pad.template,
        "event_key": uuid.uuid4().hex,
        "can_record": may_record and game.is_open,
        "can_undo": may_record and bool(undo_what) and recording.may_undo(game),
        **_pad_urls(game),
        # The host may let a guest record (scoring.guest); asked only by the full page.
        "can_invite_guest": may_record and game.is_open,
        "guest_active": partial(guest.active, game),
        "history": history,
        "history_all": everything,
        "history_more": len(history) < game.seq,
        "undo_what": undo_what,
        "pot_ore": _pot_balance(game),
        "pad_css": pad.css,
        "confirming": confirming.pad_panel(game, getattr(request, "member", None)),
        **games.pad_context(game, state, seats),
        **extra,
    }


def _pad_urls(game: Game) -> dict[str, str]:
    """Where the pad's forms post, its polls ask and its links lead, for a member of the club."""
    args = [game.club.slug, game.pk]
    return {
        "event_url": reverse("scoring:game-event", args=args),
        "poll_url": reverse("scoring:game-poll", args=args),
        "pad_url": reverse("scoring:game-detail", args=args),
    }


def _pot_balance(game: Game) -> int | None:
    account = ledger.game_pot(game.club, game.game_key, table=game.pot_table, create=False)
    # The row just read holds the balance (the cached column ``ledger.balance`` reads).
    return account.balance_ore if account else None


def _render_pad(request: HttpRequest, game: Game, status: int = 200, **extra) -> HttpResponse:
    template = "scoring/game_detail.html"
    if request.htmx:
        template += "#pad"
    return render(request, template, _pad_context(request, game, **extra), status=status)


@require_safe
@club_view()
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    return _render_pad(request, _game(request, game_id))


@require_safe
@login_required
def game_poll(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """The phones' live sync, every 2 s per phone without a stream: "anything after seq N?".
    Most are answered before they get here, from the shared cache (``live.polls``). One that finds
    nothing new answers 204 from one query — the game's seq, if the user is an active member of
    its club (the same access as the pad) — and writes nothing; the login comes from the cached
    session. Only a poll that finds something renders the pad, through the pad's own view."""
    try:
        seq = inputs.parse_int(request.GET.get("seq", ""), lo=0, hi=MAX_SEQ)
    except ValidationError:
        seq = None  # a phone that sent no readable seq gets the whole pad
    try:
        sent_stamp = inputs.parse_int(request.GET.get("c") or "0", lo=0, hi=2**63 - 1)
    except ValidationError:
        sent_stamp = -1
    # The newest confirmation's id beside the seq: a word changes the pad, not the seq.
    newest_word = Confirmation.objects.filter(game=OuterRef("pk")).order_by("-pk").values("pk")
    found = (
        Game.objects.filter(
            pk=game_id,
            club__slug=club_slug,
            club__members__user=request.user,
            club__members__active=True,
        )
        .annotate(stamp=Subquery(newest_word[:1]))
        .values_list("seq", "stamp")
        .first()
    )
    if found is None:
        raise Http404
    current, stamp = found
    if seq == current and sent_stamp == (stamp or 0):
        if stamp is None:
            # The next poll is answered from the cache; never for a game with words, whose
            # "nothing new" the cache cannot tell (scoring.confirming).
            live_polls.remember(game_id, current)
        return HttpResponse(status=204)
    return game_detail(request, club_slug=club_slug, game_id=game_id)


@require_POST
@club_view(role=Role.SCORER)
def game_event(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(request, game_id)
    answer = record_tap(request, game, by=request.user)
    return answer or redirect("scoring:game-detail", club_slug=request.club.slug, game_id=game.pk)


def record_tap(
    request: HttpRequest, game: Game, *, by, guest_pass=None, **pad
) -> HttpResponse | None:
    """Record the pad's form as an event of ``game``: the pad (409 stale, 422 refused, or the
    new pad for htmx), or None when recorded for a plain form (the caller redirects). ``pad``:
    what the pad is rendered with (a guest's URLs)."""
    try:
        # The pad's form, read once (core.inputs): what it cannot hold is refused with the pad.
        expected_seq = inputs.parse_int(request.POST.get("expected_seq", ""), lo=0, hi=MAX_SEQ)
        key = inputs.parse_token(request.POST.get("idempotency_key") or uuid.uuid4().hex)
        event_type = inputs.parse_token(request.POST.get("type", ""), max_length=MAX_TYPE)
        payload = inputs.parse_payload(request.POST)
        recording.append_event(
            game,
            event_type,
            payload,
            expected_seq=expected_seq,
            idempotency_key=key,
            by=by,
            guest_pass=guest_pass,
        )
    except recording.StaleGame as stale:
        game.refresh_from_db()
        return _render_pad(request, game, status=409, stale=stale.missed, **pad)
    except ValidationError as error:
        game.refresh_from_db()
        return _render_pad(request, game, status=422, error=" ".join(error.messages), **pad)
    except KeyError:
        raise Http404 from None
    game.refresh_from_db()
    if request.htmx:
        return _render_pad(request, game, **pad)
    return None


@require_POST
@club_view()
def game_confirm(request: HttpRequest, game_id: int) -> HttpResponse:
    """A seated player's "Stämmer" or dispute, or the host's "confirm as it stands"
    (``scoring.confirming`` says who may); answered with the pad."""
    game = _game(request, game_id)
    # Not "action": a form's field of that name would hide the form's own action from pad.js.
    answer = request.POST.get("answer", "")
    try:
        seq = inputs.parse_int(request.POST.get("seq", ""), lo=0, hi=MAX_SEQ)
        key = inputs.parse_token(request.POST.get("idempotency_key") or uuid.uuid4().hex)
        word = request.POST.get("word", "")
        if answer == "resolve":
            confirming.resolve(game, request.member, seq=seq, key=key)
        else:
            confirming.record(game, request.member, answer, seq=seq, key=key, word=word)
    except ValidationError as error:
        game.refresh_from_db()
        return _render_pad(request, game, status=422, error=" ".join(error.messages))
    game.refresh_from_db()
    if request.htmx:
        return _render_pad(request, game)
    return redirect("scoring:game-detail", club_slug=request.club.slug, game_id=game.pk)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def game_void(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game(request, game_id)
    form = VoidForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            recording.void_game(game, form.cleaned_data["reason"], request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("The game was voided and its money reversed."))
            return redirect("scoring:game-detail", club_slug=request.club.slug, game_id=game.pk)
    return render(request, "scoring/game_void.html", {"game": game, "form": form})


@require_safe
@club_view()
def game_list(request: HttpRequest) -> HttpResponse:
    form = history.HistoryFilter(request.GET, club=request.club)
    filters = form.values()
    page, rows = history.history_page(request.club, filters)
    context = {"form": form, "page": page, "rows": rows, "query": history.query_of(filters)}
    return render(request, "scoring/game_list.html", context)


@require_safe
def game_help(request: HttpRequest, game_key: str) -> HttpResponse:
    """How the app scores a game, in Swedish and English; no login needed."""
    if game_key not in registry.game_keys():
        raise Http404
    try:
        template = get_template(f"scoring/help/{game_key}.html")
    except TemplateDoesNotExist:
        raise Http404 from None
    try:
        info = registry.get(game_key)
    except KeyError:
        info = None
    return HttpResponse(
        template.render(
            {
                "game_key": game_key,
                "game_name": _(registry.display_name(game_key)),
                "info": info,
            },
            request,
        )
    )


@require_safe
def calculators(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/calculators.html", {"links": calc.links()})
