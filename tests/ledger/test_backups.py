"""``manage.py backup`` and ``restore`` (``ledger.backups``): the round trip on the database the
suite runs on, verified in the restored database by a separate ``check_ledger`` process with the
head saved before the backup; the refusals and their plain messages; retention; the nightly
task. And why ``dumpdata``/``loaddata`` is not a backup."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from io import StringIO
from pathlib import Path
from urllib.parse import quote

import pytest
import time_machine
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

import ledger
from ledger import backups
from ledger.models import AccountKind, AuditRecord
from ledger.tasks import backup_task
from scoring import recording
from tests.factories import make_club, make_member

# Also on SQLite (tests/conftest.py): backups and restores of each database.
pytestmark = pytest.mark.sqlite

ROOT = Path(__file__).resolve().parents[2]
# What the round trip compares row for row between the database and its restored copy.
TABLES = (
    "club_member",
    "ledger_account",
    "ledger_transaction",
    "ledger_entry",
    "ledger_auditrecord",
    "scoring_game",
    "scoring_event",
)


def tap(game, event_type, **payload):
    game.refresh_from_db()
    recording.append_event(
        game, event_type, payload, expected_seq=game.seq, idempotency_key=uuid.uuid4().hex, by=None
    )


def make_books():
    """A club's books through the real paths: deposits, a transfer and a Kille game (a knock,
    two folds: the pot and the stakes move). The club's audit head after it all."""
    club = make_club("Kortklubben Hjärter Dam")
    people = [make_member(club, name, login=False) for name in ("Anna", "Bertil", "Cecilia")]
    cash = ledger.system_account(club, AccountKind.CASH)
    for person in people:
        ledger.post(
            club,
            ledger.legs_for_transfer(cash, ledger.member_account(person), 5000),
            "Insättning",
            "manual",
            None,
        )
    game = recording.start_game(club, "kille", people, None, setup={"pot_ore": 0})
    tap(game, "ante")
    tap(game, "knock", player="s1")
    tap(game, "fold", player="s2")
    tap(game, "fold", player="s0")
    assert ledger.verify_books(club) == []
    return club, ledger.audit_head(club).digest


def counts(cursor) -> dict[str, int]:
    found = {}
    for table in TABLES:
        cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608 - our own table names
        found[table] = cursor.fetchone()[0]
    return found


def manage(*args: str, database_url: str) -> subprocess.CompletedProcess:
    """``manage.py`` in a process of its own, on another database, with the suite's key."""
    env = {**os.environ, "DATABASE_URL": database_url, "AUDIT_KEY": settings.AUDIT_KEY}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def backup_into(directory: Path, **options) -> Path:
    call_command("backup", directory=str(directory), stdout=StringIO(), **options)
    (path,) = backups.backups_in(directory)[-1:]
    return path


def sqlite_only():
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite round trip")


def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL round trip")


def assert_restored_and_verified(path: Path, url: str, head: str):
    restored = manage("restore", str(path), "--expect", head, database_url=url)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert "the books, the audit trail and the games agree" in restored.stdout
    assert "the expected head is record" in restored.stdout
    # And once more by the command a treasurer runs, in a process of its own.
    checked = manage("check_ledger", "--expect", head, database_url=url)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"audit head {head}" in checked.stdout
    assert "still the newest" in checked.stdout


