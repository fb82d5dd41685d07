#!/usr/bin/env bash
# A club evening under load (bench/load.py): gunicorn on PostgreSQL, driven by Locust.
# Arguments go to bench/load.py (--quick, --duration, --workers, --locust-processes, --help).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
scripts/setup.sh
.venv/bin/python -m pip install --quiet -e '.[dev,bench]'
DATABASE_URL=$(scripts/ensure_postgres.sh)
export DATABASE_URL PYTHONPATH=.
say "bench/load.py $*"
.venv/bin/python bench/load.py "$@"
