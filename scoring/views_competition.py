"""A competition table's pad: the link each pairing or table of a round shows (and its QR).

``competition_table_play`` (``scoring:competition-table-play``): for the club's members. GET
goes to the table's game (open or finished); without one, to the competition's page. POST
(the scorer role) starts the game with the table's seats in order (members and guests), the
competition's game and rules, through scoring's start service: the start key
``competition-table:<table>:<n>`` (``n``: the table's voided games so far) makes a double tap
open one game, and a voided game leaves room for a new one. Only a table of the running
competition's current round, not a bye, without a result, can start a game. A game that plays
from a pot (Kille, Polskt pass) plays at tonight's table of the same number (``_evening_table``):
each table its own pot, as at any club evening; without an open evening it is refused.

``table_path`` is what ``competitions.links`` answers for a table (registered by
``ScoringConfig.ready``).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import evenings
from club.access import club_view
from club.models import Club, Role, User
from competitions import running
from competitions.models import Status, Table
from engine import registry
from scoring import recording
from scoring.models import Game, GameStatus


def table_path(table: Table) -> str:
    return reverse(
        "scoring:competition-table-play",
        kwargs={"club_slug": table.round.competition.club.slug, "table_id": table.pk},
    )


def _table_game(table: Table) -> Game | None:
    return (
        Game.objects.filter(competition_table=table)
        .exclude(status=GameStatus.VOIDED)
        .order_by("-started_at", "-pk")
        .first()
    )


def _competition_page(club: Club, competition) -> HttpResponse:
    """The competition's page (its pairings and standings), where a table without a game is
    started from."""
    try:
        return redirect("competitions:detail", club_slug=club.slug, competition_id=competition.pk)
    except NoReverseMatch:  # the pages' routes not installed (a partial deployment)
        return redirect("scoring:play", club_slug=club.slug)


@require_http_methods(["GET", "HEAD", "POST"])
@club_view()
def competition_table_play(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(
        Table.objects.select_related("round__competition__club"),
        pk=table_id,
        round__competition__club=request.club,
    )
    if table.is_bye:
        raise Http404
    competition = table.round.competition
    back = _competition_page(request.club, competition)
    game = _table_game(table)
    if request.method != "POST" or game is not None:
        if game is None:
            return back
        return redirect("scoring:game-detail", club_slug=request.club.slug, game_id=game.pk)
    if not request.member.can(Role.SCORER):
        raise PermissionDenied(_("Your role at this club does not allow this."))
    try:
        game = start_table_game(request.club, table, request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return back
    return redirect("scoring:game-detail", club_slug=request.club.slug, game_id=game.pk)


@transaction.atomic
def start_table_game(club: Club, table: Table, by: User | None) -> Game:
    """The table's game, started once (see the module docstring)."""
    competition = table.round.competition
    if competition.club_id != club.pk or table.is_bye:
        raise ValidationError(_("That table is not at a competition of this club."), code="table")
    current = running.current_round(competition)
    if competition.status != Status.RUNNING or current is None or current.pk != table.round_id:
        raise ValidationError(_("This table is not in the round being played."), code="round")
    if table.results.exists():
        raise ValidationError(_("This table has its result."), code="finished")
    seats = list(table.seats.select_related("entrant__member").order_by("position"))
    players = [s.entrant.member if s.entrant.member_id else s.entrant.guest_name for s in seats]
    voided = Game.objects.filter(competition_table=table, status=GameStatus.VOIDED).count()
    game = recording.start_game(
        club,
        competition.game_key,
        players,
        by,
        rules=competition.rules,
        key=f"competition-table:{table.pk}:{voided}",
        table=_evening_table(club, competition.game_key, table),
    )
    if game.competition_table_id is None:
        game.competition_table = table
        game.save(update_fields=["competition_table"])
    return game


def _evening_table(club: Club, game_key: str, table: Table):
    """Where a pot game's table plays: tonight's table of the same number, whose pot is its
    own (``evenings.table_numbered``), so the competition's tables play side by side, each
    from its pot, and the players are checked in as at any table. Other games need none."""
    if not registry.get(game_key).declaration.plays_from_pot:
        return None
    evening = evenings.open_tonight(club)
    if evening is None:
        raise ValidationError(
            _("Open tonight's evening first: a %(game)s table plays from its table's pot.")
            % {"game": _(registry.display_name(game_key))},
            code="no_evening",
        )
    return evenings.table_numbered(evening, table.number, game_key)
