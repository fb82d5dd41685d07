"""The league: finished games' results in, season tables and ratings out.

Intake
- ``record_result`` stores each player's result of a finished game, replacing whatever was
  recorded for that game before; ``remove_results`` forgets a game that was undone from its
  finish or voided. Both ask for ``update_game`` after commit (``league.tasks``; eager
  without a broker). Scoring sends a finished game's results through ``record_result_task``.

Seasons are the club's (``club.seasons``): ``current_season``, ``add_season``.

Tables (materialised, so the standings page is a single query)
- A result belongs to the season whose dates hold the day it finished (Europe/Stockholm).
- ``recompute_season(season)`` rebuilds ``Standing`` and ``HeadToHead`` rows of a season from
  the results, from scratch: running it twice changes nothing.
- Placement points follow the club's scheme: 3-1-0 (3 for an outright win, 1 for a shared
  first place), n−1 … 0 (one point for every player finishing below you), or the game's own
  score. Cribbage skunks may count double (triple for a double skunk) as a club option.
- Rows are ranked by points, points per game, wins and rating; a full tie keeps the order in
  which the players first appeared in the season.

Ratings
- OpenSkill Plackett-Luce across all of a club's games of one kind, in the order they finished:
  one team per player, or the result's ``team`` where players played as partners (whist).
  Guests take part with a fresh rating each game and are not stored. Shown as the ordinal
  (μ − 3σ), with its change after the member's latest game; fewer rated games than the club's
  ``provisional_games`` marks it provisional. ``rate_plackett_luce`` is openskill's
  ``PlackettLuce().rate`` with its default parameters on plain numbers (tested against it).

Keeping up (``update_game``, one game kind of one club)
- ``LeagueProgress`` says which results the ratings and tables hold: every one that finished
  up to ``through``. Games after it are appended: rated on top of their players' latest
  ratings, added to those players' rows and head-to-head pairs, and the season's table
  re-ranked, as a rebuild would give (tests/league/test_incremental.py checks it).
- A change at or before ``through`` (a late entry, an undone, voided or corrected game) marks
  the kind stale from that moment: the ratings are re-rated from it, and the tables of every
  season that ends on or after its day are rebuilt.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import Max, OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, Member, PlacementScheme, Season
from club.seasons import current_season
from core.tasks import enqueue_on_commit
from engine import registry
from league.models import GameResult, HeadToHead, LeagueProgress, RatingPoint, Standing

# --- names of what the league ranks ---------------------------------------------------------
#
# The registry's games, and what other apps rank that is not a registered game (a club
# evening's whist drive), each registered with its name once, marked for translation.
_OTHER_GAMES: dict[str, str] = {}


def register_game_name(key: str, name) -> None:
    _OTHER_GAMES[key] = name


def game_names() -> dict[str, str]:
    """Every game the league may rank, by key: its name in the reader's language."""
    names = {key: _(registry.display_name(key)) for key in registry.game_keys()}
    return names | {key: str(name) for key, name in _OTHER_GAMES.items()}


def game_name(key: str) -> str:
    return game_names().get(key, key)


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    member: Member | None
    guest_name: str
    placement: int
    score: int
    net_ore: int = 0
    team: int | None = None
    details: dict | None = None

    def as_json(self) -> dict:
        """What a task carries: the member by id."""
        return {
            "seat": self.seat,
            "member": self.member.pk if self.member else None,
            "guest_name": self.guest_name,
            "placement": self.placement,
            "score": self.score,
            "net_ore": self.net_ore,
            "team": self.team,
            "details": self.details or {},
        }

    @classmethod
    def from_json(cls, club: Club, rows: list[dict]) -> list[PlayerResult]:
        ids = [row["member"] for row in rows if row.get("member")]
        members = Member.objects.filter(club=club).in_bulk(ids)
        return [cls(**{**row, "member": members.get(row.get("member"))}) for row in rows]


# --- intake --------------------------------------------------------------------------------


