"""The demo club, recorded once per test process and copied into every test that asks for it.

Recording the demo (``club.demo.load_demo`` and ``scoring.demo.record_evenings``: three evenings
of every game through the real recording path, the league's results delivered) takes 15–30 s.
Many tests want the same club; recording it in each was a large part of the suite's time.
``demo_club()`` records it the first time a process asks — inside a savepoint that is then
rolled back, with the after-commit work (the league) run as ``make run`` runs it — and keeps a
copy of every row it wrote, table by table. Each call then writes those rows back as they were:
a binary-exact ``COPY`` on PostgreSQL, the same values on SQLite, the sequences moved past them.
The copy is data, not a rerun, so the audit chain, the snapshots and the league tables are the
recording's own (``tests/scoring/test_demo.py`` checks what the recording gives, and the books'
check after each test checks the copy).

``demo_members()`` is the same for the demo club's twelve members and logins alone
(``club.demo.load_demo``, no evenings): what the browser tests start from.

The rows keep their ids, so the demo must be the first thing a test writes: both refuse a
database that already holds a club or a login.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.db import connection, models, transaction
from django.test import TestCase

from club.demo import DEMO_CLUB_SLUG, DEMO_USERNAME, load_demo
from club.models import Club, User


@dataclass(frozen=True)
class _Table:
    name: str
    pk: str
    columns: tuple[str, ...]


@dataclass
class _Copy:
    vendor: str
    tables: list[tuple[_Table, object]]  # the table, its rows (PostgreSQL: COPY text)


_COPIES: dict[str, _Copy] = {}  # by what was recorded: "members" or "evenings"


class _Discard(Exception):
    """Raised to roll back the recording once its rows are copied."""


def demo_club() -> Club:
    """The demo club, as ``manage.py load_demo`` leaves it, in this test's database."""
    return _demo("evenings")


def demo_members() -> Club:
    """The demo club's members and logins only, as ``club.demo.load_demo`` leaves them."""
    return _demo("members")


def _demo(what: str) -> Club:
    if Club.objects.exists() or User.objects.exists():
        raise RuntimeError("the demo must come first: the database already holds people")
    copy = _COPIES.get(what)
    if copy is None or copy.vendor != connection.vendor:
        copy = _COPIES[what] = _record(evenings=what == "evenings")
    _write_back(copy)
    return Club.objects.get(slug=DEMO_CLUB_SLUG)


def demo_user() -> User:
    return User.objects.get(username=DEMO_USERNAME)


def _tables() -> list[_Table]:
    tables = []
    seen = set()
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        if meta.proxy or not meta.managed or meta.db_table in seen:
            continue
        seen.add(meta.db_table)
        columns = tuple(field.column for field in meta.local_concrete_fields)
        tables.append(_Table(meta.db_table, meta.pk.column, columns))
    return tables


def _integer_pk(table: _Table) -> bool:
    model = next(
        m for m in apps.get_models(include_auto_created=True) if m._meta.db_table == table.name
    )
    pk = model._meta.pk
    while isinstance(pk, models.ForeignKey | models.OneToOneField):
        pk = pk.target_field
    return isinstance(pk, models.AutoField | models.BigAutoField | models.IntegerField)


def _record(*, evenings: bool) -> _Copy:
    from scoring.demo import record_evenings

    tables = [t for t in _tables() if _integer_pk(t)]
    before = {t.name: _max_pk(t) for t in tables}
    copy = _Copy(connection.vendor, [])
    try:
        with transaction.atomic():
            with TestCase.captureOnCommitCallbacks(execute=True):
                club = load_demo()
                if evenings:
                    record_evenings(club, demo_user())
            for table in tables:
                rows = _rows_after(table, before[table.name])
                if rows:
                    copy.tables.append((table, rows))
            raise _Discard
    except _Discard:
        pass
    return copy


def _quoted(name: str) -> str:
    return connection.ops.quote_name(name)


def _max_pk(table: _Table) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT MAX({_quoted(table.pk)}) FROM {_quoted(table.name)}")
        return cursor.fetchone()[0] or 0


def _select(table: _Table, after: int) -> str:
    columns = ", ".join(_quoted(c) for c in table.columns)
    return (
        f"SELECT {columns} FROM {_quoted(table.name)} WHERE {_quoted(table.pk)} > {int(after)} "
        f"ORDER BY {_quoted(table.pk)}"
    )


def _rows_after(table: _Table, after: int):
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.copy(f"COPY ({_select(table, after)}) TO STDOUT") as copy:
                data = b"".join(bytes(block) for block in copy)
            return data or None
        cursor.execute(_select(table, after))
        return cursor.fetchall()


def _write_back(copy: _Copy) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        for table, rows in copy.tables:
            columns = ", ".join(_quoted(c) for c in table.columns)
            if copy.vendor == "postgresql":
                with cursor.copy(f"COPY {_quoted(table.name)} ({columns}) FROM STDIN") as out:
                    out.write(rows)
                pk, name = _quoted(table.pk), _quoted(table.name)
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence(%s, %s), MAX({pk})) FROM {name} "
                    "HAVING pg_get_serial_sequence(%s, %s) IS NOT NULL",
                    [table.name, table.pk, table.name, table.pk],
                )
            else:
                marks = ", ".join("%s" for _ in table.columns)
                cursor.executemany(
                    f"INSERT INTO {_quoted(table.name)} ({columns}) VALUES ({marks})", rows
                )
