#!/usr/bin/env bash
# The first command: set up, load the demo club, serve on http://127.0.0.1:8000.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
scripts/setup.sh
.venv/bin/python manage.py load_demo
say "serving on http://127.0.0.1:8000 (Ctrl-C stops)"
exec .venv/bin/python manage.py runserver 127.0.0.1:8000
