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

Ratings
- OpenSkill Plackett-Luce across all of a club's games of one kind, in the order they finished:
  one team per player, or the result's ``team`` where players played as partners (whist).
  Guests take part with a fresh rating each game and are not stored. Shown as the ordinal
  (μ − 3σ), with its change after the member's latest game; fewer rated games than the club's
  ``provisional_games`` marks it provisional.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from openskill.models import PlackettLuce

from club.models import Club, Member, PlacementScheme, Season
from club.seasons import current_season
from league.models import GameResult, HeadToHead, RatingPoint, Standing


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
    GameResult.objects.filter(game_ref=game_ref).delete()
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
    _recompute_later(club, game_key, timezone.localdate(finished_at))
    return rows


@transaction.atomic
def remove_results(game_ref: str) -> int:
    rows = list(GameResult.objects.filter(game_ref=game_ref).select_related("club")[:1])
    deleted, _per_model = GameResult.objects.filter(game_ref=game_ref).delete()
    if rows:
        RatingPoint.objects.filter(club=rows[0].club, game_ref=game_ref).delete()
        _recompute_later(rows[0].club, rows[0].game_key, timezone.localdate(rows[0].finished_at))
    return deleted


def _recompute_later(club: Club, game_key: str, day: date | None = None) -> None:
    from league.tasks import update_game_task  # noqa: PLC0415 - the tasks import this module

    update_game_task.delay_on_commit(club.pk, game_key, day.isoformat() if day else None)


def update_game(club: Club, game_key: str, day: str | None = None) -> int:
    """Bring one game's ratings and tables up to date. Safe to run twice.

    A result newer than every rated game is rated on top of the latest ratings; anything else
    (an undo, a void, a late entry) rebuilds the game's ratings from scratch. Only the season
    holding ``day`` is recomputed when it is given, else every season.
    """
    current_season(club)
    if not append_ratings(club, game_key):
        recompute_ratings(club, game_key)
    seasons = Season.objects.filter(club=club)
    if day:
        seasons = seasons.filter(start__lte=day, end__gte=day)
    seasons = list(seasons)
    for season in seasons:
        recompute_season(season, game_keys=[game_key])
    return len(seasons)


def recompute_club(club: Club) -> None:
    current_season(club)  # a club without seasons gets this calendar year
    keys = set(GameResult.objects.filter(club=club).values_list("game_key", flat=True))
    for key in sorted(keys):
        recompute_ratings(club, key)
    for season in Season.objects.filter(club=club):
        recompute_season(season)


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


# --- points --------------------------------------------------------------------------------


def placement_points(scheme: str, result: GameResult, shared_first: bool) -> int:
    if scheme == PlacementScheme.GAME_SCORE:
        return result.score
    if scheme == PlacementScheme.THREE_ONE_ZERO:
        if result.placement != 1:
            return 0
        return 1 if shared_first else 3
    # n−1 … 0: one point for every player who finished below.
    return result.details.get("_below", result.players - result.placement)


def _points(club: Club, result: GameResult, shared_first: bool) -> int:
    points = placement_points(club.placement_scheme, result, shared_first)
    if result.game_key == "cribbage" and club.skunks_in_league and result.placement == 1:
        points *= 1 + int(result.details.get("skunk", 0))
    return points


def _games(results: Iterable[GameResult]) -> list[list[GameResult]]:
    by_game: dict[str, list[GameResult]] = defaultdict(list)
    for result in results:
        by_game[result.game_ref].append(result)
    games = list(by_game.values())
    games.sort(key=lambda rows: (rows[0].finished_at, rows[0].game_ref))
    return games


def _annotate_below(rows: list[GameResult]) -> None:
    for row in rows:
        row.details = dict(row.details or {})
        row.details["_below"] = sum(1 for other in rows if other.placement > row.placement)


# --- ratings -------------------------------------------------------------------------------

_MODEL = PlackettLuce()


@transaction.atomic
def recompute_ratings(club: Club, game_key: str) -> None:
    RatingPoint.objects.filter(club=club, game_key=game_key).delete()
    results = GameResult.objects.filter(club=club, game_key=game_key).order_by(
        "finished_at", "game_ref", "seat"
    )
    points = _rate_games(club, game_key, _games(results), {}, {})
    RatingPoint.objects.bulk_create(points, batch_size=2000)


@transaction.atomic
def append_ratings(club: Club, game_key: str) -> bool:
    """Rate the games not yet rated, if they all come after the last rated game.

    Returns False (and changes nothing) when a full recompute is needed: a rated game has lost
    its results (undo, void), or an unrated game finished before the last rated one."""
    # Set operations stay in the database: a club's history can hold many thousand games.
    points = RatingPoint.objects.filter(club=club, game_key=game_key)
    results = GameResult.objects.filter(club=club, game_key=game_key)
    if points.exclude(game_ref__in=results.values("game_ref")).exists():
        return False
    last = points.order_by("-finished_at", "-id").first()
    new = results.exclude(game_ref__in=points.values("game_ref")).order_by(
        "finished_at", "game_ref", "seat"
    )
    if last is not None and new.filter(finished_at__lt=last.finished_at).exists():
        return False
    # Points are written in rating order, so a member's newest point has the highest id.
    newest = points.values("member_id").annotate(last_id=Max("id")).values("last_id")
    latest = {point.member_id: point for point in RatingPoint.objects.filter(id__in=newest)}
    ratings = {m: _MODEL.rating(mu=p.mu, sigma=p.sigma) for m, p in latest.items()}
    counts = {m: p.games for m, p in latest.items()}
    RatingPoint.objects.bulk_create(_rate_games(club, game_key, _games(new), ratings, counts))
    return True


