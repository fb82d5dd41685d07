#!/usr/bin/env bash
# Print a DATABASE_URL for a PostgreSQL server the tests can use.
# DATABASE_URL if it is set to PostgreSQL; else 127.0.0.1:5432 as user postgres; if no server
# answers there, install Debian's postgresql, start a cluster and give postgres a password.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

answers() { .venv/bin/python - "$1" <<'PY' >/dev/null 2>&1
import sys, psycopg
psycopg.connect(sys.argv[1].replace("postgres://", "postgresql://", 1), connect_timeout=3).close()
PY
}

case "${DATABASE_URL:-}" in
  postgres://*|postgresql://*) echo "$DATABASE_URL"; exit 0 ;;
esac
default="postgresql://postgres@127.0.0.1:5432/protokoll"
if answers "${default%/protokoll}/postgres"; then echo "$default"; exit 0; fi
local_pw="postgresql://postgres:protokoll@127.0.0.1:5432/protokoll"
if answers "${local_pw%/protokoll}/postgres"; then echo "$local_pw"; exit 0; fi

say "no PostgreSQL answers on 127.0.0.1:5432: installing and starting one" >&2
command -v pg_ctlcluster >/dev/null 2>&1 || apt_install postgresql >&2
version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
if [ -z "$version" ]; then
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  pg_createcluster "$version" main >&2
fi
pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
for _ in $(seq 1 30); do
  su postgres -c "psql -qc \"ALTER USER postgres PASSWORD 'protokoll'\"" >/dev/null 2>&1 && break
  sleep 1
done
answers "${local_pw%/protokoll}/postgres" || { echo "PostgreSQL did not start" >&2; exit 1; }
echo "$local_pw"
