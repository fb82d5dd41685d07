"""Shared set-up for benchmarks that need Django and a database of their own.

``bench_database("protokoll_bench")`` drops and recreates that PostgreSQL database on the
server of ``DATABASE_URL`` (scripts/bench.sh sets it), points Django at it and migrates.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bench_database(name: str) -> None:
    url = os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    if not url.startswith(("postgres://", "postgresql://")):
        sys.exit("these benchmarks need PostgreSQL: set DATABASE_URL (make bench does)")
    import psycopg

    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(
        admin_url.replace("postgres://", "postgresql://", 1), autocommit=True
    ) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + f"/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "1"
    os.environ.setdefault("ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    """Wall times in milliseconds of ``runs`` calls."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def report(label: str, times_ms: list[float], extra: str = "") -> None:
    print(
        f"{label:<58} median {statistics.median(times_ms):8.2f} ms   "
        f"worst {max(times_ms):8.2f} ms   n={len(times_ms)} {extra}"
    )
