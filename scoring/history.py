"""The club's history of games: filtered by game and player, paged, each game with its winner.

A page is a fixed number of queries whatever it shows: the games (one count, one slice, their
seats and members prefetched), the club's members for the player filter, and, when the page
holds a voided game, the void's audit records for the reasons. The winner and the money come
from the game's snapshot (its final standings and nets), read as two JSON keys rather than the
whole state; a voided game shows neither, since its money was reversed and its result left
the league.

The filters are GET parameters read through ``core.inputs``; a value that does not hold (a
game the app does not know, someone from another club, a page that is not a number) is left
out, so a hand-edited link shows the unfiltered history rather than an error. A page number
past the end answers the last page (``Paginator.get_page``).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django import forms
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.db.models.fields.json import KeyTransform
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import Club, Member
from core import inputs
from engine import registry
from ledger.models import AuditRecord
from scoring import confirming
from scoring.models import Game, GameStatus, Seat

PER_PAGE = 25
MAX_ID = 2**63 - 1  # a primary key (BigAutoField)
MAX_PAGE = 1_000_000


class HistoryFilter(forms.Form):
    """Which games to list: a game, a player, a page; each may be left out."""

    game = forms.ChoiceField(label=_("Game"), required=False)
    player = inputs.IntegerField(
        label=_("Player"), min_value=1, max_value=MAX_ID, required=False, widget=forms.Select
    )
    page = inputs.IntegerField(min_value=1, max_value=MAX_PAGE, required=False)

    def __init__(self, data, *, club: Club):
        super().__init__(data)
        self.members = list(Member.objects.for_club(club).order_by("name", "pk"))
        self.fields["game"].choices = [
            ("", _("All games")),
            *((info.key, gettext(info.name)) for info in registry.all_games()),
        ]
        self.fields["player"].widget.choices = [
            ("", _("Everyone")),
            *((member.pk, member.name) for member in self.members),
        ]

    def clean_player(self) -> int | None:
        player = self.cleaned_data["player"]
        if player is not None and player not in {member.pk for member in self.members}:
            raise forms.ValidationError(_("Choose someone from the club."), code="player")
        return player

    def values(self) -> dict:
        """The filters that hold; what does not is left out (never an error page)."""
        self.is_valid()
        return {name: value for name, value in self.cleaned_data.items() if value}


@dataclass(frozen=True)
class Winner:
    name: str
    net_ore: int


@dataclass(frozen=True)
class Row:
    """One game as the history lists it."""

    game: Game
    name: str
    players: list[str]
    winners: list[Winner]
    void_reason: str


def query_of(filters: dict) -> str:
    """The filters as a query string for the page links (``game=kille&player=3&``)."""
    kept = {name: value for name, value in filters.items() if name != "page"}
    return urlencode(kept) + "&" if kept else ""


def games_for(club: Club, *, game: str = "", player: int | None = None) -> QuerySet[Game]:
    games = Game.objects.for_club(club)
    if game:
        games = games.filter(game_key=game)
    if player:
        games = games.filter(pk__in=Seat.objects.filter(member_id=player).values("game_id"))
    return (
        games.defer("snapshot", "rules", "setup")
        .annotate(
            final_standings=KeyTransform("standings", "snapshot"),
            final_nets=KeyTransform("nets", "snapshot"),
            # Flagged on the list until the host resolves it (scoring.confirming).
            disputed=confirming.is_disputed(),
        )
        .prefetch_related("seats__member")
        .order_by("-started_at", "-pk")
    )


def history_page(club: Club, filters: dict) -> tuple[Page, list[Row]]:
    """The page of the club's history that ``filters`` (``HistoryFilter.values``) asks for."""
    games = games_for(club, game=filters.get("game", ""), player=filters.get("player"))
    page = Paginator(games, PER_PAGE).get_page(filters.get("page", 1))
    reasons = void_reasons(club.pk, [game for game in page if game.status == GameStatus.VOIDED])
    rows = [_row(game, reasons.get(game.pk, "")) for game in page]
    return page, rows


def _row(game: Game, reason: str) -> Row:
    seats = list(game.seats.all())
    return Row(
        game=game,
        name=gettext(registry.display_name(game.game_key)),
        players=[seat.name for seat in seats],
        winners=winners(game, seats),
        void_reason=reason,
    )


def winners(game: Game, seats: list[Seat]) -> list[Winner]:
    """Who came first in a finished game (partners and ties share first place), with what each
    won; nobody for an open or voided game."""
    if game.status != GameStatus.FINISHED:
        return []
    if hasattr(game, "final_standings"):
        standings, nets = game.final_standings, game.final_nets
    else:
        standings, nets = game.snapshot.get("standings"), game.snapshot.get("nets")
    by_key = {seat.key: seat for seat in seats}
    nets = nets if isinstance(nets, dict) else {}
    return [
        Winner(by_key[entry["player"]].name, int(nets.get(entry["player"], 0)))
        for entry in standings or []
        if entry.get("placement") == 1 and entry.get("player") in by_key
    ]


def void_reasons(club_id: int, games: list[Game]) -> dict[int, str]:
    """Why each of ``games`` was voided, as the admin wrote it (from the void's audit record)."""
    if not games:
        return {}
    by_ref = {game.ref: game.pk for game in games}
    records = AuditRecord.objects.filter(
        club_id=club_id, action=AuditRecord.Action.VOID, subject__in=list(by_ref)
    ).values_list("subject", "data")
    return {by_ref[subject]: str((data or {}).get("reason", "")) for subject, data in records}
