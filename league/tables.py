"""Season tables: a season's standings and head-to-head records of one game kind.

- A result belongs to the season whose dates hold the day it finished (Europe/Stockholm):
  ``season_results``. Seasons are the club's (``club.seasons``).
- Tables are materialised (``Standing``, ``HeadToHead``), so the standings page is a single
  query. ``rebuild_table`` builds one from the season's results, from scratch: running it twice
  changes nothing. ``append_to_table`` adds a kind's newest games to the players' lines and
  pairs they touch and re-ranks: what a rebuild would give (tests/league/test_incremental.py).
- Placement points follow the club's scheme: 3-1-0 (3 for an outright win, 1 for a shared
  first place), n−1 … 0 (one point for every player finishing below you), or the game's own
  score. Cribbage skunks may count double (triple for a double skunk) as a club option.
- Rows are ranked by points, points per game, wins and rating; a full tie keeps the order in
  which the players first appeared in the season.
- A club with a league format (``league.formats``: best N of M, participation points, a points
  table, a minimum) has its tables built by ``build_table`` under the format and never
  appended to (``active_format``; the design is in ``league.formats``).

A line's rating is the member's latest ``RatingPoint`` up to the season's end, so the ratings are
brought up to date first (``league.incremental`` does it in that order). Reads the results as
``league.rows``; which kinds need a rebuild is ``league.incremental``'s business.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import Max
from django.utils import timezone

from club.models import Club, PlacementScheme, Season
from league.formats import count_season, table_points
from league.models import GameResult, HeadToHead, LeagueFormat, RatingPoint, Standing
from league.ratings import Point
from league.rows import Row, by_game, read_rows


def _day_bounds(start: date, end: date) -> tuple[datetime, datetime]:
    zone = timezone.get_current_timezone()
    return (
        datetime.combine(start, time.min, tzinfo=zone),
        datetime.combine(end + timedelta(days=1), time.min, tzinfo=zone),
    )


def season_results(season: Season, game_keys: Iterable[str] | None = None):
    start, end = _day_bounds(season.start, season.end)
    results = GameResult.objects.filter(
        club_id=season.club_id, finished_at__gte=start, finished_at__lt=end
    )
    if game_keys is not None:
        results = results.filter(game_key__in=list(game_keys))
    return results


def placement_points(scheme: str, result: GameResult | Row, shared_first: bool) -> int:
    if scheme == PlacementScheme.GAME_SCORE:
        return result.score
    if scheme == PlacementScheme.THREE_ONE_ZERO:
        if result.placement != 1:
            return 0
        return 1 if shared_first else 3
    # n−1 … 0: one point for every player who finished below.
    return result.details.get("_below", result.players - result.placement)


def _points(club: Club, result: GameResult | Row, shared_first: bool) -> int:
    points = placement_points(club.placement_scheme, result, shared_first)
    if result.game_key == "cribbage" and club.skunks_in_league and result.placement == 1:
        points *= 1 + int(result.details.get("skunk", 0))
    return points


def _annotate_below(rows: list[Row]) -> None:
    for row in rows:
        row.details = dict(row.details or {})
        row.details["_below"] = sum(1 for other in rows if other.placement > row.placement)


def rebuild_table(club: Club, season: Season, game_key: str) -> None:
    Standing.objects.filter(season=season, game_key=game_key).delete()
    HeadToHead.objects.filter(season=season, game_key=game_key).delete()
    build_table(club, season, game_key, by_game(read_rows(season_results(season, [game_key]))))


@dataclass(slots=True)
class _Line:
    """One member's line of a table while it is added up."""

    played: int = 0
    won: int = 0
    points: int = 0
    net: int = 0
    form: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)


