#!/usr/bin/env bash
# The first command: set up, load the demo club, serve on http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
scripts/setup.sh
.venv/bin/python manage.py load_demo
say "serving on http://127.0.0.1:8000 (Ctrl-C stops)"
# uvicorn (ASGI, one process): the pages and their live stream (/live/) on one port, with push
# through this process's hub on SQLite; --reload restarts it when a Python file changes.
exec .venv/bin/uvicorn config.asgi:application --host 127.0.0.1 --port 8000 \
  --timeout-graceful-shutdown 3 --reload