def _rate_games(club: Club, game_key: str, games, ratings: dict, counts: dict) -> list[RatingPoint]:
    points: list[RatingPoint] = []
    for rows in games:
        teams = _teams(rows)
        before = [[_rating_of(ratings, r) for r in team] for team in teams]
        ranks = [min(r.placement for r in team) for team in teams]
        after = _MODEL.rate(before, ranks=ranks)
        for team, old_team, new_team in zip(teams, before, after, strict=True):
            for result, old, new in zip(team, old_team, new_team, strict=True):
                if result.member_id is None:
                    continue
                ratings[result.member_id] = new
                counts[result.member_id] = counts.get(result.member_id, 0) + 1
                points.append(
                    RatingPoint(
                        club=club,
                        game_key=game_key,
                        member_id=result.member_id,
                        game_ref=result.game_ref,
                        finished_at=result.finished_at,
                        mu=new.mu,
                        sigma=new.sigma,
                        ordinal=new.ordinal(),
                        change=new.ordinal() - old.ordinal(),
                        games=counts[result.member_id],
                    )
                )
    return points


def _teams(rows: list[GameResult]) -> list[list[GameResult]]:
    if all(r.team is not None for r in rows):
        grouped: dict[int, list[GameResult]] = defaultdict(list)
        for row in rows:
            grouped[row.team].append(row)
        return [grouped[t] for t in sorted(grouped)]
    return [[row] for row in sorted(rows, key=lambda r: r.seat)]


def _rating_of(ratings: dict, result: GameResult):
    if result.member_id is None:
        return _MODEL.rating()
    return ratings.get(result.member_id) or _MODEL.rating()


# --- season tables -------------------------------------------------------------------------


@transaction.atomic
def recompute_season(season: Season, game_keys: Iterable[str] | None = None) -> None:
    club = season.club
    results = list(season_results(season, game_keys).order_by("finished_at", "game_ref", "seat"))
    keys = set(game_keys) if game_keys is not None else {r.game_key for r in results}
    Standing.objects.filter(season=season, game_key__in=keys).delete()
    HeadToHead.objects.filter(season=season, game_key__in=keys).delete()
    for key in sorted(keys):
        games = _games(r for r in results if r.game_key == key)
        _build_table(club, season, key, games)


def _build_table(club: Club, season: Season, key: str, games: list[list[GameResult]]) -> None:
    lines: dict[int, dict] = {}
    h2h: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for rows in games:
        _annotate_below(rows)
        firsts = sum(1 for r in rows if r.placement == 1)
        for row in rows:
            if row.member_id is None:
                continue
            line = lines.setdefault(
                row.member_id,
                {
                    "played": 0,
                    "won": 0,
                    "points": 0,
                    "net": 0,
                    "form": [],
                    "extra": defaultdict(int),
                },
            )
            line["played"] += 1
            line["won"] += row.placement == 1
            line["points"] += _points(club, row, firsts > 1)
            line["net"] += row.net_ore
            line["form"].append(str(row.placement))
            for name, value in row.details.items():
                if not name.startswith("_") and isinstance(value, int | float):
                    line["extra"][name] += value
        for a, b in itertools.permutations([r for r in rows if r.member_id], 2):
            if a.team is not None and a.team == b.team:
                continue
            outcome = 0 if a.placement < b.placement else 1 if a.placement > b.placement else 2
            h2h[(a.member_id, b.member_id)][outcome] += 1
    last_rating = _ratings_at(club, key, season)
    ordered = sorted(lines.items(), key=lambda item: _sort_key(item[1], last_rating.get(item[0])))
    Standing.objects.bulk_create(
        Standing(
            season=season,
            game_key=key,
            member_id=member_id,
            rank=index + 1,
            played=line["played"],
            won=line["won"],
            points=line["points"],
            net_ore=line["net"],
            form=" ".join(line["form"][-5:]),
            rating=last_rating[member_id].ordinal if member_id in last_rating else None,
            rating_change=last_rating[member_id].change if member_id in last_rating else None,
            rated_games=last_rating[member_id].games if member_id in last_rating else 0,
            extra=dict(line["extra"]),
        )
        for index, (member_id, line) in enumerate(ordered)
    )
    HeadToHead.objects.bulk_create(
        HeadToHead(
            season=season, game_key=key, member_id=a, opponent_id=b, wins=w, losses=lo, draws=d
        )
        for (a, b), (w, lo, d) in h2h.items()
    )


def _sort_key(line: dict, rating) -> tuple:
    per_game = line["points"] / line["played"] if line["played"] else 0
    return (-line["points"], -per_game, -line["won"], -(rating.ordinal if rating else -99))


def _ratings_at(club: Club, key: str, season: Season) -> dict[int, RatingPoint]:
    """Each member's latest rating point up to the end of the season."""
    _start, end = _day_bounds(season.start, season.end)
    points = RatingPoint.objects.filter(club=club, game_key=key, finished_at__lt=end)
    # Points are written in rating (= finishing) order: a member's latest has the highest id.
    newest = points.values("member_id").annotate(last_id=Max("id")).values("last_id")
    return {point.member_id: point for point in RatingPoint.objects.filter(id__in=newest)}