def add_game(
    club: Club, lines: dict[int, _Line], h2h: dict[tuple[int, int], list[int]], rows: list
) -> None:
    """One game's results into the members' lines and the head-to-head counts (wins, losses,
    draws of the first against the second)."""
    _annotate_below(rows)
    firsts = sum(1 for r in rows if r.placement == 1)
    for row in rows:
        if row.member_id is None:
            continue
        line = lines.get(row.member_id)
        if line is None:
            line = lines[row.member_id] = _Line()
        line.played += 1
        line.won += row.placement == 1
        line.points += _points(club, row, firsts > 1)
        line.net += row.net_ore
        line.form.append(str(row.placement))
        for name, value in row.details.items():
            if not name.startswith("_") and isinstance(value, int | float):
                line.extra[name] = line.extra.get(name, 0) + value
    for a, b in itertools.permutations([r for r in rows if r.member_id], 2):
        if a.team is not None and a.team == b.team:
            continue
        outcome = 0 if a.placement < b.placement else 1 if a.placement > b.placement else 2
        h2h[(a.member_id, b.member_id)][outcome] += 1


def build_table(club: Club, season: Season, key: str, games: list[list[Row]]) -> None:
    lines: dict[int, _Line] = {}
    h2h: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for rows in games:
        add_game(club, lines, h2h, rows)
    ratings = {
        member: (point.ordinal, point.change, point.games)
        for member, point in _ratings_at(club, key, season).items()
    }
    league_format = active_format(club)
    if league_format is not None:
        ordered = _by_format(club, league_format, games, lines)
    else:
        # ``lines`` holds the members in the order they first played: a full tie keeps it.
        ordered = sorted(lines, key=lambda member: sort_key(lines[member], ratings.get(member)))
    Standing.objects.bulk_create(
        _standing(season, key, member, rank, lines[member], ratings.get(member))
        for rank, member in enumerate(ordered, start=1)
    )
    HeadToHead.objects.bulk_create(
        HeadToHead(
            season=season, game_key=key, member_id=a, opponent_id=b, wins=w, losses=lo, draws=d
        )
        for (a, b), (w, lo, d) in h2h.items()
    )


def active_format(club: Club) -> LeagueFormat | None:
    """The club's league format, or ``None`` when it has none or one at the defaults (the
    league as it was before formats, built and appended as before)."""
    league_format = LeagueFormat.objects.filter(club_id=club.pk).first()
    return None if league_format is None or league_format.is_default else league_format


def _by_format(
    club: Club, league_format: LeagueFormat, games: list[list[Row]], lines: dict[int, _Line]
) -> list[int]:
    """Count the season under the club's format: each line's points become the format's total,
    its ``extra["league_format"]`` says what counted; the members in rank order, the unranked
    (too few appearances) after the ranked."""
    table = league_format.table()

    def points_of(rows: list[Row]) -> dict[int, int]:
        firsts = sum(1 for r in rows if r.placement == 1)
        return {
            r.member_id: (
                table_points(table, r.players, r.placement)
                if table is not None
                else _points(club, r, firsts > 1)
            )
            for r in rows
            if r.member_id is not None
        }

    counted = count_season(
        games, league_format.rules(), league_format.unit, points_of, timezone.localdate
    )
    shape = {
        "best": league_format.best,
        "unit": league_format.unit,
        "per": league_format.participation,
        "minimum": league_format.minimum,
        "table": table is not None,
        "of": counted.occasions,
    }

    def shown(results) -> list:
        return [[counted.days[s.appearance.occasion].isoformat(), s.points] for s in results]

    ordered = []
    for line in counted.season.ranked + counted.season.unranked:
        target = lines[line.player]
        target.points = line.total
        target.extra["league_format"] = {
            **shape,
            "rank": line.rank,
            "counted": shown(line.counted),
            "dropped": shown(line.dropped),
            "appearances": line.appearances,
            "participation": line.participation,
        }
        ordered.append(line.player)
    return ordered


def _standing(
    season: Season, key: str, member: int, rank: int, line: _Line, rating: tuple | None
) -> Standing:
    return Standing(
        season=season,
        game_key=key,
        member_id=member,
        rank=rank,
        played=line.played,
        won=line.won,
        points=line.points,
        net_ore=line.net,
        form=" ".join(line.form[-5:]),
        rating=rating[0] if rating else None,
        rating_change=rating[1] if rating else None,
        rated_games=rating[2] if rating else 0,
        extra=dict(line.extra),
    )


def sort_key(line: _Line, rating: tuple | None) -> tuple:
    """Rank order: points, points per game, wins, then rating (``rating``: ordinal first)."""
    per_game = line.points / line.played if line.played else 0
    ordinal = rating[0] if rating and rating[0] is not None else None
    return (-line.points, -per_game, -line.won, -(ordinal if ordinal is not None else -99))


