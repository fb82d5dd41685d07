#!/usr/bin/env bash
# The second command: set up, lint, check migrations, then the pytest suite in two passes — on
# SQLite and on PostgreSQL. Every test that uses a database runs in both; a test that touches
# none runs in the first, a browser test in the second (tests/conftest.py,
# pytest_collection_modifyitems). Extra arguments go to pytest (e.g. scripts/test.sh -k ledger).
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

say "pytest on SQLite"
PROTOKOLL_SUITE_PASS=1 DATABASE_URL="sqlite:///$(pwd)/.test.sqlite3" .venv/bin/python -m pytest "${workers[@]}" "$@"
say "pytest on PostgreSQL ($(echo "$pg_url" | sed 's#//[^@]*@#//#'))"
PROTOKOLL_SUITE_PASS=2 DATABASE_URL="$pg_url" .venv/bin/python -m pytest "${workers[@]}" "$@"