@transaction.atomic
def record_result(
    club: Club,
    game_ref: str,
    game_key: str,
    finished_at: datetime,
    results: Sequence[PlayerResult],
) -> list[GameResult]:
    progress = _lock_progress(club.pk, game_key)
    old = (
        GameResult.objects.filter(game_ref=game_ref)
        .values_list("club_id", "game_key", "finished_at")
        .first()
    )
    if old is not None:  # a correction: the game as first recorded leaves the league
        GameResult.objects.filter(game_ref=game_ref).delete()
        old_club, old_key, old_at = old
        if (old_club, old_key) == (club.pk, game_key):
            _mark_changed(progress, old_at)
        else:
            _mark_changed(_lock_progress(old_club, old_key), old_at)
            _update_later(old_club, old_key, timezone.localdate(old_at))
    rows = GameResult.objects.bulk_create(
        GameResult(
            club=club,
            game_ref=game_ref,
            game_key=game_key,
            finished_at=finished_at,
            member=r.member,
            guest_name=r.guest_name,
            seat=r.seat,
            team=r.team,
            placement=r.placement,
            score=r.score,
            net_ore=r.net_ore,
            players=len(results),
            details=r.details or {},
        )
        for r in results
    )
    _mark_changed(progress, finished_at)
    _update_later(club.pk, game_key, timezone.localdate(finished_at))
    return rows


@transaction.atomic
def remove_results(game_ref: str) -> int:
    first = (
        GameResult.objects.filter(game_ref=game_ref)
        .values_list("club_id", "game_key", "finished_at")
        .first()
    )
    if first is None:
        return 0
    club_id, game_key, finished_at = first
    progress = _lock_progress(club_id, game_key)
    deleted, _per_model = GameResult.objects.filter(game_ref=game_ref).delete()
    RatingPoint.objects.filter(club_id=club_id, game_ref=game_ref).delete()
    _mark_changed(progress, finished_at)
    _update_later(club_id, game_key, timezone.localdate(finished_at))
    return deleted


@transaction.atomic
def results_reassigned(club: Club, game_key: str, since: datetime) -> None:
    """Results of ``game_key`` that finished at ``since`` or later now name another player
    (``clubdata.merge`` moved a guest's or a duplicate's results to the member he is): the
    kind is marked stale from ``since`` in the caller's transaction, so a lost task loses
    nothing (the next update rebuilds from there), and brought up to date after commit."""
    _mark_changed(_lock_progress(club.pk, game_key), since)
    _update_later(club.pk, game_key, timezone.localdate(since))


def _update_later(club_id: int, game_key: str, day: date | None = None) -> None:
    from league.tasks import update_game_task  # noqa: PLC0415 - the tasks import this module

    enqueue_on_commit(update_game_task, club_id, game_key, day.isoformat() if day else None)


def _lock_progress(club_id: int, game_key: str) -> LeagueProgress:
    """The kind's progress row, locked until the transaction ends (made if missing)."""
    progress, _created = LeagueProgress.objects.select_for_update().get_or_create(
        club_id=club_id, game_key=game_key
    )
    return progress


def _mark_changed(progress: LeagueProgress, finished_at: datetime) -> None:
    """A result that finished at ``finished_at`` came, went or changed: if the ratings and
    tables already went past that moment, they are stale from it."""
    if progress.through is None or finished_at > progress.through:
        return  # not in yet: the next update appends it (or the first one rebuilds all)
    if progress.stale_from is None or finished_at < progress.stale_from:
        progress.stale_from = finished_at
        progress.save(update_fields=["stale_from"])


def update_game(club: Club, game_key: str, day: str | None = None) -> int:
    """Bring one game kind's ratings and tables up to date; returns how many seasons' tables
    changed. Safe to run twice: a second run finds nothing new.

    Results newer than everything in (``LeagueProgress.through``) are appended; a change
    before that rebuilds from it (see the module's notes). ``day`` (the changed game's, from
    the task) is not needed: the progress row knows where the change was.
    """
    del day
    with transaction.atomic():
        seasons = list(Season.objects.filter(club=club))
        if not seasons:  # a club without seasons gets this calendar year, and new tables
            seasons = [current_season(club)]
            LeagueProgress.objects.filter(club=club).update(through=None, stale_from=None)
        progress = _lock_progress(club.pk, game_key)
        if progress.through is None:
            return _rebuild(club, game_key, seasons, progress, since=None)
        if progress.stale_from is not None:
            return _rebuild(club, game_key, seasons, progress, since=progress.stale_from)
        return _append(club, game_key, seasons, progress)