# --- the round trip -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_sqlite_backup_restores_into_a_new_file_with_the_books_verified(tmp_path):
    sqlite_only()
    _, head = make_books()
    with connection.cursor() as cursor:
        before = counts(cursor)
    path = backup_into(tmp_path / "backups")
    assert path.name.startswith("protokoll-")
    assert path.suffix == ".sqlite3"

    target = tmp_path / "restored.sqlite3"
    assert_restored_and_verified(path, f"sqlite:///{target}", head)
    with sqlite3.connect(target) as copy:
        assert counts(copy.cursor()) == before
        (digest,) = copy.execute(
            "SELECT digest FROM ledger_auditrecord ORDER BY id DESC LIMIT 1"
        ).fetchone()
    assert digest == head


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_postgresql_backup_restores_into_a_new_database_with_the_books_verified(tmp_path):
    postgres_only()
    import psycopg

    _, head = make_books()
    with connection.cursor() as cursor:
        before = counts(cursor)
    path = backup_into(tmp_path / "backups")
    assert path.name.startswith("protokoll-")
    assert path.suffix == ".dump"
    assert path.read_bytes().startswith(b"PGDMP")

    db = connection.settings_dict
    name = f"{db['NAME']}_restored_{uuid.uuid4().hex[:8]}"
    auth = quote(db["USER"] or "postgres") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    server = f"postgresql://{auth}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        assert_restored_and_verified(path, f"{server}/{name}", head)
        with psycopg.connect(f"{server}/{name}") as copy:
            assert counts(copy.cursor()) == before
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.django_db(transaction=True)
def test_a_backup_that_lost_its_newest_records_fails_the_restore(tmp_path):
    """The restore checks what it brought back: a copy missing the newest transaction and its
    audit record verifies as a chain, but the head saved before it is not found."""
    sqlite_only()
    _, head = make_books()
    path = backup_into(tmp_path / "backups")
    with sqlite3.connect(path) as copy:
        (newest,) = copy.execute("SELECT max(id) FROM ledger_auditrecord").fetchone()
        (tx,) = copy.execute(
            "SELECT transaction_id FROM ledger_auditrecord WHERE id = ?", (newest,)
        ).fetchone()
        copy.execute("DELETE FROM ledger_auditrecord WHERE id = ?", (newest,))
        copy.execute("UPDATE scoring_event SET money_id = NULL WHERE money_id = ?", (tx,))
        copy.execute("DELETE FROM ledger_entry WHERE transaction_id = ?", (tx,))
        copy.execute("DELETE FROM ledger_transaction WHERE id = ?", (tx,))

    restored = manage(
        "restore", str(path), "--expect", head, database_url=f"sqlite:///{tmp_path / 'r.sqlite3'}"
    )
    assert restored.returncode != 0
    assert "the expected head is not in the audit trail" in restored.stderr
    assert "Traceback" not in restored.stderr


# --- refusals, in words -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_database_that_has_the_apps_tables(tmp_path):
    make_club()
    path = backup_into(tmp_path)
    with pytest.raises(CommandError, match="is not empty") as refused:
        call_command("restore", str(path))
    assert "empty database" in str(refused.value)
    assert ("createdb" if connection.vendor == "postgresql" else "new file") in str(refused.value)


def test_restore_says_when_the_file_is_missing(tmp_path):
    with pytest.raises(CommandError, match="no such file"):
        call_command("restore", str(tmp_path / "protokoll-20260101T000000Z.dump"))


def test_restore_says_a_dumpdata_file_is_not_a_backup(tmp_path):
    dumped = tmp_path / "books.json"
    dumped.write_text('[{"model": "club.club", "pk": 1, "fields": {}}]')
    with pytest.raises(CommandError, match="is not a backup"):
        call_command("restore", str(dumped))


def test_restore_says_a_backup_of_the_other_database_goes_elsewhere(tmp_path):
    other = tmp_path / "protokoll-20260101T000000Z.other"
    if connection.vendor == "postgresql":
        other.write_bytes(b"SQLite format 3\x00" + bytes(100))
        expected = "is a SQLite backup and the database is PostgreSQL"
    else:
        other.write_bytes(b"PGDMP" + bytes(100))
        expected = "is a PostgreSQL backup and the database is SQLite"
    with pytest.raises(CommandError, match=expected):
        call_command("restore", str(other))


def test_backup_says_when_there_is_nowhere_to_write(settings):
    settings.BACKUP_DIR = ""
    with pytest.raises(CommandError, match="set BACKUP_DIR or pass --dir"):
        call_command("backup")


def fake_program(directory: Path, version: str) -> Path:
    program = directory / version.split(".")[0] / "bin" / "pg_dump"
    program.parent.mkdir(parents=True)
    program.write_text(f"#!/bin/sh\necho 'pg_dump (PostgreSQL) {version}'\n")
    program.chmod(0o755)
    return program


