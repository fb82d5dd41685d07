"""Backups of the whole database (``manage.py backup``, and nightly by the beat), and the
PostgreSQL client programs they and a restore (``ledger.restores``) run.

A backup is the database's own copy, never a re-serialisation of its rows: on PostgreSQL
``pg_dump --format=custom`` (one snapshot, taken in a single repeatable-read transaction while
the app keeps running), on SQLite the online backup API (``sqlite3.Connection.backup``, all
pages in one step under a read lock). Both keep every value exactly as stored, which is what
the audit chain's seals are computed over. ``dumpdata``/``loaddata`` is not a backup: its JSON
cuts every timestamp to milliseconds, so every record sealed over a microsecond time no longer
matches its seal (README, "Backups").

A backup is written under a hidden temporary name in the backup directory and linked to its
real name, ``protokoll-<UTC time>.dump`` or ``.sqlite3``, only when complete: a crash leaves no
half file under a real name, and linking never replaces an existing backup. Then only the
newest ``keep`` backups stay; files of other names in the directory are never touched.

pg_dump and pg_restore are found by version (``find_pg_program``: at least the server's) and
given the connection in libpq's environment, so the password is not in ``ps``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.utils import timezone

log = logging.getLogger("protokoll.backup")

PREFIX = "protokoll-"
SUFFIXES = {"postgresql": ".dump", "sqlite": ".sqlite3"}
# protokoll-20260519T031000Z.dump, and -2, -3 … for a second backup within the same second.
_NAME = re.compile(r"protokoll-(\d{8}T\d{6}Z)(?:-(\d+))?\.(dump|sqlite3)")
_PG_BINARIES = Path("/usr/lib/postgresql")

Progress = Callable[[str], None]


class BackupError(Exception):
    """Something an administrator can fix (a missing program, file or directory, a database
    that is not empty): the commands print it without a traceback."""


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int
    seconds: float
    removed: list[Path] = field(default_factory=list)


def quiet(message: str) -> None:
    pass


def setting_dir() -> str:
    return str(getattr(settings, "BACKUP_DIR", "") or "")


def setting_keep() -> int:
    return int(getattr(settings, "BACKUP_KEEP", 14))


def database_engine(alias: str = "default") -> str:
    vendor = connections[alias].vendor
    if vendor not in SUFFIXES:
        raise BackupError(f"backups of a {vendor} database are not supported")
    return vendor


# --- backing up ---------------------------------------------------------------------------


def backup(
    directory: str | Path | None = None,
    keep: int | None = None,
    *,
    progress: Progress = quiet,
    alias: str = "default",
) -> Backup:
    """Write a consistent copy of the database into ``directory`` (``BACKUP_DIR``), then keep
    only the newest ``keep`` backups there (``BACKUP_KEEP``, 14)."""
    directory = Path(directory or setting_dir())
    if not str(directory) or str(directory) == ".":
        raise BackupError("no backup directory: set BACKUP_DIR or pass --dir")
    keep = setting_keep() if keep is None else keep
    if keep < 1:
        raise BackupError(f"keep must be at least 1 (got {keep})")
    engine = database_engine(alias)
    if connections[alias].in_atomic_block:
        # pg_dump would not see what this transaction wrote, and SQLite's backup would wait
        # for it to end.
        raise BackupError("a backup cannot be made inside a database transaction")
    try:
        # Owner only: a backup holds every member's name and every login's password hash.
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as error:
        raise BackupError(f"cannot create the backup directory {directory}: {error}") from error
    started = time.monotonic()
    stamp = timezone.now().strftime("%Y%m%dT%H%M%SZ")
    suffix = SUFFIXES[engine]
    temporary = directory / f".{PREFIX}{stamp}{suffix}.{os.getpid()}.partial"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as error:
        raise BackupError(f"cannot write into {directory}: {error}") from error
    os.close(fd)
    try:
        if engine == "postgresql":
            _pg_dump(temporary, alias, progress)
        else:
            _sqlite_backup(temporary, alias, progress)
        _fsync(temporary)
        path = _claim_name(temporary, directory, stamp, suffix)
    finally:
        temporary.unlink(missing_ok=True)
    _fsync(directory)
    size = path.stat().st_size
    seconds = time.monotonic() - started
    progress(f"wrote {path} ({_human(size)}) in {seconds:.1f} s")
    removed = prune(directory, keep)
    for old in removed:
        progress(f"removed {old.name} (keeping the newest {keep})")
    log.info("backup %s: %d bytes in %.1f s", path, size, seconds)
    return Backup(path=path, size=size, seconds=seconds, removed=removed)


def _claim_name(temporary: Path, directory: Path, stamp: str, suffix: str) -> Path:
    """Link the finished copy to its real name; a name taken (a backup a second ago) gets the
    next number, never replaced."""
    for n in range(1, 1000):
        path = directory / f"{PREFIX}{stamp}{'' if n == 1 else f'-{n}'}{suffix}"
        try:
            os.link(temporary, path)
        except FileExistsError:
            continue
        return path
    raise BackupError(f"too many backups named {PREFIX}{stamp}* in {directory}")


def backups_in(directory: str | Path) -> list[Path]:
    """The backups in ``directory``, oldest first (by the time in their names)."""
    found = []
    for path in Path(directory).iterdir():
        match = _NAME.fullmatch(path.name)
        if match and path.is_file():
            found.append(((match[1], int(match[2] or 1)), path))
    return [path for _, path in sorted(found)]


def prune(directory: str | Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups in ``directory``; the deleted ones."""
    old = backups_in(directory)[:-keep]
    for path in old:
        path.unlink(missing_ok=True)
    return old


