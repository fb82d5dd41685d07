"""League formats: a season counted over the best N of M, participation points, points tables,
a minimum number of appearances to be ranked (issue 29, item 3).

The rules (pure; moved here from ``competitions`` because the league may not import it)
------------------------------------------------------------------------------------------
``season(appearances, rules) -> Season``

- An ``Appearance`` is one player's result on one occasion (an evening, or a game): its
  ``order`` (when it was: the evening's date as an ordinal, the game's number; used for ties
  and to list results in time order), and either the ``points`` it earned or, with a points
  table, the ``place`` and the ``field`` (how many players it had).
- ``LeagueRules.points_table`` maps a field size to the points for 1st, 2nd, …
  (``{4: (10, 6, 3, 1)}``); a place past the list earns 0. ``season`` refuses a field the
  table does not know; the league's tables (below) give it 0 instead, as the settings page
  says, so a game of a size the club forgot cannot stop a season's table from being built.
  Without a table, ``points`` is used as given (a formula applied by the caller, an evening's
  placement points, …).
- Best N of M: each player's ``best`` highest results count, the rest are dropped
  (``best=None``: all count). Equal points: the earlier occasion counts, the later is dropped
  (a stated, stable rule; then the input order).
- Participation points: ``participation`` per appearance, counted or dropped (coming counts
  even on a night that is not among the best). Total = counted points + participation points.
- Minimum: a player with fewer than ``minimum`` appearances is listed apart, unranked
  (same order, ``rank=0``), with the same counted/dropped split so the page can show it.
- Order: total, then the best single counted result, then more appearances; players equal on
  all three share a rank (1, 2, 2, 4), listed in the order they first appear in the input.
- Every ``SeasonLine`` carries ``counted`` and ``dropped`` (appearances with their points, in
  time order) so the league page can show which results count.

How the league uses it (``league.tables``, ``league.incremental``)
------------------------------------------------------------------
- The club's format is one ``league.models.LeagueFormat`` row (OneToOne to the club, like the
  placement scheme it stands beside on the settings page: one format for every season and game
  kind; a club that changes it has every table rebuilt, as when it changes the scheme). No row,
  or a row with every option at its default (``LeagueFormat.is_default``), is today's league:
  the code path that built the tables before formats existed runs unchanged.
- The least risky fit with the incremental standings: the format is applied when a season's
  table is *built* (``tables.build_table``), never on read and never incrementally. Best N of M
  is not a sum: one new evening can move a player's dropped result back into the counted ones,
  so appending to a line is wrong. For a club with a format, ``incremental._append`` rebuilds
  the season's table of the kind (from the season's ``GameResult`` rows, a few hundred) instead
  of appending to it; everything else (the ratings, the progress row and its lock, the rebuild
  after a late or voided game, the recompute after the settings are saved) is as before. The
  tables stay materialised, so the league page reads them in the same queries whatever the
  format and however long the season.
- An occasion is a club day (the day the game finished, Europe/Stockholm) or a game
  (``LeagueFormat.unit``). A game's points for a member are the points table's for the game's
  number of players (guests included: they sat at the table) and the member's place, else the
  club's placement points (``tables.placement_points``, cribbage skunks as the club counts
  them); an evening's points are the sum of its games'. Guests have no line and count for
  nothing, as before.
- A line's ``Standing.points`` is the format's total, ``Standing.rank`` its position (ranked
  lines first, the unranked after them), and ``Standing.extra["league_format"]`` what the page
  shows: the shared rank (0: unranked), the counted and dropped results (day and points, in
  time order), the appearances, the participation points, and the format itself with the
  season's number of occasions (``league.views.format_sentence`` makes the sentence "Best 8 of
  12 evenings; 1 point per evening played; at least 4 evenings to be ranked" from it, in the
  reader's language). The page thus describes the format its table was counted under, and
  reads nothing more than before (tests/league/test_league_format.py counts the queries).
- ``parse_points_table`` reads the settings page's grid ("4: 10 6 3 1", one line per number of
  players) and refuses bad lines with messages that name the line (``FormatError``'s template
  and parameters, translated by the form).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from engine.errors import EngineError, _
from engine.ranking import rank_lines

PlayerId = Hashable  # an int or a string the caller chooses


class FormatError(EngineError):
    """A format or a points table that cannot be used; the message says what to change."""


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
        raise FormatError(
            _("the points table has no row for {count} players"), count=appearance.field
        )
    if appearance.place is None or appearance.place < 1:
        raise FormatError(
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
        raise FormatError(_("count at least one result per player, not {best}"), best=rules.best)
    per_player: dict[PlayerId, list[Scored]] = {}
    for appearance in appearances:
        per_player.setdefault(appearance.player, []).append(
            Scored(appearance, points_for(appearance, rules))
        )
    lines = []
    for player, scored in per_player.items():
        occasions = [s.appearance.occasion for s in scored]
        if len(set(occasions)) != len(occasions):
            raise FormatError(_("{player} has two results for one occasion"), player=player)
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


# --- The settings page's points table ---------------------------------------------------------

PointsTable = Mapping[int, Sequence[int]]
MAX_FIELD = 100  # players at one game: more than any card table
MAX_POINTS = 10_000  # for one place: a sum of a season's stays far inside the column
_NUMBER = re.compile(r"[0-9]{1,6}", re.ASCII)
_LINE = re.compile(r"\s*([^:]*):(.*)", re.S)


def table_points(table: PointsTable, field: int, place: int) -> int:
    """The table's points for ``place`` (1 = first) in a field of ``field`` players; a place
    past the line, or a field the table has no line for, earns 0 (the settings page says so)."""
    row = table.get(field, ())
    return row[place - 1] if 1 <= place <= len(row) else 0


def _whole(text: str, number: int, line: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise FormatError(
            _('line {number} ("{line}"): "{text}" is not a whole number'),
            number=number,
            line=line,
            text=text,
        )
    return int(text)


def parse_points_table(text: str) -> dict[int, tuple[int, ...]]:
    """The points table from its text: one line per number of players, "4: 10 6 3 1" (the
    points for 1st, 2nd, … separated by spaces or commas); blank lines are skipped. Every
    refusal names the line (``FormatError``)."""
    table: dict[int, tuple[int, ...]] = {}
    lines: dict[int, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        shown = line if len(line) <= 40 else line[:39] + "…"
        match = _LINE.fullmatch(line)
        if match is None:
            raise FormatError(
                _(
                    'line {number} ("{line}"): write the number of players, a colon, then the '
                    "points by place, e.g. 4: 10 6 3 1"
                ),
                number=number,
                line=shown,
            )
        field = _whole(match.group(1).strip(), number, shown)
        if not 1 <= field <= MAX_FIELD:
            raise FormatError(
                _('line {number} ("{line}"): a game has 1 to {most} players, not {field}'),
                number=number,
                line=shown,
                most=MAX_FIELD,
                field=field,
            )
        if field in table:
            raise FormatError(
                _('line {number} ("{line}"): {field} players already have line {first}'),
                number=number,
                line=shown,
                field=field,
                first=lines[field],
            )
        words = [w for w in re.split(r"[\s,;]+", match.group(2).strip()) if w]
        if not words:
            raise FormatError(
                _('line {number} ("{line}"): no points after the colon'),
                number=number,
                line=shown,
            )
        points = tuple(_whole(word, number, shown) for word in words)
        if len(points) > field:
            raise FormatError(
                _('line {number} ("{line}"): {count} places for {field} players'),
                number=number,
                line=shown,
                count=len(points),
                field=field,
            )
        if any(p > MAX_POINTS for p in points):
            raise FormatError(
                _('line {number} ("{line}"): at most {most} points for a place'),
                number=number,
                line=shown,
                most=MAX_POINTS,
            )
        if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
            raise FormatError(
                _('line {number} ("{line}"): a lower place cannot earn more points'),
                number=number,
                line=shown,
            )
        table[field] = points
        lines[field] = number
    return table


def points_table_text(table: PointsTable) -> str:
    """The table as the settings page writes it, smallest field first."""
    return "\n".join(
        f"{field}: {' '.join(str(p) for p in table[field])}" for field in sorted(table)
    )


# --- A season's table of one game kind, from the league's rows --------------------------------

EVENING = "evening"
GAME = "game"


@dataclass(frozen=True)
class Counted:
    """A season under a format, ready for ``league.tables``: the lines, which day each
    occasion was (to show beside its points), and how many occasions the season had."""

    season: Season
    days: dict[Hashable, date]
    occasions: int


def count_season(
    games: Sequence[Sequence[Any]],
    rules: LeagueRules,
    unit: str,
    points_of: Callable[[Sequence[Any]], dict[int, int]],
    day_of: Callable[[datetime], date],
) -> Counted:
    """The season's lines under ``rules`` (its ``points_table`` already applied by
    ``points_of``, which gives each member's points for one game's rows). ``games``: lists
    of ``league.rows.Row`` in finishing order; an occasion is a day (``unit`` "evening") or a
    game, and an evening's points are the sum of its games'."""
    totals: dict[tuple[int, Hashable], int] = {}
    order: dict[Hashable, int] = {}
    days: dict[Hashable, date] = {}
    for rows in games:
        day = day_of(rows[0].finished_at)
        occasion: Hashable = day if unit == EVENING else rows[0].game_ref
        order.setdefault(occasion, len(order))
        days[occasion] = day
        for member, points in points_of(rows).items():
            totals[(member, occasion)] = totals.get((member, occasion), 0) + points
    appearances = [
        Appearance(member, occasion, order[occasion], points=points)
        for (member, occasion), points in totals.items()
    ]
    plain = replace(rules, points_table=None)
    return Counted(season(appearances, plain), days, len(order))
