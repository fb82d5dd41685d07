"""League benchmarks on PostgreSQL (issue 16: league tables and ratings).

A club with 60 members and 20,000 finished games over five seasons (kille with 3-6 players,
cribbage one-on-one, whist in partnerships): a full recompute of one season (tables and
head-to-head), of all ratings of one game kind and of the whole club; the standings, player
and head-to-head pages' server time (median of 20) and query counts; and what one finished
Kille game costs (``record_result`` + ``update_game``, median of 15), and one undone.

Quick mode (``PROTOKOLL_BENCH_QUICK=1``, bench/_quick.py): 10 members, 100 games, and at most
3 runs of each (``timed``).
"""

from __future__ import annotations

import random
import time
from datetime import date, datetime
from unittest import mock
from zoneinfo import ZoneInfo

from _django import bench_database, report, timed
from _quick import sized

bench_database("protokoll_bench_league")

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

import league  # noqa: E402
from club.members import add_member  # noqa: E402
from club.models import Club, Member, Role, Season, User  # noqa: E402
from league import tasks as league_tasks  # noqa: E402
from league.models import GameResult, RatingPoint, Standing  # noqa: E402

GAMES, MEMBERS = sized(20_000, quick=100), sized(60, quick=10)
rng = random.Random(7)
zone = ZoneInfo("Europe/Stockholm")

club = Club.objects.create(name="Ligaklubben", slug="liga")
user = User.objects.create_user("ligan", password="bench-password-1")
add_member(club, "Medlem 00", roles=[Role.ADMIN], user=user)
for n in range(1, MEMBERS):
    add_member(club, f"Medlem {n:02d}")
members = list(Member.objects.filter(club=club))
seasons = [
    Season.objects.create(club=club, name=str(year), start=date(year, 1, 1), end=date(year, 12, 31))
    for year in range(2022, 2027)
]
start = datetime(2022, 1, 1, 19, tzinfo=zone)
step = (datetime(2026, 12, 31, 23, tzinfo=zone) - start) / GAMES
rows = []
for g in range(GAMES):
    key = rng.choice(["kille", "kille", "cribbage", "whist"])
    size = {"kille": rng.randint(3, 6), "cribbage": 2, "whist": 4}[key]
    players = rng.sample(members, size)
    when = start + step * g
    for seat, member in enumerate(players):
        team = seat % 2 if key == "whist" else None
        placement = (1 if team == g % 2 else 2) if key == "whist" else seat + 1
        rows.append(
            GameResult(
                club=club,
                game_ref=f"game:{g}",
                game_key=key,
                finished_at=when,
                member=member,
                seat=seat,
                team=team,
                placement=placement,
                score=size - seat,
                net_ore=rng.randint(-500, 500),
                players=size,
            )
        )
GameResult.objects.bulk_create(rows, batch_size=5000)
print(f"{MEMBERS} members, {GAMES:,} games, {len(rows):,} results over {len(seasons)} seasons")

begin = time.perf_counter()
for key in ("kille", "cribbage", "whist"):
    league.recompute_ratings(club, key)
print(f"ratings for all three games from scratch: {time.perf_counter() - begin:.2f} s")
season = seasons[-1]
report(
    "recompute one season (all games' tables and head-to-head)",
    timed(lambda: league.recompute_season(season), 3),
)
report(
    "recompute kille ratings (all seasons)",
    timed(lambda: league.recompute_ratings(club, "kille"), 3),
)
# The same when every point must be written (none stored, or a change before the first game).
scratch_times: list[float] = []
for _ in range(3):
    RatingPoint.objects.filter(club=club, game_key="kille").delete()
    scratch_times += timed(lambda: league.recompute_ratings(club, "kille"), 1)
report("recompute kille ratings, every point written anew", scratch_times)
begin = time.perf_counter()
league.recompute_club(club)  # every table, and the progress the updates below start from
print(f"recompute the whole club (ratings and tables): {time.perf_counter() - begin:.2f} s")

client = Client()
client.force_login(user)
params = {"season": season.pk, "game": "kille"}


def page(label: str, url: str, query: dict) -> None:
    client.get(url, query)
    queries: list[str] = []

    def count_query(execute, sql, params_, many, context):
        queries.append(sql)
        return execute(sql, params_, many, context)

    with connection.execute_wrapper(count_query):
        assert client.get(url, query).status_code == 200
    report(label, timed(lambda: client.get(url, query), 20), f"queries={len(queries)}")


page(
    f"standings page (kille, {MEMBERS} rows)", reverse("league:standings", args=[club.slug]), params
)
page("player page", reverse("league:player", args=[club.slug, members[5].pk]), {"game": "kille"})
page(
    f"head-to-head matrix (kille, {MEMBERS} × {MEMBERS})",
    reverse("league:h2h", args=[club.slug]),
    params,
)

# What one finished game costs: its results recorded, then its ratings and season table
# brought up to date. Without a broker the update runs on commit inside record_result; here it
# is held back and called by hand, so each run does each exactly once, as a worker would.
counter = iter(range(10**6))
last_ref = ""


def one_more_game() -> None:
    global last_ref
    n = next(counter)
    players = rng.sample(members, rng.randint(3, 6))
    results = [
        league.PlayerResult(seat=i, member=m, guest_name="", placement=i + 1, score=0)
        for i, m in enumerate(players)
    ]
    when = datetime(2026, 12, 31, 23, tzinfo=zone) + (step * n) / 1000
    last_ref = f"game:new{n}"
    league.record_result(club, last_ref, "kille", when, results)
    league.update_game(club, "kille", "2026-12-31")


with mock.patch.object(league_tasks.update_game_task, "delay_on_commit"):
    one_more_game()  # warm up
    rows_before = Standing.objects.filter(season=season, game_key="kille").count()
    queries: list[str] = []

    def count_query(execute, sql, params_, many, context):
        queries.append(sql)
        return execute(sql, params_, many, context)

    with connection.execute_wrapper(count_query):
        one_more_game()
    report(
        "one finished kille game: record_result + update_game",
        timed(one_more_game, 15),
        f"queries={len(queries)}",
    )
    assert Standing.objects.filter(season=season, game_key="kille").count() == rows_before

    def undo_newest() -> None:
        league.remove_results(last_ref)
        league.update_game(club, "kille", "2026-12-31")

    undo_times: list[float] = []
    for _ in range(3):
        one_more_game()
        undo_times += timed(undo_newest, 1)
    report("undo of the newest kille game (re-rate from it, rebuild the season)", undo_times)