def _sqlite_backup(target: Path, alias: str, progress: Progress) -> None:
    connection = connections[alias]
    progress(f"copying the SQLite database {connection.settings_dict['NAME']} (online backup)")
    connection.ensure_connection()
    copy = sqlite3.connect(target)
    try:
        # pages=0: every page in one step, under one read lock: a consistent copy even while
        # the app writes (writers wait for the step, as for any reader).
        connection.connection.backup(copy)
        (result,) = copy.execute("PRAGMA quick_check").fetchone()
        if result != "ok":
            raise BackupError(f"the copy does not check out: {result}")
    finally:
        copy.close()


def _pg_dump(target: Path, alias: str, progress: Progress) -> None:
    connection = connections[alias]
    server = server_major(alias)
    pg_dump = find_pg_program("pg_dump", server)
    progress(
        f"dumping PostgreSQL database {connection.settings_dict['NAME']!r} "
        f"(server {server}) with {pg_dump}"
    )
    run_program([pg_dump, "--format=custom", "--compress=6", f"--file={target}"], alias, "pg_dump")


# --- PostgreSQL's programs ----------------------------------------------------------------


def server_major(alias: str) -> int:
    connection = connections[alias]
    connection.ensure_connection()
    return connection.pg_version // 10000


def _major_of(program: str) -> int | None:
    try:
        out = subprocess.run(
            [program, "--version"], capture_output=True, text=True, timeout=30, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r"\) (\d+)", out) or re.search(r"(\d+)\.\d+", out)
    return int(match[1]) if match else None


def find_pg_program(name: str, server: int, *, search: Path = _PG_BINARIES) -> str:
    """The newest ``name`` (pg_dump, pg_restore) that is at least the server's major version:
    pg_dump refuses a newer server, and pg_restore must read what that pg_dump wrote. Looks on
    PATH and in Debian's /usr/lib/postgresql/<version>/bin."""
    candidates = [str(p) for p in search.glob(f"*/bin/{name}")] if search.is_dir() else []
    on_path = shutil.which(name)
    if on_path:
        candidates.append(on_path)
    versions = {c: v for c in candidates if (v := _major_of(c)) is not None}
    usable = [c for c, v in versions.items() if v >= server]
    if usable:
        return max(usable, key=lambda c: versions[c])
    if versions:
        found = ", ".join(f"{c} ({v})" for c, v in sorted(versions.items()))
        raise BackupError(
            f"{name} is older than the PostgreSQL server ({server}): found {found}; install "
            f"postgresql-client-{server} (Debian: apt-get install postgresql-client-{server})"
        )
    raise BackupError(
        f"{name} is not installed: install PostgreSQL's client programs "
        f"(Debian: apt-get install postgresql-client-{server})"
    )


def _pg_environment(alias: str) -> dict[str, str]:
    """Where and as whom, for libpq: in the environment, so the password is not in ``ps``."""
    db = connections[alias].settings_dict
    env = dict(os.environ)
    for key, variable in (
        ("NAME", "PGDATABASE"),
        ("HOST", "PGHOST"),
        ("PORT", "PGPORT"),
        ("USER", "PGUSER"),
        ("PASSWORD", "PGPASSWORD"),
    ):
        if db.get(key):
            env[variable] = str(db[key])
    options = db.get("OPTIONS") or {}
    for key, variable in (
        ("sslmode", "PGSSLMODE"),
        ("sslrootcert", "PGSSLROOTCERT"),
        ("sslcert", "PGSSLCERT"),
        ("sslkey", "PGSSLKEY"),
    ):
        if options.get(key):
            env[variable] = str(options[key])
    return env


def run_program(command: list[str], alias: str, name: str) -> None:
    try:
        done = subprocess.run(
            command, env=_pg_environment(alias), capture_output=True, text=True, check=False
        )
    except OSError as error:
        raise BackupError(f"cannot run {command[0]}: {error}") from error
    if done.returncode:
        raise BackupError(f"{name} failed (exit {done.returncode}):\n{done.stderr.strip()}")


# --- small things -------------------------------------------------------------------------


def _fsync(path: Path) -> None:
    # The copy is on disk before it gets its real name, and the name before we say so.
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _human(size: int) -> str:
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} kB"
    return f"{size / 1024 / 1024:.1f} MB"