def recompute_club(club: Club) -> None:
    """Every rating and table of the club from its results (idempotent)."""
    current_season(club)  # a club without seasons gets this calendar year
    seasons = list(Season.objects.filter(club=club))
    keys = set(GameResult.objects.filter(club=club).values_list("game_key", flat=True).distinct())
    for key in sorted(keys):
        with transaction.atomic():
            _rebuild(club, key, seasons, _lock_progress(club.pk, key), since=None)
    # A kind without results any more leaves nothing behind.
    Standing.objects.filter(season__club=club).exclude(game_key__in=keys).delete()
    HeadToHead.objects.filter(season__club=club).exclude(game_key__in=keys).delete()
    RatingPoint.objects.filter(club=club).exclude(game_key__in=keys).delete()


def _rebuild(
    club: Club,
    game_key: str,
    seasons: list[Season],
    progress: LeagueProgress,
    since: datetime | None,
) -> int:
    """Re-rate the kind from ``since`` (everything when ``None``) and rebuild the tables of the
    seasons that can show a changed rating; then the progress row says all is in."""
    _rate_from(club, game_key, since)
    if since is not None:
        first_day = timezone.localdate(since)
        seasons = [season for season in seasons if season.end >= first_day]
    for season in seasons:
        _rebuild_table(club, season, game_key)
    progress.through = GameResult.objects.filter(club=club, game_key=game_key).aggregate(
        last=Max("finished_at")
    )["last"]
    progress.stale_from = None
    progress.save(update_fields=["through", "stale_from"])
    return len(seasons)


def _append(club: Club, game_key: str, seasons: list[Season], progress: LeagueProgress) -> int:
    """Rate and count the games that finished after ``progress.through``, touching only
    their players' ratings, rows and pairs, and re-rank each season they fall in."""
    games = _games(
        _results(
            GameResult.objects.filter(club=club, game_key=game_key).filter(
                finished_at__gt=progress.through
            )
        )
    )
    if not games:
        return 0
    # A full re-rate (``recompute_ratings``) may have rated them already: rate them once.
    RatingPoint.objects.filter(
        club=club, game_key=game_key, finished_at__gt=progress.through
    ).delete()
    players = {row.member_id for rows in games for row in rows if row.member_id is not None}
    ratings, counts = _latest_ratings(club, game_key, members=players)
    points = _rate_games(games, ratings, counts)
    _insert_points(club.pk, game_key, points)
    by_season: dict[Season, list[list[_Result]]] = defaultdict(list)
    for rows in games:
        season = _season_of(seasons, rows[0].finished_at)
        if season is not None:
            by_season[season].append(rows)
    for season, season_games in by_season.items():
        _append_to_table(club, season, game_key, season_games, points)
    progress.through = games[-1][0].finished_at
    progress.save(update_fields=["through"])
    return len(by_season)


def _season_of(seasons: list[Season], moment: datetime) -> Season | None:
    day = timezone.localdate(moment)
    return next((s for s in seasons if s.start <= day <= s.end), None)


# --- seasons -------------------------------------------------------------------------------


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


# --- results as plain rows -------------------------------------------------------------------

