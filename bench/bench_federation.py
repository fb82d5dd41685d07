"""A federation on one instance (issue 27 §4): are one club's pages as fast among 500 clubs?

Two PostgreSQL databases of the same club shape, kept between runs (made again only when
missing, when this generator or the sizes changed, or with ``--rebuild``; a kept database is
migrated before it is measured, so a new index is measured without generating again):

- ``protokoll_bench_federation``: 500 clubs, 60 members each (30,000), some 10,000 events each
  (5,000,000) and 10,000 two-entry transactions each (10,000,000 ledger entries);
- ``protokoll_bench_federation_one``: the one club measured, alone, generated the same way.

For the measured club, on each database: the club start page, a pad (its latest Kille evening),
the ledger overview, a member's statement and the league page, through the Django test client
(server time); then the ratio federation / one club (the goal: within 1.2×), as the median of
all requests, as the best round's median (rounds alternate between the databases, so a burst
of other work on a shared machine spoils a round, not the comparison) and as the time the
page's queries take in PostgreSQL (``EXPLAIN ANALYZE``, summed). For each
page every SELECT it sends is EXPLAINed on the federation: a warning for each Seq Scan of a table
of more than 100,000 rows, and the plan of its slowest query, whose first scan should be an
index scan on a club-scoped index.

How the data is made: bench/_federation.py (COPY straight into the real tables, in time
order across the clubs).

Quick mode (``--quick`` or ``PROTOKOLL_BENCH_QUICK=1``): 2 clubs of 12 members, some 200 events
and 200 transactions each, a short Kille evening, 2 runs; the databases ``…_quick`` are kept
too, so only the first quick run pays for building them.

    .venv/bin/python bench/bench_federation.py            # build once (minutes), then measure
    .venv/bin/python bench/bench_federation.py --rebuild  # build again
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from _django import ROOT, postgres_url, report, timed
from _federation import CLUBS, MEASURED, build, database_label, slug
from _quick import QUICK, sized

DATABASE = sized("protokoll_bench_federation", quick="protokoll_bench_federation_quick")
ONE_CLUB = sized("protokoll_bench_federation_one", quick="protokoll_bench_federation_one_quick")

RUNS = sized(20, quick=2)
ROUNDS = sized(3, quick=1)  # measurements alternate between the databases, in child processes
BIG_TABLE_ROWS = 100_000
GOAL_RATIO = 1.2


# --- the parent: build what is missing, then measure both databases in turn ------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small data, seconds (_quick.py)")
    parser.add_argument("--rebuild", action="store_true", help="make both databases again")
    parser.add_argument("--child", choices=("build", "migrate", "measure"), help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    url = postgres_url("bench_federation.py")
    if args.child:
        child(args.child, args.database, url)
        return
    for name in (DATABASE, ONE_CLUB):
        run_child("build" if args.rebuild or not is_current(url, name) else "migrate", name, url)
    # page → one measurement per round: {"times": [ms, …], "db_ms": ms}
    results: dict[str, dict[str, list[dict]]] = {DATABASE: {}, ONE_CLUB: {}}
    for _round in range(ROUNDS):
        for name in (ONE_CLUB, DATABASE):
            for label, measured in run_child("measure", name, url).items():
                results[name].setdefault(label, []).append(measured)
    compare(results[ONE_CLUB], results[DATABASE])


def admin_connection(url: str):
    import psycopg

    admin = url.rsplit("/", 1)[0].replace("postgres://", "postgresql://", 1) + "/postgres"
    return psycopg.connect(admin, autocommit=True)


def is_current(url: str, name: str) -> bool:
    """Whether ``name`` exists and was built by this generator with these sizes."""
    with admin_connection(url) as conn:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            [name],
        ).fetchone()
    return row is not None and row[0] == database_label()


def run_child(role: str, name: str, url: str) -> dict:
    """Run this file as a child for one database (a fresh Django each time, so nothing cached in
    the process, such as the pads' replayed states, crosses from one database to the other);
    its output is passed on, its last line is its answer."""
    env = os.environ | {"PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, __file__, "--child", role, "--database", name],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = done.stdout.splitlines()
    answer = lines.pop() if lines and lines[-1].startswith("{") else "{}"
    print("\n".join(lines), flush=True)
    if done.returncode != 0:
        sys.exit(f"{role} of {name} failed:\n{done.stderr[-4000:]}")
    return json.loads(answer)


def compare(one: dict[str, list[dict]], federation: dict[str, list[dict]]) -> None:
    """Three views of each page, one club against the federation: the median of every request;
    the best round's median (a round the machine's other work slowed is left out: on a shared
    machine that is most of the noise); and the time the page's queries take in PostgreSQL
    (``EXPLAIN ANALYZE``, summed; the median of the rounds), which Python's noise cannot touch
    and which is where a missing club-scoped index would show."""
    views = (
        ("median of all requests", True, lambda rounds: median(r["times"] for r in rounds)),
        (
            "best round's median",
            True,
            lambda rounds: min(statistics.median(r["times"]) for r in rounds),
        ),
        # Fractions of a millisecond: the goal is the page's, this says where a change came from.
        ("in PostgreSQL", False, lambda rounds: statistics.median(r["db_ms"] for r in rounds)),
    )
    for title, goal, figure in views:
        print(f"\n{title:<40} {'one club':>10} {'federation':>12} {'ratio':>7}")
        for label, rounds in one.items():
            alone, among = figure(rounds), figure(federation[label])
            ratio = among / alone
            over = goal and not QUICK and ratio > GOAL_RATIO
            verdict = f"   over the goal of {GOAL_RATIO}×" if over else ""
            print(f"{label:<40} {alone:8.2f} ms {among:10.2f} ms {ratio:6.2f}×{verdict}")


def median(rounds_times) -> float:
    return statistics.median([t for times in rounds_times for t in times])


# --- the children -------------------------------------------------------------------------------


def child(role: str, name: str, url: str) -> None:
    if role == "build":
        with admin_connection(url) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + f"/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "1"
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    if role == "build":
        build(indices=[MEASURED] if name == ONE_CLUB else list(range(CLUBS)))
        with connection.cursor() as cursor:  # labelled last: a build cut short is made again
            cursor.execute(f"COMMENT ON DATABASE \"{name}\" IS '{database_label()}'")
    elif role == "migrate":
        call_command("migrate", verbosity=0)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    else:
        print(json.dumps(measure(explain=name == DATABASE)))


# --- measuring ---------------------------------------------------------------------------------


def measure(explain: bool) -> dict[str, dict]:
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from club.models import Club, Member, Season
    from ledger.models import Account
    from scoring.models import Game

    club = Club.objects.get(slug=slug(MEASURED))
    treasurer = Member.objects.get(club=club, name="Kassören")
    game = Game.objects.filter(club=club, game_key="kille").order_by("-started_at").first()
    account = Account.objects.get(club=club, key=f"member:{treasurer.pk + 1}")
    season = Season.objects.filter(club=club).order_by("-start").first()
    pages = (
        ("club start page", reverse("club:club-home", args=[club.slug]), {}),
        (
            f"pad (a Kille evening, {game.seq} events)",
            reverse("scoring:game-detail", args=[club.slug, game.pk]),
            {},
        ),
        ("ledger overview", reverse("ledger:overview", args=[club.slug]), {}),
        ("member statement", reverse("ledger:account", args=[club.slug, account.pk]), {}),
        (
            "league page (Kille, this season)",
            reverse("league:standings", args=[club.slug]),
            {"season": season.pk, "game": "kille"},
        ),
    )
    client = Client()
    client.force_login(treasurer.user)
    big = big_tables(connection)
    answer = {}
    for label, url, query in pages:
        queries = captured(connection, lambda url=url, query=query: client.get(url, query))
        times = timed(lambda url=url, query=query: client.get(url, query), RUNS)
        report(
            f"{label} [{'federation' if explain else 'one club'}]", times, f"queries={len(queries)}"
        )
        plans = explained(connection, queries)
        warn_seq_scans(label, plans, big)
        if explain:
            show_plan(connection, label, max(plans, key=lambda plan: plan[2]), queries)
        answer[label] = {"times": times, "db_ms": sum(ms for _sql, _root, ms in plans)}
    return answer


def captured(connection, get) -> list[tuple[str, tuple, float]]:
    """The page's queries (SQL, parameters, milliseconds), after one request to warm up."""
    response = get()
    assert response.status_code == 200, response.status_code
    queries: list[tuple[str, tuple, float]] = []

    def wrapper(execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            queries.append((sql, params, (time.perf_counter() - start) * 1000))

    with connection.execute_wrapper(wrapper):
        assert get().status_code == 200
    return [q for q in queries if q[0].lstrip().upper().startswith("SELECT")]


def big_tables(connection) -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, reltuples::bigint FROM pg_class "
            "WHERE relkind = 'r' AND reltuples > %s",
            [BIG_TABLE_ROWS],
        )
        return dict(cursor.fetchall())


