"""A club evening under load: uvicorn (or gunicorn) on PostgreSQL, driven by Locust and by a
client of its own for the live streams (bench/live_load.py).

1. A fresh database (``protokoll_bench_load``) with a generated club: members enough for four
   phones at every open table (at least 200; one scorer per table at least 60), each with a
   login and a signed-in session (made here, as ``django.contrib.auth.login`` makes one, so
   that the phones do not all hash a password first); open tables with some history (as many
   as the largest of ``--tables`` and ``--push-tables``: Kille and Polskt pass once each, as
   they play from the club's pot, then the club's other games in turn, those past the first 40
   with a short history); and finished games for the league pages. Everything is recorded
   through the app's own services (``club.members.add_member``, ``scoring.recording``), the
   events proposed by the demo's seeded generators (``scoring.demo``), so every event is one
   the rules allow.
2. The server on 127.0.0.1 (a free port) against that database as production runs it: DEBUG
   off, collected static files, persistent database connections, ``2 × cores + 1`` workers;
   uvicorn (ASGI: the pages offer the live stream, ``/live/``) by default, gunicorn (WSGI: no
   stream, the pads poll) with ``--server gunicorn``. The shared cache is Redis, database 3 on
   127.0.0.1:6379, when one answers there (production runs Redis; the run empties that
   database at start), else a cache per worker: with Redis a poll at the newest seq is
   answered before Django (``live.polls``).
3. Locust, headless, in two parts (the first ``--tables`` tables):
   - *the evening*: four phones per table polling the pad every 2 s (with the pad's proof, as
     a phone without a stream does); at each table the scorer taps every 10 s (an undo, then
     the same event again: always legal, and the game stays where it was) and loads the pad
     after the tap; a few members reading league and ledger pages. This is the load a club
     evening makes, at its real pace, for phones that poll.
   - *capacity*: each route alone, as fast as a fixed number of clients can ask (closed loop,
     no pauses): a poll that finds nothing new, the pad page, the league page and ``/healthz``.
     These are the figures the goals of issue 16 are about.
4. Then bench/live_load.py, with asyncio and httpx (uvicorn only: gunicorn serves no stream):
   - *push*: the evening at its real pace with phones that hold a stream, for each of
     ``--push-tables``: tap, signal and update latency at the other phones (issue 27 §3);
   - *idle*: ``--idle`` streams held open at once: how many connect, the server's memory per
     connection, and how long one signal per channel takes to reach every one of them.
5. A table per part: requests/s, median and 99th percentile, errors, and the goals beside them.

Exits non-zero only when the set-up fails, never because a goal is missed.

    scripts/load.sh                       # set up, then this with its defaults (about 10 min)
    .venv/bin/python bench/load.py --quick  # every part, small (about 2 min)
    .venv/bin/python bench/load.py --server gunicorn   # WSGI: the Locust parts only
    .venv/bin/python bench/load.py --workers 3 --push-tables 40 --idle 4000
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from _django import ROOT, bench_database

DATABASE = "protokoll_bench_load"
STATIC = Path(tempfile.gettempdir()) / "protokoll-load-static"
PHONES_PER_TABLE = 4

# The open tables: (game, players, events recorded before the evening starts). Kille and
# Polskt pass play from the club's pot, which can be at one table only (scoring.recording), so
# the evening has one of each, the Kille table a long one; the rest are the club's other games.
OPEN_TABLES: tuple[tuple[str, int, int], ...] = (
    ("kille", 5, 100),
    ("polskt_pass", 4, 12),
    *(("kille_elimination", 4 + i % 3, 10) for i in range(12)),
    *(("whist", 4, 6) for _ in range(8)),
    *(("cribbage", 2, 12) for _ in range(8)),
    *(("fyrtioett", 4, 5) for _ in range(4)),
    *(("kasino", 3, 4) for _ in range(3)),
    *(("vandatta", 4, 4) for _ in range(3)),
)
# Tables past these (the push part's 200) cycle through the club's other games with this many
# events each: a short history is as good a pad for a phone, and quicker to make.
MORE_TABLES_EVENTS = 3
# Played to the end before the evening, for the league pages: (game, players, how many).
FINISHED_GAMES: tuple[tuple[str, int, int], ...] = (
    ("kille", 5, 3),
    ("cribbage", 2, 6),
    ("whist", 4, 6),
    ("kasino", 2, 4),
    ("president", 4, 3),
    ("stopp", 4, 3),
)
RULES = {"cribbage": {"stake_ore": 500}}
FIRST_NAMES = ("Anna", "Bo", "Cilla", "Dan", "Eva", "Fredrik", "Greta", "Hans", "Ida", "Jonas")
FIRST_NAMES += ("Karin", "Lars", "Maja", "Nils", "Olga", "Per", "Rut", "Sven", "Tora", "Ulf")
LAST_NAMES = ("Ek", "Ros", "Ås", "Al", "Berg", "Lind", "Holm", "Strand", "Dahl", "Sjö")

# The goals, on 2 cores (issue 16 §3).
GOAL_POLLS_PER_S = 1000
GOAL_PAD_PER_S = 300
GOAL_P99_MS = 100
REDIS = ("127.0.0.1", 6379)
REDIS_DB = 3  # emptied at the start of every run that uses it
MIN_SCORERS = 60
# Issue 27 §3: the evening with push on 2 cores, and the streams one machine holds.
GOAL_TAP_P99_MS = 150
GOAL_UPDATE_P99_MS = 1000
GOAL_IDLE = 2000

# --- the club ------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    cores = os.cpu_count() or 1
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--duration", type=int, default=60, help="seconds of the evening (default 60)"
    )
    parser.add_argument(
        "--capacity-duration",
        type=int,
        default=20,
        help="seconds of each capacity run (default 20)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a 10 s evening, 6 s capacity runs, push at 8 tables, 200 idle phones",
    )
    parser.add_argument(
        "--server",
        choices=("uvicorn", "gunicorn"),
        default="uvicorn",
        help="uvicorn (ASGI: pages offer the live stream; the default) or gunicorn (WSGI: the "
        "pads poll; the push and idle parts are left out)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=2 * cores + 1,
        help=f"server worker processes (default 2 × cores + 1 = {2 * cores + 1})",
    )
    parser.add_argument(
        "--locust-processes",
        type=int,
        default=1,
        help="Locust processes (default 1: on 2 cores each one takes CPU from the server)",
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=16,
        help="concurrent clients in each capacity run (default 16)",
    )
    parser.add_argument(
        "--tables",
        type=int,
        default=len(OPEN_TABLES),
        help=f"tables of the Locust evening (default {len(OPEN_TABLES)})",
    )
    parser.add_argument(
        "--push-tables",
        type=int,
        nargs="+",
        default=None,
        help="tables of each push run (default 40 200; quick 8)",
    )
    parser.add_argument(
        "--push-duration",
        type=int,
        default=None,
        help="seconds of each push run (default 60; quick 15)",
    )
    parser.add_argument(
        "--idle",
        type=int,
        default=None,
        help="streams held open at once by idle phones (default 2000; quick 200)",
    )
    parser.add_argument(
        "--skip",
        choices=("evening", "capacity", "push", "idle"),
        action="append",
        default=[],
        help="leave out a part",
    )
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=None,
        help="CONN_MAX_AGE for the server (default: 60 s, persistent connections, under "
        "gunicorn; 0 under uvicorn, where every request has a connection of its own and a "
        "persistent one is never reused: PostgreSQL soon refuses more clients)",
    )
    parser.add_argument(
        "--cache-url",
        default=None,
        help=f"CACHE_URL for the server (its database is emptied at start). Default: "
        f"redis://{REDIS[0]}:{REDIS[1]}/{REDIS_DB} when Redis answers there, as production "
        "runs it; else none, a cache per worker, as embedded mode runs. 'none': a cache per "
        "worker",
    )
    parser.add_argument("--keep", action="store_true", help="keep the work folder (CSV, logs)")
    args = parser.parse_args()
    if args.quick:
        args.duration, args.capacity_duration = 10, 6
    args.push_tables = args.push_tables or ([8] if args.quick else [40, 200])
    args.push_duration = args.push_duration or (15 if args.quick else 60)
    args.idle = args.idle if args.idle is not None else (200 if args.quick else 2000)
    if args.tables < 1 or min(args.push_tables) < 1:
        parser.error("--tables and --push-tables must be 1 or more")
    if args.server == "gunicorn":
        args.skip += ["push", "idle"]  # WSGI serves no stream
    if args.conn_max_age is None:
        args.conn_max_age = 60 if args.server == "gunicorn" else 0
    if args.cache_url is None:
        args.cache_url = default_cache_url()
    elif args.cache_url.lower() == "none":
        args.cache_url = ""
    return args


def default_cache_url() -> str:
    """Redis's database ``REDIS_DB`` when a Redis server answers on ``REDIS``, else none."""
    try:
        with socket.create_connection(REDIS, timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            if sock.recv(16).startswith(b"+PONG"):
                return f"redis://{REDIS[0]}:{REDIS[1]}/{REDIS_DB}"
    except OSError:
        pass
    return ""


def empty_cache(url: str) -> None:
    """This run's cache starts empty: no poll answered from marks an earlier run left."""
    import redis

    try:
        redis.Redis.from_url(url, socket_timeout=5).flushdb()
    except redis.RedisError as error:
        raise SystemExit(f"set-up: the cache {url} refused FLUSHDB: {error}") from None


def open_tables(count: int) -> list[tuple[str, int, int]]:
    """``OPEN_TABLES`` and, past them, the games after Kille and Polskt pass (which play from
    the club's pot, so once each) in turn, with ``MORE_TABLES_EVENTS`` events each."""
    tables = list(OPEN_TABLES[:count])
    others = OPEN_TABLES[2:]
    for number in range(count - len(tables)):
        game_key, players, events = others[number % len(others)]
        tables.append((game_key, players, min(events, MORE_TABLES_EVENTS)))
    return tables


def say(text: str) -> None:
    print(f"[load] {text}", flush=True)


def member_names(count: int) -> list[str]:
    names = [f"{first} {last}" for last in LAST_NAMES for first in FIRST_NAMES]
    return [
        names[n % len(names)] + (f" {n // len(names) + 1}" if n >= len(names) else "")
        for n in range(count)
    ]


def make_club(tables: int, locust_tables: int, quick: bool) -> dict:
    """The generated club and what Locust and the live client need of it (the plan, written
    as JSON): ``tables`` open tables, the first ``locust_tables`` of them Locust's."""
    from django.urls import reverse

    from club.members import add_member
    from club.models import Club, Role, User
    from live.polls import proof
    from scoring.models import Game

    laid = open_tables(tables)
    # Everyone seated is seated once; the spectators at the small tables come from the rest.
    scorers_count = max(MIN_SCORERS, tables)
    started = time.perf_counter()
    club = Club.objects.create(name="Lastklubben", slug="last")
    members = []
    count = max(200, scorers_count + sum(players for _key, players, _e in laid) + 10)
    for number, name in enumerate(member_names(count), start=1):
        user = User.objects.create_user(f"medlem{number}", password=None)
        roles = [Role.SCORER] if number <= scorers_count else []
        if number == 1:
            roles += [Role.ADMIN, Role.TREASURER]
        members.append(add_member(club, name, roles=roles, user=user))
    admin = members[0].user
    say(
        f"{len(members)} members ({scorers_count} scorers) in {time.perf_counter() - started:.1f} s"
    )

    started = time.perf_counter()
    rng = random.Random(16)
    finished = 0
    for game_key, players, count in FINISHED_GAMES:
        for _ in range(1 if quick else count):
            game = start(club, game_key, rng.sample(members, players), admin)
            play(game, admin, rng, events=None)
            finished += 1
    say(f"{finished} finished games in {time.perf_counter() - started:.1f} s")

    # The open tables: the first seats are the scorers (the first members may score).
    started = time.perf_counter()
    scorers = members[:scorers_count]
    others = members[scorers_count:]
    rng.shuffle(scorers)
    rng.shuffle(others)
    plan_tables = []
    for game_key, players, events in laid:
        seated = [scorers.pop(), *(others.pop() for _ in range(players - 1))]
        game = start(club, game_key, seated, admin)
        last = play(game, admin, rng, events=events)
        game.refresh_from_db()
        watchers = seated[:PHONES_PER_TABLE]
        while len(watchers) < PHONES_PER_TABLE:  # spectators at the small tables
            watchers.append(others.pop() if others else rng.choice(members[scorers_count:]))
        kwargs = {"club_slug": club.slug, "game_id": game.pk}
        plan_tables.append(
            {
                "game": game.pk,
                "key": game_key,
                "seq": game.seq,
                "base": game.seq,  # the taps alternate from here: undo, redo, undo, …
                "proof": proof(game.pk, game.seq),
                "pad": reverse("scoring:game-detail", kwargs=kwargs),
                "poll": reverse("scoring:game-poll", kwargs=kwargs),
                "event": reverse("scoring:game-event", kwargs=kwargs),
                "redo": last,
                "phones": [signed_in(m.user) for m in watchers],
            }
        )
    recorded = sum(t["seq"] for t in plan_tables)
    say(
        f"{len(plan_tables)} open tables, {recorded} events, "
        f"in {time.perf_counter() - started:.1f} s"
    )
    assert all(Game.objects.get(pk=t["game"]).is_open for t in plan_tables)

    slug = {"club_slug": club.slug}
    readers = members[:1] + rng.sample(members[1:], 5)
    return {
        "club": club.slug,
        "tables": plan_tables[:locust_tables],
        "open": plan_tables,
        "readers": [signed_in(m.user) for m in readers],
        "league": [
            reverse("league:standings", kwargs=slug),
            *(
                reverse("league:player", kwargs={**slug, "member_id": m.pk})
                for m in rng.sample(members, 10)
            ),
        ],
        "ledger": [reverse("ledger:overview", kwargs=slug), reverse("ledger:me", kwargs=slug)],
    }


def start(club, game_key: str, players: list, by):
    from scoring import games, recording

    return recording.start_game(
        club,
        game_key,
        players,
        by,
        rules=RULES.get(game_key, {}),
        setup=games.start_setup(club, game_key),
    )


def play(game, by, rng: random.Random, events: int | None) -> dict | None:
    """Record ``events`` events the demo's generator proposes (all of them, to the end of the
    game, for ``None``; an open game is left open). The last recorded event, for the taps."""
    from engine import registry
    from engine.errors import EngineError
    from scoring import games, recording
    from scoring.demo import Table

    module = registry.get(game.game_key).module
    players = game.seats.count()
    length = 4 if events is None else 10_000
    table = Table(evening=0, number=0, players=players, start=0, hours=1, length=length)
    demo = games.pad_for(game.game_key).demo
    generator = demo.generator(table, random.Random(rng.random()))
    state, _nets = recording.current_state(game)
    last = None
    recorded = 0
    for _attempt in range(5000):
        if state.finished or (events is not None and recorded >= events):
            break
        event = generator.propose(state)
        try:
            after = module.apply(state, event)
        except EngineError as error:
            generator.refused(event, error)
            continue
        if after.finished and events is not None:
            break  # an open table stays open
        payload = {k: v for k, v in event.items() if k != "type"}
        result = recording.append_event(
            game,
            event["type"],
            payload,
            expected_seq=game.seq,
            idempotency_key=f"load-{game.pk}-{game.seq}",
            by=by,
        )
        game.seq = result.event.seq
        state = result.state
        generator.accepted(event, state)
        last = {"type": event["type"], "payload": payload}
        recorded += 1
    if events is None and not state.finished:
        raise RuntimeError(f"{game.game_key} game #{game.pk} did not finish")
    if events is not None and last is None:
        raise RuntimeError(f"{game.game_key} game #{game.pk}: no event to tap")
    return last


def signed_in(user) -> str:
    """A session key for ``user``, signed in as the login view does it."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import login
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.session = import_module(settings.SESSION_ENGINE).SessionStore()
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session.save()
    return request.session.session_key


# --- the server ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(work: Path, args: argparse.Namespace) -> dict[str, str]:
    """Production settings (DEBUG off) with the static files collected into ``STATIC``: a
    settings module in ``work`` that changes nothing but STATIC_ROOT. ``STATIC`` outlives the
    run: the next run's collectstatic copies only what changed (a fresh one takes a minute)."""
    # The vendored workbox scripts name source maps that scripts/setup.sh does not copy, and
    # collectstatic's manifest refuses a missing one: they are added from node_modules here.
    maps = work / "sourcemaps"
    maps.mkdir()
    for script in (ROOT / "static" / "vendor" / "workbox").glob("*.js"):
        for found in (ROOT / "node_modules").glob(f"workbox-*/build/{script.name}.map"):
            shutil.copy(found, maps / found.name)
    (work / "load_settings.py").write_text(
        "from config.settings import *  # noqa: F403\n\n"
        f"STATIC_ROOT = {str(STATIC)!r}\n"
        f"STATICFILES_DIRS = [*STATICFILES_DIRS, ('vendor/workbox', {str(maps)!r})]  # noqa\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "load_settings",
        "PYTHONPATH": os.pathsep.join([str(work), str(ROOT)]),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on 127.0.0.1; a proxy terminates TLS
        "CONN_MAX_AGE": str(args.conn_max_age),
        "LOG_LEVEL": "WARNING",
    }
    env.pop("CELERY_BROKER_URL", None)  # embedded mode: tasks run in the request
    if args.cache_url:
        env["CACHE_URL"] = args.cache_url
    else:
        env.pop("CACHE_URL", None)
    return env


def server_command(name: str, port: int, workers: int) -> list[str]:
    if name == "gunicorn":
        return [
            *("gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"),
            *("--workers", str(workers), "--log-level", "warning"),
        ]
    # The streams never end by themselves: shutdown closes them after 2 s.
    return [
        *("uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port)),
        *("--workers", str(workers), "--log-level", "warning", "--no-access-log"),
        *("--timeout-graceful-shutdown", "2"),
    ]


def start_server(
    name: str, env: dict[str, str], work: Path, workers: int
) -> tuple[subprocess.Popen, str]:
    port = free_port()
    host = f"http://127.0.0.1:{port}"
    log = (work / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", *server_command(name, port, workers)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"{name} stopped at start-up: see {work / 'server.log'}")
        try:
            with urllib.request.urlopen(f"{host}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return server, host
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    server.terminate()
    raise SystemExit(f"{name} did not answer /healthz in 60 s: see {work / 'server.log'}")


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


def check_pages(host: str, plan: dict) -> None:
    """The pad and its poll answer a signed-in phone, before the clock runs (else the set-up
    failed); a league or ledger page that does not is said, and counts as errors in the run."""
    table = plan["tables"][0]
    cookie = f"sessionid={table['phones'][0]}"
    needed = [table["pad"], f"{table['poll']}?seq={table['seq']}&v={table['proof']}"]
    for url in [*needed, *plan["league"][:2], *plan["ledger"]]:
        request = urllib.request.Request(host + url, headers={"Cookie": cookie})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status = answer.status
        except urllib.error.HTTPError as error:
            status = error.code
        if status in (200, 204):
            continue
        if url in needed:
            raise SystemExit(f"set-up: {url} answered {status} to a signed-in member")
        say(f"warning: {url} answered {status} to a signed-in member (see server.log)")


def cpu_seconds(pid: int) -> float:
    """CPU time of a process and its children (the server's master and workers)."""
    import psutil

    try:
        process = psutil.Process(pid)
        total = sum(process.cpu_times()[:2])
        for child in process.children(recursive=True):
            total += sum(child.cpu_times()[:2])
    except psutil.Error:
        return 0.0
    return total


def busy_seconds() -> float:
    """CPU time the whole machine has spent busy (all cores), from the kernel's counters."""
    import psutil

    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0)


def postgres_times() -> dict[int, float]:
    """CPU time of each of the PostgreSQL server's processes on this machine (none if it is
    elsewhere); the server's persistent connections keep theirs for the whole run."""
    import psutil

    times = {}
    for process in psutil.process_iter(["name", "cpu_times"]):
        if (process.info["name"] or "").startswith("postgres") and process.info["cpu_times"]:
            times[process.pid] = sum(process.info["cpu_times"][:2])
    return times


def postgres_seconds_since(before: dict[int, float]) -> float:
    """PostgreSQL's CPU time since ``before``: of the processes alive now (one that ended in
    between, a connection of someone else's, is left out)."""
    return sum(max(t - before.get(pid, 0.0), 0.0) for pid, t in postgres_times().items())


# --- Locust --------------------------------------------------------------------------------


@dataclass
class Run:
    title: str
    rows: dict[str, dict]
    seconds: float
    locust_cpu: float
    server_cpu: float
    database_cpu: float  # PostgreSQL's processes (every database on the server)
    machine_cpu: float  # every process: also whatever else the machine runs


def run_locust(
    title: str,
    user_classes: list[str],
    users: int,
    seconds: int,
    host: str,
    work: Path,
    args: argparse.Namespace,
    server_pid: int,
) -> Run:
    prefix = work / title.replace(" ", "_").replace(":", "")
    # The phones arrive over a few seconds (each one opens its pad first); the figures count
    # from when all are in (--reset-stats), for ``seconds``.
    spawn_rate = min(users, 25)
    ramp = -(-users // spawn_rate)
    env = {**os.environ, "LOAD_PLAN": str(work / "plan.json")}
    env["LOAD_PROCESSES"] = str(args.locust_processes)
    command = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(ROOT / "bench" / "locustfile.py"),
        "--headless",
        "--host",
        host,
        "--users",
        str(users),
        "--spawn-rate",
        str(spawn_rate),
        "--run-time",
        f"{seconds + ramp}s",
        "--reset-stats",  # the figures start once every user is running
        "--stop-timeout",
        "5",
        "--csv",
        str(prefix),
        "--only-summary",
        "--loglevel",
        "WARNING",
        "--exit-code-on-error",
        "0",
        *(["--processes", str(args.locust_processes)] if args.locust_processes > 1 else []),
        *user_classes,
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_before = cpu_seconds(server_pid)
    machine_before, database_before = busy_seconds(), postgres_times()
    started = time.monotonic()
    with (work / f"{prefix.name}.log").open("w") as log:
        done = subprocess.run(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    elapsed = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or not Path(f"{prefix}_stats.csv").exists():
        raise SystemExit(f"Locust failed ({title}): see {work / (prefix.name + '.log')}")
    with open(f"{prefix}_stats.csv", newline="") as stats:
        rows = {row["Name"]: row for row in csv.DictReader(stats)}
    return Run(
        title,
        rows,
        elapsed,
        (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        cpu_seconds(server_pid) - server_before,
        postgres_seconds_since(database_before),
        busy_seconds() - machine_before,
    )


# --- the report ----------------------------------------------------------------------------

ROUTES = ("poll", "tap", "pad GET", "league", "ledger", "healthz")


def figure(row: dict, column: str) -> float:
    value = row.get(column, "") or "0"
    return float(value) if value != "N/A" else 0.0


def print_run(run: Run, goals: dict[str, str], server: str) -> None:
    print()
    print(f"== {run.title} ==")
    header = f"{'route':<10} {'requests':>9} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'errors':>7}"
    print(f"{header}   goal")
    for name in (*ROUTES, "Aggregated"):
        row = run.rows.get(name)
        if row is None:
            continue
        label = "total" if name == "Aggregated" else name
        print(
            f"{label:<10} {int(figure(row, 'Request Count')):>9} "
            f"{figure(row, 'Requests/s'):>8.1f} {figure(row, '50%'):>7.0f} "
            f"{figure(row, '99%'):>7.0f} {int(figure(row, 'Failure Count')):>7}   "
            f"{goals.get(name, '')}"
        )
    share = run.seconds * (os.cpu_count() or 1)
    rest = run.machine_cpu - run.locust_cpu - run.server_cpu - run.database_cpu
    print(
        f"CPU over {run.seconds:.0f} s, share of {os.cpu_count()} cores: machine busy "
        f"{100 * run.machine_cpu / share:.0f}% = {server} {100 * run.server_cpu / share:.0f}% "
        f"+ Locust {100 * run.locust_cpu / share:.0f}% + PostgreSQL "
        f"{100 * run.database_cpu / share:.0f}% + other processes {100 * rest / share:.0f}%"
    )


def verdict(row: dict | None, rate: float | None = None, p99: bool = True) -> str:
    """The goal for one route (a rate, p99 and no errors) and whether this run met it."""
    if row is None:
        return ""
    parts, met = [], figure(row, "Failure Count") == 0
    if rate is not None:
        parts.append(f"≥ {rate:,.0f}/s")
        met = met and figure(row, "Requests/s") >= rate
    if p99:
        parts.append(f"p99 < {GOAL_P99_MS} ms")
        met = met and figure(row, "99%") < GOAL_P99_MS
    parts.append("0 errors")
    return f"{', '.join(parts)}: {'met' if met else 'missed'}"


def errors_of(work: Path) -> list[str]:
    """The first lines of any error Locust counted, from its failures CSV files."""
    lines = []
    for path in sorted(work.glob("*_failures.csv")):
        with path.open(newline="") as failures:
            for row in csv.DictReader(failures):
                lines.append(f"{row['Name']}: {row['Error'][:120]} × {row['Occurrences']}")
    return lines[:10]


def settled_seqs(ids: list[int]) -> dict[int, int]:
    """Each game's seq once no tap is still landing: a tap Locust gave up on at its stop may
    commit in the server a moment later (a poll at the seq read before it answers 200)."""
    from scoring.models import Game

    seqs: dict[int, int] = {}
    for _ in range(30):
        now = dict(Game.objects.filter(pk__in=ids).values_list("pk", "seq"))
        if now == seqs:
            break
        seqs = now
        time.sleep(1)
    return seqs


def refresh_plan(plan: dict, work: Path) -> None:
    """The plan's seqs and proofs as the games are now (the taps moved them)."""
    from live.polls import proof

    seqs = settled_seqs([t["game"] for t in plan["open"]])
    for table in plan["open"]:
        table["seq"] = seqs[table["game"]]
        table["proof"] = proof(table["game"], table["seq"])
    plan["tables"] = plan["open"][: len(plan["tables"])]
    (work / "plan.json").write_text(json.dumps(plan))


def locust_parts(args, plan: dict, host: str, work: Path, server_pid: int) -> list:
    from scoring.models import Game

    ids = [t["game"] for t in plan["tables"]]

    def events_now() -> int:
        return sum(Game.objects.filter(pk__in=ids).values_list("seq", flat=True))

    runs: list[tuple[Run, dict[str, str]]] = []
    if "evening" not in args.skip:
        readers = len(plan["readers"])
        phones = len(plan["tables"]) * PHONES_PER_TABLE
        say(
            f"the evening: {phones} phones at {len(plan['tables'])} tables, {readers} "
            f"readers, {args.duration} s"
        )
        before = events_now()
        run = run_locust(
            "club evening",
            ["Phone", "Reader"],
            phones + readers,
            args.duration,
            host,
            work,
            args,
            server_pid,
        )
        evening_goals = {
            name: verdict(run.rows.get(name), p99=name in ("poll", "pad GET"))
            for name in (*ROUTES, "Aggregated")
        }
        runs.append((run, evening_goals))
        taps = int(figure(run.rows.get("tap", {}), "Request Count"))
        refresh_plan(plan, work)  # the capacity runs poll at each game's seq as it is now
        say(
            f"events recorded during the evening: {events_now() - before} (the taps "
            f"after the ramp, which the figures count: {taps})"
        )
    if "capacity" not in args.skip:
        for title, user_class, route, rate in (
            ("capacity: poll", "PollFlood", "poll", GOAL_POLLS_PER_S),
            ("capacity: pad GET", "PadFlood", "pad GET", GOAL_PAD_PER_S),
            ("capacity: league", "LeagueFlood", "league", None),
            ("capacity: healthz", "HealthzFlood", "healthz", None),
        ):
            say(f"{title}: {args.clients} clients, no pauses, {args.capacity_duration} s")
            run = run_locust(
                title,
                [user_class],
                args.clients,
                args.capacity_duration,
                host,
                work,
                args,
                server_pid,
            )
            goal = verdict(run.rows.get(route), rate) if rate else "(no goal: a yardstick)"
            runs.append((run, {route: goal}))
    return runs


def live_parts(args, plan: dict, host: str, work: Path, server_pid: int) -> tuple[list, object]:
    import live_load

    def meter() -> tuple[float, float]:
        return cpu_seconds(server_pid), busy_seconds()

    pushes = []
    if "push" not in args.skip:
        for count in args.push_tables:
            refresh_plan(plan, work)
            tables = plan["open"][:count]
            say(
                f"push: {count * PHONES_PER_TABLE} phones with a stream at {count} tables, "
                f"a tap per table every {live_load.TAP_EVERY} s, {args.push_duration} s"
            )
            pushes.append(live_load.run_push(host, tables, args.push_duration, meter))
    idle = None
    if "idle" not in args.skip:
        games = [t["game"] for t in plan["open"]]
        say(
            f"idle: {args.idle} streams on {len(games)} games' channels, opened "
            f"{live_load.IDLE_BATCH} at a time"
        )
        idle = live_load.run_idle(host, games, args.idle, server_pid, meter)
    return pushes, idle


def ms(value: float) -> str:
    return "-" if value != value else f"{value:.0f}"  # NaN: nothing measured


def client_note(cpu: float, seconds: float) -> str:
    share = cpu / seconds if seconds else 0.0
    bound = " — the client was CPU-bound: its figures are its own limit" if share > 0.8 else ""
    return (
        f"client CPU {cpu:.1f} s over {seconds:.0f} s wall ({100 * share:.0f}% of one core){bound}"
    )


def print_push(result, server: str) -> None:
    from live_load import percentile

    errors = sum(result.errors.values())
    print()
    print(
        f"== push: {result.tables} tables, {result.phones} phones with a stream "
        f"({result.connected} connected) =="
    )
    print(f"{'what':<10} {'count':>9} {'p50 ms':>7} {'p99 ms':>7} {'missed':>7}   goal")
    wanted = {"tap": GOAL_TAP_P99_MS, "update": GOAL_UPDATE_P99_MS}
    for name, values, missed in (
        ("tap", result.taps_ms, None),
        ("signal", result.signals_ms, result.missed_signals),
        ("update", result.updates_ms, result.missed_updates),
    ):
        p99 = percentile(values, 0.99)
        goal = ""
        if name in wanted:
            met = p99 < wanted[name] and errors == 0 and not result.missed_updates
            goal = f"p99 < {wanted[name]:,} ms, 0 errors: {'met' if met else 'missed'}"
        print(
            f"{name:<10} {len(values):>9} {ms(percentile(values, 0.5)):>7} {ms(p99):>7} "
            f"{'' if missed is None else missed:>7}   {goal}"
        )
    polls = ", ".join(f"{n} × {status}" for status, n in sorted(result.polls.items()))
    print(f"polls: {polls or 'none'}; errors: {errors}")
    for what, n in result.errors.most_common(5):
        print(f"  {what} × {n}")
    cores = os.cpu_count() or 1
    print(
        f"CPU over {result.seconds:.0f} s: {server} {result.server_cpu:.1f} s, machine busy "
        f"{100 * result.machine_cpu / (result.seconds * cores):.0f}% of {cores} cores; "
        f"{client_note(result.client_cpu, result.seconds)}"
    )


def print_idle(result, server: str) -> None:
    from live_load import percentile

    failures = sum(result.failures.values())
    met = result.connected >= GOAL_IDLE and not failures and not result.missing
    print()
    print(f"== idle: {result.wanted} streams held open on {result.channels} channels ==")
    print(
        f"connected {result.connected} of {result.wanted} in {result.connect_seconds:.1f} s, "
        f"failures {failures}   goal: ≥ {GOAL_IDLE:,} on one machine: "
        f"{'met' if met else 'missed'}"
    )
    for what, n in result.failures.most_common(5):
        print(f"  {what} × {n}")
    print(
        f"{server} memory (RSS, every process): {result.rss_before / 2**20:.0f} MiB before, "
        f"{result.rss_after / 2**20:.0f} MiB with the streams open: "
        f"{result.per_connection / 1024:.1f} KiB per connection"
    )
    print(
        f"one signal per channel, from commit to every phone: p50 "
        f"{ms(percentile(result.signals_ms, 0.5))} ms, p99 "
        f"{ms(percentile(result.signals_ms, 0.99))} ms, max "
        f"{ms(max(result.signals_ms, default=float('nan')))} ms, missing {result.missing}"
    )
    cores = os.cpu_count() or 1
    print(
        f"CPU over {result.seconds:.0f} s: {server} {result.server_cpu:.1f} s, machine busy "
        f"{100 * result.machine_cpu / (result.seconds * cores):.0f}% of {cores} cores; "
        f"{client_note(result.client_cpu, result.seconds)}"
    )


def main() -> None:
    args = parse_args()
    # One secret for this run: the sessions and proofs made here must be valid in the
    # server's workers, and the audit records sealed with one key.
    os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)
    os.environ["AUDIT_KEY"] = secrets.token_urlsafe(40)
    os.environ.pop("CACHE_URL", None)  # sessions go to the database, which the server reads
    from live_load import raise_fd_limit

    # Before the server starts, so that its workers inherit it too.
    files = raise_fd_limit(args.idle + 4 * max(args.push_tables) * PHONES_PER_TABLE + 1024)
    say(f"database {DATABASE}: migrating")
    bench_database(DATABASE)
    plan = make_club(max(args.tables, *args.push_tables), args.tables, args.quick)

    work = Path(tempfile.mkdtemp(prefix="protokoll-load-"))
    (work / "plan.json").write_text(json.dumps(plan))
    env = server_env(work, args)
    say("collecting static files (DEBUG off serves the hashed, compressed copies)")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    if args.cache_url:
        empty_cache(args.cache_url)
    server, host = start_server(args.server, env, work, args.workers)
    try:
        check_pages(host, plan)
        say(
            f"{args.server} on {host}, {args.workers} workers, cache "
            f"{args.cache_url or 'per worker'}; Locust with {args.locust_processes} "
            f"process(es); {os.cpu_count()} cores; open files limit {files}"
        )
        runs = locust_parts(args, plan, host, work, server.pid)
        pushes, idle = live_parts(args, plan, host, work, server.pid)
    finally:
        stop_server(server)

    print()
    print(
        f"Protokoll under load: {args.server} {args.workers} workers, PostgreSQL, "
        f"{os.cpu_count()} cores shared with the clients and the database; DEBUG off, "
        f"CONN_MAX_AGE={args.conn_max_age}, cache {'Redis' if args.cache_url else 'per worker'}."
    )
    for run, goals in runs:
        print_run(run, goals, args.server)
    for push in pushes:
        print_push(push, args.server)
    if idle is not None:
        print_idle(idle, args.server)
    failures = errors_of(work)
    if failures:
        print("\nerrors:")
        for line in failures:
            print(f"  {line}")
    log = (work / "server.log").read_text()
    if "Traceback" in log:
        print(f"\n{args.server} logged {log.count('Traceback')} tracebacks: {work / 'server.log'}")
    if args.keep or failures or "Traceback" in log:
        print(f"\nCSV files and logs: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
