"""What the club evening's board shows of a table's games (``evenings.board``): the leader by
the engine's standings in the snapshot, the leader's score, and the pad's address."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from engine import registry
from evenings.board import GameStatus
from scoring.games import names_of
from scoring.models import Game
from scoring.models import GameStatus as Status


def table_statuses(games: list[Game]) -> dict[int, GameStatus]:
    statuses = {}
    for game in games:  # with their seats and club loaded (evenings.board)
        if game.status == Status.VOIDED:
            continue
        standings = (game.snapshot or {}).get("standings") or []
        first = next((s for s in standings if s.get("placement") == 1), None)
        names = names_of(game.seats.all())
        statuses[game.pk] = GameStatus(
            game_id=game.pk,
            game_name=_(registry.display_name(game.game_key)),
            leader=names.get(first["player"], "") if first else "",
            score=str(first.get("score", "")) if first else "",
            url=reverse("scoring:game-detail", args=[game.club.slug, game.pk]),
            is_open=game.status == Status.OPEN,
        )
    return statuses
