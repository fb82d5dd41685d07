"""Shared set-up for benchmarks that need Django and a database of their own.

``bench_database("protokoll_bench")`` drops and recreates that PostgreSQL database on the
server of ``DATABASE_URL`` (scripts/bench.sh sets it), points Django at it and migrates.

In quick mode (``PROTOKOLL_BENCH_QUICK=1``, bench/_quick.py) the database is ``<name>_quick``,
so a quick run (the test suite's) never drops the database of a full run going on beside it;
and it is copied from a migrated template, ``protokoll_bench_quick_template``, labelled with a
fingerprint of the migration files (a fresh migrate costs seconds, a copy a fraction of one). A
template that is missing or stale is made again from the first database migrated in full; if
the copy fails for any reason the database is made and migrated as in a full run.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _quick import QUICK, repeats  # noqa: E402

QUICK_TEMPLATE = "protokoll_bench_quick_template"


def postgres_url(who: str = "these benchmarks") -> str:
    """``DATABASE_URL`` if it names a PostgreSQL server (by default the local one); on SQLite the
    benchmark stops with a message saying so."""
    url = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit(
            f"{who} needs PostgreSQL, not {url.split(':', 1)[0]}: set DATABASE_URL to a "
            "PostgreSQL server (make bench does)"
        )
    return url


def bench_database(name: str) -> None:
    if QUICK:
        name = f"{name}_quick"
    url = postgres_url()
    import psycopg

    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    admin_url = admin_url.replace("postgres://", "postgresql://", 1)
    copied = False
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if QUICK and _template_label(conn) == _migrations_fingerprint():
            try:
                conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{QUICK_TEMPLATE}"')
                copied = True
            except psycopg.Error:  # another run is making the template again
                pass
        if not copied:
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + f"/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "1"
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if QUICK and not copied:
        _save_template(admin_url, name)


def _migrations_fingerprint() -> str:
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _template_label(conn) -> str | None:
    row = conn.execute(
        "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
        [QUICK_TEMPLATE],
    ).fetchone()
    return row[0] if row else None


def _save_template(admin_url: str, migrated: str) -> None:
    """``migrated``, just migrated and still empty, becomes the quick runs' template (best
    effort: if another run is doing the same, the next quick run tries again)."""
    import psycopg
    from django.db import connections

    connections.close_all()  # a database is copied only with no one connected to it
    try:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{QUICK_TEMPLATE}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{QUICK_TEMPLATE}" TEMPLATE "{migrated}"')
            conn.execute(
                f"COMMENT ON DATABASE \"{QUICK_TEMPLATE}\" IS '{_migrations_fingerprint()}'"
            )
    except psycopg.Error as error:
        print(f"(quick mode: no template database this time: {error})", file=sys.stderr)


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    """Wall times in milliseconds of ``runs`` calls (at most 3 in quick mode)."""
    times = []
    for _ in range(repeats(runs)):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(label: str, times_ms: list[float], extra: str = "") -> None:
    print(
        f"{label:<58} median {statistics.median(times_ms):8.2f} ms   "
        f"worst {max(times_ms):8.2f} ms   n={len(times_ms)} {extra}"
    )
