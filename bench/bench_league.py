"""League benchmarks on PostgreSQL (issue: league tables and ratings).

A club with 60 members and 20,000 finished games over five seasons (kille with 3-6 players,
cribbage one-on-one, whist in partnerships): the standings page's server time (median of 20)
and its query count, and a full recompute of one season (tables and head-to-head), and of all
ratings of one game kind.
"""

from __future__ import annotations

import random
import time
from datetime import date, datetime
from zoneinfo import ZoneInfo

from _django import bench_database, report, timed

bench_database("protokoll_bench_league")

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from club.members import add_member  # noqa: E402
from club.models import Club, Member, Role, Season, User  # noqa: E402
from league import services as league  # noqa: E402
from league.models import GameResult  # noqa: E402

GAMES, MEMBERS = 20_000, 60
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
for other in seasons[:-1]:
    league.recompute_season(other)

client = Client()
client.force_login(user)
url = reverse("league:standings", args=[club.slug])
params = {"season": season.pk, "game": "kille"}
client.get(url, params)
queries: list[str] = []


def count_query(execute, sql, params_, many, context):
    queries.append(sql)
    return execute(sql, params_, many, context)


with connection.execute_wrapper(count_query):
    assert client.get(url, params).status_code == 200
report(
    "standings page (kille, 60 rows)",
    timed(lambda: client.get(url, params), 20),
    f"queries={len(queries)}",
)
player_url = reverse("league:player", args=[club.slug, members[5].pk])
report("player page", timed(lambda: client.get(player_url, {"game": "kille"}), 20))
report(
    "head-to-head matrix",
    timed(lambda: client.get(reverse("league:h2h", args=[club.slug]), params), 20),
)

# What one finished game costs: its results recorded, ratings appended, its season recomputed.
counter = iter(range(10**6))


def one_more_game() -> None:
    n = next(counter)
    players = rng.sample(members, 4)
    results = [
        league.PlayerResult(seat=i, member=m, guest_name="", placement=i + 1, score=0)
        for i, m in enumerate(players)
    ]
    when = datetime(2026, 12, 31, 23, tzinfo=zone) + (step * n) / 1000
    league.record_result(club, f"game:new{n}", "kille", when, results)
    league.recompute_game_task(club.pk, "kille", "2026-12-31")


report("one finished kille game: ratings appended + season table", timed(one_more_game, 5))
