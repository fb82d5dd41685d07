"""Keeping up: one game kind's ratings and season tables brought up to date with its results.

- ``LeagueProgress`` says which results the ratings and tables hold: every one that finished
  up to ``through``. Games after it are appended (``_append``): rated on top of their
  players' latest ratings, added to those players' rows and head-to-head pairs, and the
  season's table re-ranked, as a rebuild would give (tests/league/test_incremental.py checks
  it).
- A change at or before ``through`` (a late entry, an undone, voided or corrected game) marks
  the kind stale from that moment (``mark_changed``, by ``league.intake`` in the transaction
  that changed the results): the ratings are re-rated from it, and the tables of every season
  that ends on or after its day are rebuilt (``_rebuild``).
- ``update_game`` (the task ``league.tasks.update_game_task`` after every change) decides
  which; it is safe to run twice. ``recompute_club``, ``recompute_ratings`` and
  ``recompute_season`` rebuild from scratch (a recompute by hand, a club's settings changed).
- Every writer of a kind's ratings or tables holds its progress row's lock (``lock_progress``)
  for its transaction, so an update never interleaves with another or with a recompute.

Relies on ``league.rating_points`` for the stored ratings and ``league.tables`` for the season
tables; a club without seasons gets this calendar year (``club.seasons.current_season``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from club.models import Club, Season
from club.seasons import current_season
from league.models import GameResult, HeadToHead, LeagueProgress, RatingPoint, Standing
from league.rating_points import insert_points, latest_ratings, rate_from
from league.ratings import rate_games
from league.rows import Row, by_game, read_rows
from league.tables import (
    active_format,
    append_to_table,
    build_table,
    rebuild_table,
    season_results,
)


def lock_progress(club_id: int, game_key: str) -> LeagueProgress:
    """The kind's progress row, locked until the transaction ends (made if missing)."""
    progress, _created = LeagueProgress.objects.select_for_update().get_or_create(
        club_id=club_id, game_key=game_key
    )
    return progress


def mark_changed(progress: LeagueProgress, finished_at: datetime) -> None:
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
        progress = lock_progress(club.pk, game_key)
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
            _rebuild(club, key, seasons, lock_progress(club.pk, key), since=None)
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
    rate_from(club, game_key, since)
    if since is not None:
        first_day = timezone.localdate(since)
        seasons = [season for season in seasons if season.end >= first_day]
    for season in seasons:
        rebuild_table(club, season, game_key)
    progress.through = GameResult.objects.filter(club=club, game_key=game_key).aggregate(
        last=Max("finished_at")
    )["last"]
    progress.stale_from = None
    progress.save(update_fields=["through", "stale_from"])
    return len(seasons)


def _append(club: Club, game_key: str, seasons: list[Season], progress: LeagueProgress) -> int:
    """Rate and count the games that finished after ``progress.through``, touching only
    their players' ratings, rows and pairs, and re-rank each season they fall in."""
    games = by_game(
        read_rows(
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
    ratings, counts = latest_ratings(club, game_key, members=players)
    points = rate_games(games, ratings, counts)
    insert_points(club.pk, game_key, points)
    by_season: dict[Season, list[list[Row]]] = defaultdict(list)
    for rows in games:
        season = _season_of(seasons, rows[0].finished_at)
        if season is not None:
            by_season[season].append(rows)
    # Best N of M is not a sum (a new evening can move a dropped result back in): a club with
    # a league format has the season's table rebuilt, with the ratings just stored.
    rebuild = active_format(club) is not None
    for season, season_games in by_season.items():
        if rebuild:
            rebuild_table(club, season, game_key)
        else:
            append_to_table(club, season, game_key, season_games, points)
    progress.through = games[-1][0].finished_at
    progress.save(update_fields=["through"])
    return len(by_season)


def _season_of(seasons: list[Season], moment: datetime) -> Season | None:
    day = timezone.localdate(moment)
    return next((s for s in seasons if s.start <= day <= s.end), None)


@transaction.atomic
def recompute_ratings(club: Club, game_key: str) -> None:
    """Every rating point of one game kind of the club, from its first game."""
    lock_progress(club.pk, game_key)  # no update in between
    rate_from(club, game_key, None)


@transaction.atomic
def recompute_season(season: Season, game_keys: Iterable[str] | None = None) -> None:
    """Rebuild a season's tables (of ``game_keys``, else of every game played in it) from its
    results, with the ratings as they stand."""
    results = season_results(season, game_keys)
    if game_keys is None:
        game_keys = results.values_list("game_key", flat=True).distinct().order_by()
    keys = sorted(set(game_keys))
    # Locked before the results are read: no update adds to these tables meanwhile.
    progress = {key: lock_progress(season.club_id, key) for key in keys}
    rows = read_rows(results)
    Standing.objects.filter(season=season, game_key__in=keys).delete()
    HeadToHead.objects.filter(season=season, game_key__in=keys).delete()
    for key in keys:
        key_rows = [r for r in rows if r.game_key == key]
        build_table(season.club, season, key, by_game(key_rows))
        _count_pending_in(progress[key], key_rows)


def _count_pending_in(progress: LeagueProgress, rows: list[Row]) -> None:
    """A table was rebuilt from ``rows``: any the kind's progress has not reached are in it now
    and an update appending them would count them twice, so the kind rebuilds from them."""
    if progress.through is None:
        return  # the next update rebuilds everything anyway
    pending = [r.finished_at for r in rows if r.finished_at > progress.through]
    if pending and (progress.stale_from is None or min(pending) < progress.stale_from):
        progress.stale_from = min(pending)
        progress.save(update_fields=["stale_from"])
