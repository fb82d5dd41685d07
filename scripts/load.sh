#!/usr/bin/env bash
# A club evening under load (bench/load.py): uvicorn (or gunicorn) on PostgreSQL, driven by Locust
# and by phones that hold a live stream (bench/live_load.py); Redis as the shared cache when one
# answers on 127.0.0.1:6379 (its database 3 is emptied at the start).
# Arguments go to bench/load.py (--quick, --server, --push-tables, --idle, --workers, --help).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
scripts/setup.sh
.venv/bin/python -m pip install --quiet -e '.[dev,bench]'
DATABASE_URL=$(scripts/ensure_postgres.sh)
export DATABASE_URL PYTHONPATH=.
say "bench/load.py $*"
.venv/bin/python bench/load.py "$@"