_RESULT_FIELDS = (
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
class _Result:
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


def _results(results) -> list[_Result]:
    """``results`` (a GameResult queryset) in finishing order, seat by seat."""
    ordered = results.order_by("finished_at", "game_ref", "seat").values_list(*_RESULT_FIELDS)
    return [_Result(*values) for values in ordered]


# --- points --------------------------------------------------------------------------------


def placement_points(scheme: str, result: GameResult | _Result, shared_first: bool) -> int:
    if scheme == PlacementScheme.GAME_SCORE:
        return result.score
    if scheme == PlacementScheme.THREE_ONE_ZERO:
        if result.placement != 1:
            return 0
        return 1 if shared_first else 3
    # n−1 … 0: one point for every player who finished below.
    return result.details.get("_below", result.players - result.placement)


def _points(club: Club, result: GameResult | _Result, shared_first: bool) -> int:
    points = placement_points(club.placement_scheme, result, shared_first)
    if result.game_key == "cribbage" and club.skunks_in_league and result.placement == 1:
        points *= 1 + int(result.details.get("skunk", 0))
    return points


def _games(results: Iterable[_Result]) -> list[list[_Result]]:
    by_game: dict[str, list[_Result]] = defaultdict(list)
    for result in results:
        by_game[result.game_ref].append(result)
    games = list(by_game.values())
    games.sort(key=lambda rows: (rows[0].finished_at, rows[0].game_ref))
    return games


def _annotate_below(rows: list[_Result]) -> None:
    for row in rows:
        row.details = dict(row.details or {})
        row.details["_below"] = sum(1 for other in rows if other.placement > row.placement)


# --- ratings -------------------------------------------------------------------------------

# openskill's PlackettLuce defaults: mu, sigma, beta, kappa, tau.
MU, SIGMA = 25.0, 25.0 / 3.0
_BETA, _KAPPA, _TAU = 25.0 / 6.0, 0.0001, 25.0 / 300.0


def rate_plackett_luce(
    teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) of every player after one game: ``teams`` of (mu, sigma) pairs, their
    ``ranks`` (lower is better, equal is a tie).

    openskill's ``PlackettLuce().rate(teams, ranks=ranks)`` (Weng-Lin, algorithm 4) with its
    default parameters, step for step and in its order of arithmetic, without its rating
    objects (a deep copy and a uuid per player per game): the same numbers at a fraction of
    the cost. Its averaging of tied teams' changes compares each player with itself and so
    changes nothing; it is left out.
    """
    k = len(teams)
    if k < 2:
        raise ValueError(f"a game needs at least 2 teams, not {k}")
    tau_squared = _TAU * _TAU
    order = sorted(range(k), key=ranks.__getitem__)  # stable: openskill's _unwind
    rank = [int(ranks[i]) for i in order]
    widened, team_mu, team_s2 = [], [], []
    for i in order:
        team = [(mu, math.sqrt(sigma * sigma + tau_squared)) for mu, sigma in teams[i]]
        widened.append(team)
        mu_sum = s2_sum = 0.0  # summed best ordinal first (a stable sort, as openskill's)
        for mu, sigma in team if len(team) == 1 else sorted(team, key=_ordinal, reverse=True):
            mu_sum += mu
            s2_sum += sigma**2
        team_mu.append(mu_sum)
        team_s2.append(s2_sum)
    beta_squared = _BETA**2
    collective = 0.0
    for s2 in team_s2:
        collective += s2 + beta_squared
    c = math.sqrt(collective)
    exps = [math.exp(mu / c) for mu in team_mu]
    # Teams are in rank order: a team's tie group runs from first[i] to last[i].
    first = [rank.index(r) for r in rank]
    last = [k - 1 - rank[::-1].index(r) for r in rank]
    tied = [last[q] - first[q] + 1 for q in range(k)]
    sum_q = []
    for q in range(k):
        total = 0.0
        for e in exps[first[q] :]:  # every team ranked the same or below q, in order
            total += e
        sum_q.append(total)
    rated: list[list[tuple[float, float]]] = [[]] * k
    for i in range(k):
        omega = delta = 0.0
        e = exps[i]
        for q in range(last[i] + 1):  # every team ranked the same or above i
            share = e / sum_q[q]
            delta += share * (1 - share) / tied[q]
            if q == i:
                omega += (1 - share) / tied[q]
            else:
                omega -= share / tied[q]
        s2 = team_s2[i]
        omega *= s2 / c
        delta *= s2 / c**2
        delta *= math.sqrt(s2) / c
        new_team = []
        for mu, sigma in widened[i]:
            part = sigma**2 / s2
            new_team.append((mu + part * omega, sigma * math.sqrt(max(1 - part * delta, _KAPPA))))
        rated[order[i]] = new_team
    return rated


def _ordinal(rating: tuple[float, float]) -> float:
    return rating[0] - 3.0 * rating[1]


class _Point(NamedTuple):
    member_id: int
    game_ref: str
    finished_at: datetime
    mu: float
    sigma: float
    ordinal: float
    change: float
    games: int


def _rate_games(games: list[list[_Result]], ratings: dict, counts: dict) -> list[_Point]:
    """Rate ``games`` in order on top of ``ratings`` (member → (mu, sigma)) and ``counts``
    (member → rated games), which they update; a point per member per game."""
    points: list[_Point] = []
    append = points.append
    fresh = (MU, SIGMA)  # a guest's, and a member's first
    for rows in games:
        teams = _teams(rows)
        before = [[ratings.get(r.member_id, fresh) for r in team] for team in teams]
        ranks = [
            team[0].placement if len(team) == 1 else min(r.placement for r in team)
            for team in teams
        ]
        for team, old_team, new_team in zip(
            teams, before, rate_plackett_luce(before, ranks), strict=True
        ):
            for result, (old_mu, old_sigma), (mu, sigma) in zip(
                team, old_team, new_team, strict=True
            ):
                member = result.member_id
                if member is None:
                    continue
                ratings[member] = (mu, sigma)
                counts[member] = rated = counts.get(member, 0) + 1
                ordinal = mu - 3.0 * sigma
                change = ordinal - (old_mu - 3.0 * old_sigma)
                append(
                    _Point(
                        member,
                        result.game_ref,
                        result.finished_at,
                        mu,
                        sigma,
                        ordinal,
                        change,
                        rated,
                    )
                )
    return points


def _teams(rows: list[_Result]) -> list[list[_Result]]:
    if rows[0].team is None or any(r.team is None for r in rows):
        return [[row] for row in sorted(rows, key=_seat)]
    grouped: dict[int, list[_Result]] = defaultdict(list)
    for row in rows:
        grouped[row.team].append(row)
    return [grouped[t] for t in sorted(grouped)]


def _seat(row: _Result) -> int:
    return row.seat


@transaction.atomic
def recompute_ratings(club: Club, game_key: str) -> None:
    """Every rating point of one game kind of the club, from its first game."""
    _lock_progress(club.pk, game_key)  # no update in between
    _rate_from(club, game_key, None)


def _rate_from(club: Club, game_key: str, since: datetime | None) -> None:
    """Re-rate the kind's games that finished at or after ``since`` (all when ``None``) on top
    of the ratings before it."""
    results = GameResult.objects.filter(club=club, game_key=game_key)
    if since is None:
        ratings, counts = {}, {}
    else:
        results = results.filter(finished_at__gte=since)
        ratings, counts = _latest_ratings(club, game_key, before=since)
    rows = results.order_by("finished_at", "game_ref", "seat").values_list(
        "game_ref", "finished_at", "member_id", "seat", "team", "placement"
    )
    games = _games(
        _Result(ref, game_key, at, member, seat, team, placement, 0, 0, 0, {})
        for ref, at, member, seat, team, placement in rows
    )
    _store_points(club.pk, game_key, _rate_games(games, ratings, counts), since)


def _latest_ratings(
    club: Club,
    game_key: str,
    members: Iterable[int] | None = None,
    before: datetime | None = None,
) -> tuple[dict[int, tuple[float, float]], dict[int, int]]:
    """Each member's latest (mu, sigma) and rated games of the kind (before ``before``)."""
    points = RatingPoint.objects.filter(game_key=game_key)
    if before is not None:
        points = points.filter(finished_at__lt=before)
    if members is not None:
        # A game's few players (the club's): each one's newest point straight off the
        # member index, read backwards.
        newest = (
            Member.objects.filter(club=club, pk__in=list(members))
            .annotate(
                last_id=Subquery(
                    points.filter(member_id=OuterRef("pk"))
                    .order_by("-finished_at", "-id")
                    .values("id")[:1]
                )
            )
            .values("last_id")
        )
    else:
        points = points.filter(club=club)
        # Points are written in rating order, so a member's newest point has the highest id.
        newest = points.values("member_id").annotate(last_id=Max("id")).values("last_id")
    ratings, counts = {}, {}
    for member, mu, sigma, games in RatingPoint.objects.filter(id__in=newest).values_list(
        "member_id", "mu", "sigma", "games"
    ):
        ratings[member] = (mu, sigma)
        counts[member] = games
    return ratings, counts


def _store_points(
    club_id: int, game_key: str, points: list[_Point], since: datetime | None
) -> None:
    """Make the kind's stored points from ``since`` on (all when ``None``) be ``points``.

    A re-rate mostly reproduces what is stored (a recompute by hand, a change late in the
    history): the stored points that already agree, in rating order, stay; the first that
    differs and every one after it are replaced, so ids stay in rating order."""
    stored = RatingPoint.objects.filter(club_id=club_id, game_key=game_key)
    if since is not None:
        stored = stored.filter(finished_at__gte=since)
    kept, first_changed = 0, None
    for row in stored.order_by("id").values_list("id", *_Point._fields).iterator(5000):
        if kept < len(points) and row[1:] == points[kept]:
            kept += 1
        else:
            first_changed = row[0]
            break
    if first_changed is not None:
        RatingPoint.objects.filter(
            club_id=club_id, game_key=game_key, id__gte=first_changed
        ).delete()
    _insert_points(club_id, game_key, points[kept:])


# The columns a point is copied into, and their PostgreSQL types for a binary COPY.
_POINT_COLUMNS = {
    "club_id": "int8",
    "game_key": "text",
    "member_id": "int8",
    "game_ref": "text",
    "finished_at": "timestamptz",
    "mu": "float8",
    "sigma": "float8",
    "ordinal": "float8",
    "change": "float8",
    "games": "int4",
}


def _insert_points(club_id: int, game_key: str, points: list[_Point]) -> None:
    """Store rating points in rating order (a member's newest gets the highest id)."""
    if not points:
        return
    if connection.vendor == "postgresql":
        # A full re-rate writes tens of thousands of rows: Django's bulk insert spends
        # seconds building and quoting their parameters, a binary COPY a fraction of one.
        table = connection.ops.quote_name(RatingPoint._meta.db_table)
        columns = ", ".join(
            connection.ops.quote_name(RatingPoint._meta.get_field(name).column)
            for name in _POINT_COLUMNS
        )
        with (
            connection.cursor() as cursor,
            cursor.copy(f"COPY {table} ({columns}) FROM STDIN (FORMAT BINARY)") as copy,
        ):
            copy.set_types(list(_POINT_COLUMNS.values()))
            for p in points:
                copy.write_row((club_id, game_key, *p))
        return
    RatingPoint.objects.bulk_create(
        (RatingPoint(club_id=club_id, game_key=game_key, **p._asdict()) for p in points),
        batch_size=500,
    )


# --- season tables -------------------------------------------------------------------------


@transaction.atomic
def recompute_season(season: Season, game_keys: Iterable[str] | None = None) -> None:
    """Rebuild a season's tables (of ``game_keys``, else of every game played in it) from its
    results, with the ratings as they stand."""
    results = season_results(season, game_keys)
    if game_keys is None:
        game_keys = results.values_list("game_key", flat=True).distinct().order_by()
    keys = sorted(set(game_keys))
    # Locked before the results are read: no update adds to these tables meanwhile.
    progress = {key: _lock_progress(season.club_id, key) for key in keys}
    rows = _results(results)
    Standing.objects.filter(season=season, game_key__in=keys).delete()
    HeadToHead.objects.filter(season=season, game_key__in=keys).delete()
    for key in keys:
        key_rows = [r for r in rows if r.game_key == key]
        _build_table(season.club, season, key, _games(key_rows))
        _count_pending_in(progress[key], key_rows)


def _count_pending_in(progress: LeagueProgress, rows: list[_Result]) -> None:
    """A table was rebuilt from ``rows``: any the kind's progress has not reached are in it now
    and an update appending them would count them twice, so the kind rebuilds from them."""
    if progress.through is None:
        return  # the next update rebuilds everything anyway
    pending = [r.finished_at for r in rows if r.finished_at > progress.through]
    if pending and (progress.stale_from is None or min(pending) < progress.stale_from):
        progress.stale_from = min(pending)
        progress.save(update_fields=["stale_from"])


def _rebuild_table(club: Club, season: Season, game_key: str) -> None:
    Standing.objects.filter(season=season, game_key=game_key).delete()
    HeadToHead.objects.filter(season=season, game_key=game_key).delete()
    _build_table(club, season, game_key, _games(_results(season_results(season, [game_key]))))


@dataclass(slots=True)
class _Line:
    """One member's line of a table while it is added up."""

    played: int = 0
    won: int = 0
    points: int = 0
    net: int = 0
    form: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)


def _add_game(
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


def _build_table(club: Club, season: Season, key: str, games: list[list[_Result]]) -> None:
    lines: dict[int, _Line] = {}
    h2h: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for rows in games:
        _add_game(club, lines, h2h, rows)
    ratings = {
        member: (point.ordinal, point.change, point.games)
        for member, point in _ratings_at(club, key, season).items()
    }
    # ``lines`` holds the members in the order they first played: a full tie keeps it.
    ordered = sorted(lines, key=lambda member: _sort_key(lines[member], ratings.get(member)))
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


def _sort_key(line: _Line, rating: tuple | None) -> tuple:
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


def _append_to_table(
    club: Club,
    season: Season,
    key: str,
    games: list[list[_Result]],
    points: list[_Point],
) -> None:
    """Add ``games`` (the newest of the kind, all in ``season``) to the season's table: their
    players' lines and pairs, then the ranks. What ``_build_table`` would give for the season's
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
        _add_game(club, lines, delta, rows)
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
    in the season (as ``_build_table``, which meets them in that order); only then is it
    looked up."""
    keys = {member: _sort_key(line, ratings.get(member)) for member, line in lines.items()}
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
