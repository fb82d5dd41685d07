"""The league's results as plain rows, grouped by game.

The league reads tens of thousands of ``GameResult`` rows at a time (a recompute, a season's
table): ``read_rows`` reads them as values into ``Row``, a slotted dataclass, not as model
instances, and ``by_game`` groups them by game in finishing order. The rating maths
(``league.ratings``) and the tables (``league.tables``) work on these rows.

Standard-library Python only, like ``league.ratings``: ``read_rows`` is given a queryset and
only calls its methods, so nothing here imports Django.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

FIELDS = (
    "game_ref",
    "game_key",
    "finished_at",
    "member_id",
    "seat",
    "team",
    "placement",
    "score",
    "net_ore",
    "players",
    "details",
)


@dataclass(slots=True)
class Row:
    """A ``GameResult`` read as values (the league reads tens of thousands at a time)."""

    game_ref: str
    game_key: str
    finished_at: datetime
    member_id: int | None
    seat: int
    team: int | None
    placement: int
    score: int
    net_ore: int
    players: int
    details: dict


def read_rows(results) -> list[Row]:
    """``results`` (a GameResult queryset) in finishing order, seat by seat."""
    ordered = results.order_by("finished_at", "game_ref", "seat").values_list(*FIELDS)
    return [Row(*values) for values in ordered]


def by_game(results: Iterable[Row]) -> list[list[Row]]:
    """``results`` grouped by game, the games in finishing order."""
    games: dict[str, list[Row]] = defaultdict(list)
    for result in results:
        games[result.game_ref].append(result)
    grouped = list(games.values())
    grouped.sort(key=lambda rows: (rows[0].finished_at, rows[0].game_ref))
    return grouped