def plan_nodes(node: dict):
    yield node
    for child_node in node.get("Plans", ()):
        yield from plan_nodes(child_node)


def explained(connection, queries) -> list[tuple[str, dict, float]]:
    """Each query (SQL, its plan's root, server milliseconds) by ``EXPLAIN ANALYZE``: which
    query is the page's main one is the database's measure, not the noisy wall clock's."""
    answers = []
    for sql, params, _ms in queries:
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", params)
            plan = cursor.fetchone()[0]
        plan = (json.loads(plan) if isinstance(plan, str) else plan)[0]
        answers.append((sql, plan["Plan"], plan["Execution Time"]))
    return answers


def warn_seq_scans(label: str, plans, big: dict[str, int]) -> None:
    for sql, root, _ms in plans:
        for node in plan_nodes(root):
            table = node.get("Relation Name")
            if node["Node Type"] == "Seq Scan" and table in big:
                print(
                    f"  WARNING: {label}: Seq Scan on {table} ({big[table]:,} rows) in "
                    f"{' '.join(sql.split())[:160]}"
                )


def first_scan(node: dict) -> str:
    """The scan the executor starts from (the outer child, down to a leaf), in words."""
    table = node.get("Relation Name", "?")
    while node.get("Plans"):
        node = node["Plans"][0]
        table = node.get("Relation Name", table)
    index = f" using {node['Index Name']}" if "Index Name" in node else ""
    return f"{node['Node Type']}{index} ({table})"


def show_plan(connection, label: str, main: tuple[str, dict, float], queries) -> None:
    sql, root, ms = main
    params = next(params for text, params, _ms in queries if text == sql)
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, COSTS OFF) {sql}", params)
        lines = [row[0] for row in cursor.fetchall()]
    print(f"  main query of the {label} ({ms:.2f} ms in PostgreSQL): starts {first_scan(root)}")
    print(f"    {' '.join(sql.split())[:300]}")
    for line in lines:
        print(f"    | {line}")


if __name__ == "__main__":
    main()
