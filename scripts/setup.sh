#!/usr/bin/env bash
# Set up everything the app needs on this machine, idempotently:
# a Python >= 3.12 virtualenv with the project installed, the npm packages copied into
# static/vendor, compiled translations and a migrated database. Safe to run again and again.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib.sh
. scripts/lib.sh

# WeasyPrint (the PDF statements) draws text with Pango; fonts-dejavu-core gives it å, ä, ö and −.
if ! ldconfig -p | grep -q 'libpangoft2-1.0.so.0' || ! fc-list 2>/dev/null | grep -qi dejavu; then
  apt_install libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fontconfig fonts-dejavu-core
fi

python=$(find_python)
if [ -x .venv/bin/python ] && ! .venv/bin/python -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
  say "the existing .venv is older than Python 3.12: rebuilding it"
  rm -rf .venv
fi
if [ ! -x .venv/bin/python ]; then
  say "creating .venv with $($python --version)"
  "$python" -m venv .venv
fi

stamp=.venv/.installed-$(hash_of pyproject.toml)
if [ ! -f "$stamp" ]; then
  say "installing Python packages (pyproject.toml)"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[dev]'
  rm -f .venv/.installed-*
  touch "$stamp"
fi

if ! command -v npm >/dev/null 2>&1; then
  apt_install nodejs npm
fi
npm_stamp=node_modules/.installed-$(hash_of package-lock.json)
if [ ! -f "$npm_stamp" ]; then
  say "installing front-end packages (package-lock.json)"
  npm ci --no-audit --no-fund --loglevel=error
  touch "$npm_stamp"
fi
mkdir -p static/vendor/workbox
cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
# The service worker's runtime (templates/pwa/sw.js loads it from here, never from a CDN).
# With their source maps: the files name them, and collectstatic's manifest storage (DEBUG off)
# refuses a file whose sourceMappingURL points nowhere.
cp node_modules/workbox-sw/build/workbox-sw.js node_modules/workbox-sw/build/workbox-sw.js.map \
  static/vendor/workbox/
for module in core routing strategies expiration cacheable-response; do
  for file in "node_modules/workbox-$module/build/workbox-$module.prod.js"{,.map}; do
    if [ -f "$file" ]; then cp "$file" static/vendor/workbox/; fi
  done
done

command -v msgfmt >/dev/null 2>&1 || apt_install gettext
.venv/bin/python manage.py compilemessages --ignore='.venv/*' --ignore='node_modules/*' -v 0
.venv/bin/python manage.py migrate --no-input -v 0
say "set-up done"
