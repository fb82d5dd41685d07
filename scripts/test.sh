#!/usr/bin/env bash
# The second command: set up, lint, check migrations, then the pytest suite in two passes — on
# SQLite and on PostgreSQL. PostgreSQL is the gate for every test that uses a database and every
# browser test; SQLite runs the tests that use none and the database tests marked `sqlite`
# (tests/conftest.py, pytest_collection_modifyitems, says which and why). Each pass ends with
# pytest's 25 slowest and its wall time, and the run with the whole time.
# Extra arguments go to pytest (e.g. scripts/test.sh -k ledger).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
scripts/setup.sh

[ -x /usr/bin/chromium ] || apt_install chromium
pg_url=$(scripts/ensure_postgres.sh)
# tests/test_bench.py runs every benchmark in quick mode on this server, on both passes.
export PROTOKOLL_BENCH_DATABASE_URL="$pg_url"

say "ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
say "makemigrations --check"
.venv/bin/python manage.py makemigrations --check --dry-run

workers=()
if [ "$(nproc)" -gt 1 ]; then workers=(-n "$(nproc)" --dist loadgroup); fi

started=$SECONDS
say "pytest on SQLite"
PROTOKOLL_SUITE_PASS=1 DATABASE_URL="sqlite:///$(pwd)/.test.sqlite3" \
  .venv/bin/python -m pytest "${workers[@]}" --durations=25 "$@"
sqlite_s=$((SECONDS - started))
say "pytest on PostgreSQL ($(echo "$pg_url" | sed 's#//[^@]*@#//#'))"
# The test databases are thrown away: their commits need not wait for the disk (libpq reads
# PGOPTIONS for every connection, the live servers' and the threads' too). Nothing else changes:
# each commit is still atomic and visible to the next connection at once.
PGOPTIONS="${PGOPTIONS:-} -c synchronous_commit=off" PROTOKOLL_SUITE_PASS=2 DATABASE_URL="$pg_url" .venv/bin/python -m pytest "${workers[@]}" --durations=25 "$@"
say "wall time: SQLite pass ${sqlite_s} s, PostgreSQL pass $((SECONDS - started - sqlite_s)) s, the whole command ${SECONDS} s (goal: at most 600 s from a fresh clone)"
