"""Every benchmark keeps running: each ``bench/bench_*.py`` in quick mode.

Speed is measured in the benchmarks (``make bench``), never asserted here; these tests only run
each one as ``make bench`` would, with ``PROTOKOLL_BENCH_QUICK=1`` (bench/_quick.py: the same
code paths, small sizes, a few seconds each), and check that it exits cleanly and prints its
figures. A new ``bench/bench_*.py`` is picked up by the glob.

The benchmarks that call ``bench_database()`` or ``postgres_url()`` (bench/_django.py) need
PostgreSQL: the server of
``PROTOKOLL_BENCH_DATABASE_URL`` (scripts/test.sh exports it), else of ``DATABASE_URL`` if
that is PostgreSQL; without one they are skipped. These tests use no database of the suite's,
so they run once, in the SQLite pass (tests/conftest.py), whatever database a benchmark uses.
In quick mode their databases are ``protokoll_bench_*_quick``, so a ``make bench`` running
beside the suite keeps its own. All of them run in one xdist group: two of them never drop
each other's database.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHES = sorted((ROOT / "bench").glob("bench_*.py"))
TIMEOUT_S = 300  # a hung benchmark fails the test instead of the whole run


def postgres_url() -> str | None:
    for name in ("PROTOKOLL_BENCH_DATABASE_URL", "DATABASE_URL"):
        url = os.environ.get(name, "")
        if url.startswith(("postgres://", "postgresql://")):
            return url
    return None


def test_every_benchmark_is_found():
    assert len(BENCHES) >= 5, BENCHES


@pytest.mark.slow
@pytest.mark.xdist_group("bench")
@pytest.mark.parametrize("bench", BENCHES, ids=lambda path: path.stem)
def test_benchmark_runs_in_quick_mode(bench: Path):
    env = os.environ | {"PYTHONPATH": str(ROOT), "PROTOKOLL_BENCH_QUICK": "1"}
    env.pop("DATABASE_URL", None)
    if any(call in bench.read_text() for call in ("bench_database(", "postgres_url(")):
        url = postgres_url()
        if url is None:
            pytest.skip(
                f"{bench.name} needs PostgreSQL: set PROTOKOLL_BENCH_DATABASE_URL "
                "(scripts/test.sh does) or run the suite with a PostgreSQL DATABASE_URL"
            )
        env["DATABASE_URL"] = url
    done = subprocess.run(
        [sys.executable, str(bench)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    output = f"--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}"
    assert done.returncode == 0, f"{bench.name} exited with {done.returncode}\n{output}"
    assert done.stdout.strip(), f"{bench.name} printed no figures\n{output}"
