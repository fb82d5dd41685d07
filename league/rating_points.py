"""Ratings as stored: each member's ``RatingPoint`` after every rated game of a kind.

A point per member per game, written in rating (= finishing) order, so a member's newest point
of a kind is the one with the highest id (``latest_ratings`` reads them so). ``rate_from``
re-rates a kind from a moment on, on top of the ratings before it, and keeps the stored points
that already agree (``_store_points``); ``league.incremental`` appends a newest game's points
(``insert_points``). Fewer rated games (``RatingPoint.games``) than the club's
``provisional_games`` marks a rating provisional on the pages. Guests' ratings are not stored.

Relies on ``league.ratings`` for the maths and ``league.rows`` to read the results; on
PostgreSQL the points are written with a binary COPY (psycopg 3).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import connection
from django.db.models import Max, OuterRef, Subquery

from club.models import Club, Member
from league.models import GameResult, RatingPoint
from league.ratings import Point, rate_games
from league.rows import Row, by_game


def rate_from(club: Club, game_key: str, since: datetime | None) -> None:
    """Re-rate the kind's games that finished at or after ``since`` (all when ``None``) on top
    of the ratings before it."""
    results = GameResult.objects.filter(club=club, game_key=game_key)
    if since is None:
        ratings, counts = {}, {}
    else:
        results = results.filter(finished_at__gte=since)
        ratings, counts = latest_ratings(club, game_key, before=since)
    values = results.order_by("finished_at", "game_ref", "seat").values_list(
        "game_ref", "finished_at", "member_id", "seat", "team", "placement"
    )
    games = by_game(
        Row(ref, game_key, at, member, seat, team, placement, 0, 0, 0, {})
        for ref, at, member, seat, team, placement in values
    )
    _store_points(club.pk, game_key, rate_games(games, ratings, counts), since)


def latest_ratings(
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


def _store_points(club_id: int, game_key: str, points: list[Point], since: datetime | None) -> None:
    """Make the kind's stored points from ``since`` on (all when ``None``) be ``points``.

    A re-rate mostly reproduces what is stored (a recompute by hand, a change late in the
    history): the stored points that already agree, in rating order, stay; the first that
    differs and every one after it are replaced, so ids stay in rating order."""
    stored = RatingPoint.objects.filter(club_id=club_id, game_key=game_key)
    if since is not None:
        stored = stored.filter(finished_at__gte=since)
    kept, first_changed = 0, None
    for row in stored.order_by("id").values_list("id", *Point._fields).iterator(5000):
        if kept < len(points) and row[1:] == points[kept]:
            kept += 1
        else:
            first_changed = row[0]
            break
    if first_changed is not None:
        RatingPoint.objects.filter(
            club_id=club_id, game_key=game_key, id__gte=first_changed
        ).delete()
    insert_points(club_id, game_key, points[kept:])


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


def insert_points(club_id: int, game_key: str, points: list[Point]) -> None:
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
