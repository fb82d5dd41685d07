#!/usr/bin/env bash
# Run every benchmark in bench/ and print its figures. PostgreSQL benchmarks use
# scripts/ensure_postgres.sh's database.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
scripts/setup.sh
.venv/bin/python -m pip install --quiet -e '.[dev,bench]'
DATABASE_URL=$(scripts/ensure_postgres.sh)
export DATABASE_URL PYTHONPATH=.
for bench in bench/bench_*.py; do
  say "$bench"
  .venv/bin/python "$bench"
done
