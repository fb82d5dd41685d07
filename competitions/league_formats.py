"""League formats: a season counted over the best N of M, participation points, points tables,
a minimum number of games to be ranked.

Design
------
``season(appearances, rules) -> Season``

- An ``Appearance`` is one player's result on one occasion (an evening, or a game): its
  ``order`` (when it was: the evening's date as an ordinal, the game's number; used for ties
  and to list results in time order), and either the ``points`` it earned or, with a points
  table, the ``place`` and the ``field`` (how many players it had).
- ``LeagueRules.points_table`` maps a field size to the points for 1st, 2nd, …
  (``{4: (10, 6, 3, 1)}``); a place past the list earns 0. A field the table does not know is
  refused (the club's table must cover the fields it plays). Without a table, ``points`` is
  used as given (a formula applied by the caller, an evening's placement points, …).
- Best N of M: each player's ``best`` highest results count, the rest are dropped
  (``best=None``: all count). Equal points: the earlier occasion counts, the later is dropped
  (a stated, stable rule; then the input order).
- Participation points: ``participation`` per appearance, counted or dropped (coming counts
  even on a night that is not among the best). Total = counted points + participation points.
- Minimum games: a player with fewer than ``minimum`` appearances is listed apart, unranked
  (same order, ``rank=0``), with the same counted/dropped split so the page can show it.
- Order: total, then the best single counted result, then more appearances; players equal on
  all three share a rank (1, 2, 2, 4), listed in the order they first appear in the input.
- Every ``SeasonLine`` carries ``counted`` and ``dropped`` (appearances with their points, in
  time order) so the league page can show which results count.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from competitions.base import CompetitionError, PlayerId, rank_lines
from engine.errors import _


@dataclass(frozen=True)
class Appearance:
    player: PlayerId
    occasion: Hashable  # the evening's or game's id
    order: int  # when: a date ordinal, a game number
    points: int = 0  # used as given when there is no points table
    place: int | None = None  # 1 = first; with a points table
    field: int | None = None  # players in the field; with a points table


@dataclass(frozen=True)
class LeagueRules:
    best: int | None = None  # count the best N results; None: all
    participation: int = 0  # points per appearance, counted or dropped
    points_table: Mapping[int, Sequence[int]] | None = None  # field size -> points by place
    minimum: int = 0  # appearances needed to be ranked


@dataclass(frozen=True)
class Scored:
    """An appearance and the points it earned (before participation points)."""

    appearance: Appearance
    points: int


@dataclass(frozen=True)
class SeasonLine:
    player: PlayerId
    rank: int  # 0: unranked (too few appearances)
    total: int
    counted_points: int
    participation: int
    appearances: int
    counted: tuple[Scored, ...] = field(default=())
    dropped: tuple[Scored, ...] = field(default=())


@dataclass(frozen=True)
class Season:
    ranked: tuple[SeasonLine, ...]
    unranked: tuple[SeasonLine, ...]


def points_for(appearance: Appearance, rules: LeagueRules) -> int:
    """What one appearance earns by the rules (participation points not included)."""
    if rules.points_table is None:
        return appearance.points
    if appearance.field not in rules.points_table:
        raise CompetitionError(
            _("the points table has no row for {count} players"), count=appearance.field
        )
    if appearance.place is None or appearance.place < 1:
        raise CompetitionError(
            _("{player} has no place on {occasion}"),
            player=appearance.player,
            occasion=appearance.occasion,
        )
    row = rules.points_table[appearance.field]
    return row[appearance.place - 1] if appearance.place <= len(row) else 0


def best_of(scored: Sequence[Scored], best: int | None) -> tuple[list[Scored], list[Scored]]:
    """(counted, dropped), each in time order: the ``best`` highest count; on equal points
    the earlier occasion counts."""
    by_time = sorted(scored, key=lambda s: s.appearance.order)
    if best is None:
        return by_time, []
    chosen = sorted(range(len(by_time)), key=lambda i: (-by_time[i].points, i))[:best]
    keep = set(chosen)
    counted = [s for i, s in enumerate(by_time) if i in keep]
    dropped = [s for i, s in enumerate(by_time) if i not in keep]
    return counted, dropped


def season(appearances: Iterable[Appearance], rules: LeagueRules = LeagueRules()) -> Season:
    """The season's table (see the module docstring)."""
    if rules.best is not None and rules.best < 1:
        raise CompetitionError(
            _("count at least one result per player, not {best}"), best=rules.best
        )
    per_player: dict[PlayerId, list[Scored]] = {}
    for appearance in appearances:
        per_player.setdefault(appearance.player, []).append(
            Scored(appearance, points_for(appearance, rules))
        )
    lines = []
    for player, scored in per_player.items():
        occasions = [s.appearance.occasion for s in scored]
        if len(set(occasions)) != len(occasions):
            raise CompetitionError(_("{player} has two results for one occasion"), player=player)
        counted, dropped = best_of(scored, rules.best)
        counted_points = sum(s.points for s in counted)
        participation = rules.participation * len(scored)
        lines.append(
            SeasonLine(
                player,
                0,
                counted_points + participation,
                counted_points,
                participation,
                len(scored),
                tuple(counted),
                tuple(dropped),
            )
        )

    def key(line: SeasonLine) -> tuple[int, int, int]:
        top = max((s.points for s in line.counted), default=0)
        return (line.total, top, line.appearances)

    ranked = rank_lines([line for line in lines if line.appearances >= rules.minimum], key)
    unranked = rank_lines([line for line in lines if line.appearances < rules.minimum], key)
    return Season(ranked, tuple(_unrank(line) for line in unranked))


def _unrank(line: SeasonLine) -> SeasonLine:
    return replace(line, rank=0)