def test_the_newest_pg_dump_at_least_the_servers_version_is_chosen(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", "")
    fake_program(tmp_path, "14.9")
    seventeen = fake_program(tmp_path, "17.2")
    fake_program(tmp_path, "16.4")
    assert backups.find_pg_program("pg_dump", 15, search=tmp_path) == str(seventeen)


def test_a_pg_dump_older_than_the_server_or_none_is_said_plainly(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", "")
    with pytest.raises(backups.BackupError, match="pg_dump is not installed"):
        backups.find_pg_program("pg_dump", 16, search=tmp_path)
    fake_program(tmp_path, "15.2")
    with pytest.raises(backups.BackupError, match="older than the PostgreSQL server \\(16\\)"):
        backups.find_pg_program("pg_dump", 16, search=tmp_path)


# --- the files ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_only_the_newest_backups_are_kept_and_other_files_are_left_alone(tmp_path):
    make_club()
    (tmp_path / "notes.txt").write_text("the board's minutes")
    start = datetime(2026, 5, 19, 3, 10, tzinfo=UTC)
    for night in range(4):
        with time_machine.travel(start + timedelta(days=night), tick=False):
            backup_into(tmp_path, keep=2)
    with time_machine.travel(start + timedelta(days=3), tick=False):
        backup_into(tmp_path, keep=3)  # the same second as the last: a name of its own
    suffix = backups.SUFFIXES[connection.vendor]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [
            f"protokoll-20260521T031000Z{suffix}",
            f"protokoll-20260522T031000Z{suffix}",
            f"protokoll-20260522T031000Z-2{suffix}",
            "notes.txt",
        ]
    )
    assert backups.backups_in(tmp_path)[-1].name == f"protokoll-20260522T031000Z-2{suffix}"
    assert (tmp_path / f"protokoll-20260522T031000Z{suffix}").stat().st_mode & 0o077 == 0


def test_a_backup_inside_a_transaction_is_refused(db, tmp_path):
    with pytest.raises(CommandError, match="inside a database transaction"):
        call_command("backup", directory=str(tmp_path))


@pytest.mark.django_db(transaction=True)
def test_a_backup_that_fails_half_way_leaves_no_file(tmp_path, monkeypatch):
    def half_and_fail(target, alias, progress):
        Path(target).write_bytes(b"PGDMP half a dump")
        raise backups.BackupError("pg_dump failed (exit 1):\nconnection lost")

    monkeypatch.setattr(backups, "_pg_dump", half_and_fail)
    monkeypatch.setattr(backups, "_sqlite_backup", half_and_fail)
    with pytest.raises(CommandError, match="connection lost"):
        call_command("backup", directory=str(tmp_path))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db(transaction=True)
def test_the_nightly_task_backs_up_only_when_backup_dir_is_set(tmp_path, settings):
    make_club()
    settings.BACKUP_DIR = ""
    assert backup_task() == {"skipped": "BACKUP_DIR is not set"}
    settings.BACKUP_DIR = str(tmp_path)
    settings.BACKUP_KEEP = 1
    done = backup_task()
    (path,) = backups.backups_in(tmp_path)
    assert done == {"path": str(path), "bytes": path.stat().st_size, "removed": 0}


# --- what is not a backup -----------------------------------------------------------------


@pytest.mark.books_tampered
@pytest.mark.django_db(transaction=True)
def test_dumpdata_and_loaddata_break_every_seal(tmp_path):
    """Why the README says dumpdata is not a backup: its JSON keeps milliseconds, the seals
    were computed over microseconds."""
    club, _ = make_books()
    records = AuditRecord.objects.filter(club=club).count()
    dumped = tmp_path / "books.json"
    call_command(
        "dumpdata",
        "--natural-foreign",
        "--natural-primary",
        exclude=["contenttypes", "auth.permission"],
        output=str(dumped),
        verbosity=0,
    )
    call_command("flush", interactive=False, verbosity=0)
    call_command("loaddata", str(dumped), verbosity=0)
    problems = ledger.verify_books(club)
    assert sum("seal" in problem or "changed" in problem for problem in problems) >= records
