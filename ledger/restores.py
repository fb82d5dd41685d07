"""Bringing a backup back (``manage.py restore``): into an empty database only.

A restore goes only into a database without any of the app's tables (an empty one), so that
nothing already there can mix with what the backup holds; ``manage.py restore`` then runs
``check_ledger`` on the result. The file says what it is by its first bytes (``kind_of``): a
pg_dump custom-format archive goes into PostgreSQL with pg_restore in one transaction, a SQLite
file into SQLite through the online backup API; anything else, a ``dumpdata`` file included,
is refused. The backups themselves, their names and the PostgreSQL programs are
``ledger.backups``'; a restore reports the migrations the restored database still lacks.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from ledger.backups import (
    BackupError,
    Progress,
    database_engine,
    find_pg_program,
    quiet,
    run_program,
    server_major,
)

_PG_MAGIC = b"PGDMP"
_SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True)
class Restored:
    path: Path
    seconds: float
    tables: int
    unapplied_migrations: list[str]


def kind_of(path: Path) -> str:
    """``postgresql`` or ``sqlite`` from the file's first bytes."""
    try:
        with path.open("rb") as file:
            head = file.read(len(_SQLITE_MAGIC))
    except FileNotFoundError:
        raise BackupError(f"no such file: {path}") from None
    except OSError as error:
        raise BackupError(f"cannot read {path}: {error}") from error
    if head.startswith(_PG_MAGIC):
        return "postgresql"
    if head == _SQLITE_MAGIC:
        return "sqlite"
    raise BackupError(
        f"{path} is not a backup: neither a pg_dump custom-format archive nor a SQLite "
        "database (a dumpdata JSON file is not a backup either: see README, Backups)"
    )


def our_tables(alias: str = "default") -> list[str]:
    """The app's tables (every installed model's, and the migrations record) that exist in
    the database."""
    ours = {model._meta.db_table for model in apps.get_models(include_auto_created=True)}
    ours.add("django_migrations")
    with connections[alias].cursor() as cursor:
        existing = connections[alias].introspection.table_names(cursor)
    return sorted(ours.intersection(existing))


def how_to_empty(alias: str = "default") -> str:
    db = connections[alias].settings_dict
    if connections[alias].vendor == "postgresql":
        return (
            f"create an empty database and point DATABASE_URL at it, e.g. "
            f"`createdb -h {db.get('HOST') or 'localhost'} -U {db.get('USER') or 'postgres'} "
            f"protokoll_restored` (or `dropdb` the old one first, if it is really to go)"
        )
    return (
        "point DATABASE_URL at a new file, e.g. DATABASE_URL=sqlite:////srv/protokoll/new.sqlite3"
    )


def restore(path: str | Path, *, progress: Progress = quiet, alias: str = "default") -> Restored:
    """Bring the backup at ``path`` back into the (empty) database of ``alias``."""
    path = Path(path)
    engine = database_engine(alias)
    kind = kind_of(path)
    if kind != engine:
        raise BackupError(
            f"{path} is a {_label(kind)} backup and the database is {_label(engine)}: restore it "
            f"into a {_label(kind)} database"
        )
    tables = our_tables(alias)
    if tables:
        raise BackupError(
            f"the database {connections[alias].settings_dict['NAME']} is not empty: it has "
            f"{len(tables)} of the app's tables ({', '.join(tables[:3])}, …). A restore goes "
            f"only into an empty database: {how_to_empty(alias)}."
        )
    started = time.monotonic()
    if engine == "postgresql":
        _pg_restore(path, alias, progress)
    else:
        _sqlite_restore(path, alias, progress)
    connection = connections[alias]
    connection.close()
    restored = our_tables(alias)
    if "django_migrations" not in restored:
        raise BackupError(f"{path} holds no Protokoll database (no django_migrations table)")
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    seconds = time.monotonic() - started
    progress(f"restored {len(restored)} tables from {path.name} in {seconds:.1f} s")
    return Restored(
        path=path,
        seconds=seconds,
        tables=len(restored),
        unapplied_migrations=[f"{m.app_label}.{m.name}" for m, _ in plan],
    )


def _label(engine: str) -> str:
    return {"postgresql": "PostgreSQL", "sqlite": "SQLite"}[engine]


def _sqlite_restore(path: Path, alias: str, progress: Progress) -> None:
    connection = connections[alias]
    progress(f"copying {path} into the SQLite database {connection.settings_dict['NAME']}")
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (result,) = source.execute("PRAGMA quick_check").fetchone()
        if result != "ok":
            raise BackupError(f"{path} is damaged: {result}")
        connection.ensure_connection()
        # The backup API replaces the target's pages as one write transaction.
        source.backup(connection.connection)
    except sqlite3.DatabaseError as error:
        raise BackupError(f"cannot restore {path}: {error}") from error
    finally:
        source.close()


def _pg_restore(path: Path, alias: str, progress: Progress) -> None:
    server = server_major(alias)
    pg_restore = find_pg_program("pg_restore", server)
    progress(
        f"restoring {path} into PostgreSQL database "
        f"{connections[alias].settings_dict['NAME']!r} with {pg_restore}"
    )
    # One transaction: a restore that fails half way leaves the database empty, not half
    # full. The objects belong to whoever restores (DATABASE_URL's user), not the roles of
    # the server the backup came from, which need not exist here.
    run_program(
        [
            pg_restore,
            "--single-transaction",
            "--exit-on-error",
            "--no-owner",
            "--no-privileges",
            f"--dbname={connections[alias].settings_dict['NAME']}",
            str(path),
        ],
        alias,
        "pg_restore",
    )