def _ratings_at(club: Club, key: str, season: Season) -> dict[int, RatingPoint]:
    """Each member's latest rating point up to the end of the season."""
    _start, end = _day_bounds(season.start, season.end)
    points = RatingPoint.objects.filter(club=club, game_key=key, finished_at__lt=end)
    # Points are written in rating (= finishing) order: a member's latest has the highest id.
    newest = points.values("member_id").annotate(last_id=Max("id")).values("last_id")
    return {point.member_id: point for point in RatingPoint.objects.filter(id__in=newest)}


_STANDING_FIELDS = [
    "rank",
    "played",
    "won",
    "points",
    "net_ore",
    "form",
    "rating",
    "rating_change",
    "rated_games",
    "extra",
]


def append_to_table(
    club: Club,
    season: Season,
    key: str,
    games: list[list[Row]],
    points: list[Point],
) -> None:
    """Add ``games`` (the newest of the kind, all in ``season``) to the season's table: their
    players' lines and pairs, then the ranks. What ``build_table`` would give for the season's
    games up to and including them."""
    existing = {row.member_id: row for row in Standing.objects.filter(season=season, game_key=key)}
    lines = {
        member: _Line(
            played=row.played,
            won=row.won,
            points=row.points,
            net=row.net_ore,
            form=row.form.split(),
            extra=dict(row.extra),
        )
        for member, row in existing.items()
    }
    delta: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for rows in games:
        add_game(club, lines, delta, rows)
    ratings = {
        member: (row.rating, row.rating_change, row.rated_games)
        for member, row in existing.items()
        if row.rating is not None
    }
    _start, end = _day_bounds(season.start, season.end)
    for point in points:  # in rating order: a member's last one before the season's end wins
        if point.finished_at < end:
            ratings[point.member_id] = (point.ordinal, point.change, point.games)
    ordered = _ranked(season, key, lines, ratings)
    changed = []
    for rank, member in enumerate(ordered, start=1):
        row = _standing(season, key, member, rank, lines[member], ratings.get(member))
        old = existing.get(member)
        if old is None or any(getattr(row, f) != getattr(old, f) for f in _STANDING_FIELDS):
            changed.append(row)
    Standing.objects.bulk_create(
        changed,
        update_conflicts=True,
        unique_fields=["season", "game_key", "member"],
        update_fields=_STANDING_FIELDS,
    )
    players = {member for member, _opponent in delta}
    counts = {
        (h.member_id, h.opponent_id): h
        for h in HeadToHead.objects.filter(
            season=season, game_key=key, member_id__in=players, opponent_id__in=players
        )
    }
    pairs = []
    for (a, b), (w, lo, d) in delta.items():
        old = counts.get((a, b))
        if old is not None:
            w, lo, d = old.wins + w, old.losses + lo, old.draws + d
        pairs.append(
            HeadToHead(
                season=season, game_key=key, member_id=a, opponent_id=b, wins=w, losses=lo, draws=d
            )
        )
    HeadToHead.objects.bulk_create(
        pairs,
        update_conflicts=True,
        unique_fields=["season", "game_key", "member", "opponent"],
        update_fields=["wins", "losses", "draws"],
    )


def _ranked(
    season: Season, key: str, lines: dict[int, _Line], ratings: dict[int, tuple]
) -> list[int]:
    """The members of ``lines`` in rank order. A full tie goes to the member who first played
    in the season (as ``build_table``, which meets them in that order); only then is it
    looked up."""
    keys = {member: sort_key(line, ratings.get(member)) for member, line in lines.items()}
    ordered = sorted(lines, key=keys.__getitem__)
    tied = {
        member
        for before, after in itertools.pairwise(ordered)
        if keys[before] == keys[after]
        for member in (before, after)
    }
    if not tied:
        return ordered
    first: dict[int, tuple] = {}
    for member, at, ref, seat in (
        season_results(season, [key])
        .filter(member_id__in=tied)
        .values_list("member_id", "finished_at", "game_ref", "seat")
    ):
        seen = (at, ref, seat)
        if member not in first or seen < first[member]:
            first[member] = seen
    return sorted(lines, key=lambda member: (keys[member], first.get(member, ())))
