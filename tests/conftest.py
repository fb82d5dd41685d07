"""Shared actors: a club with a member, a scorer, a treasurer and an admin; another club."""

from __future__ import annotations

import os

import pytest
from celery._state import _set_task_join_will_block
from django.test import Client, RequestFactory
from django.utils import translation

from club.models import Role
from tests.books import books_problems
from tests.factories import PASSWORD, make_club, make_member


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Real hashing costs a third of a second per login made; tests make hundreds.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def each_test_starts_in_the_default_language():
    """A request answered in English leaves English active in the worker's thread; the next
    test (on the same xdist worker) must not inherit it."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def celery_join_flag_reset():
    """Celery marks "inside a task" with one process-wide flag while an eager task runs
    (``denied_join_result``), and restores what it found. Two threads running eager tasks at
    once (the PostgreSQL race tests) can leave it set for good, and a later test's
    ``result.get()`` then refuses. Our code never waits on a result; the tests start clean."""
    yield
    _set_task_join_will_block(False)


@pytest.fixture(scope="session", autouse=True)
def delete_rather_than_truncate_between_transactional_tests():
    """On PostgreSQL a transactional test (a browser's live server, the race tests) ends with
    Django's flush: one ``TRUNCATE`` of every table, about half a second each time here, as
    PostgreSQL makes each table's files anew. A ``DELETE`` of the few rows such a test leaves
    takes milliseconds; the foreign keys are deferred to the flush's commit, so the order of the
    tables does not matter, and no table has a trigger. Only the suite's flush changes: with
    ``reset_sequences`` (which ``DELETE`` cannot do) Django's own ``TRUNCATE`` is kept."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        delete = style.SQL_KEYWORD("DELETE FROM")
        return [f"{delete} {style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    DatabaseOperations.sql_flush = sql_flush
    yield
    DatabaseOperations.sql_flush = truncate


_DB_FIXTURES = {
    "db",
    "transactional_db",
    "live_server",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
}


def _wrote_to_a_database(item: pytest.Item) -> bool:
    names = set(getattr(item, "fixturenames", ()))
    return bool(_DB_FIXTURES & names) or item.get_closest_marker("django_db") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Which test runs where. The test command runs the suite twice (scripts/test.sh):
    ``PROTOKOLL_SUITE_PASS=1`` on SQLite, then ``2`` on PostgreSQL. Each test runs where it
    catches something, by a rule read off the test itself, never off a list of names:

    - **PostgreSQL** (pass 2), what production runs, is the gate for every test that uses a
      database, for every browser test (the pages are the same on both; production's workers
      resemble the threaded live server) and for a test marked ``postgres``.
    - **SQLite** (pass 1), the embedded default of ``make run``, runs every test that uses no
      database (the engines, their simulators, pure helpers, the benchmarks' quick mode: they
      answer the same on both, so once is enough) and the database tests marked ``sqlite``:
      what the embedded default needs and what differs between the two databases — the
      migrations, the demo club and ``make run``'s path, every page once, the locking and
      transaction fallbacks, JSON and constraint behaviour, the whole evening, backups and
      archives. A module says so with ``pytestmark = pytest.mark.sqlite``.

    A test marked ``sqlite`` runs in both passes, one that uses no database fixture too (it may
    still read which database is configured: the backups' refusals). Without
    ``PROTOKOLL_SUITE_PASS`` every collected test runs (a developer's ``pytest tests/…`` on one
    database)."""
    lost = [item.nodeid for item in items if not any(_runs_in_pass(item, p) for p in "12")]
    if lost:
        raise pytest.UsageError("in neither pass of the test command: " + ", ".join(lost))
    suite_pass = os.environ.get("PROTOKOLL_SUITE_PASS")
    if suite_pass not in ("1", "2"):
        return
    kept, elsewhere = [], []
    for item in items:
        (kept if _runs_in_pass(item, suite_pass) else elsewhere).append(item)
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        items[:] = kept


def _runs_in_pass(item: pytest.Item, suite_pass: str) -> bool:
    postgres_only = any(item.get_closest_marker(name) for name in ("browser", "postgres"))
    if postgres_only:
        return suite_pass == "2"
    # Marked sqlite: on both, whatever its fixtures (a backup command's refusals read which
    # database is configured without using one).
    if item.get_closest_marker("sqlite") is not None:
        return True
    return _wrote_to_a_database(item) == (suite_pass == "2")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """The books' invariant after every test that uses a database: the same checks as
    ``manage.py check_ledger`` (the audit chain, every balance against its entries and zero
    sums, each game's money and every pot and bet against the engines' replay, the evenings'
    pot moves against their rule), for every club, on SQLite and PostgreSQL alike, as far as
    the rows in the database say the test can have changed them (``tests/books.py``: all of it
    once a money row exists). It runs as part of the test — right after its body, before any
    fixture is torn down (a toy game still registered, the test's settings still in force) —
    and fails it on any problem. A test that breaks the books on purpose says so with
    ``@pytest.mark.books_tampered``."""
    result = yield
    if _wrote_to_a_database(item) and not item.get_closest_marker("books_tampered"):
        problems = books_problems(by_hand=item.get_closest_marker("books_by_hand") is not None)
        assert not problems, "check_ledger after the test:\n" + "\n".join(problems)
    return result


@pytest.fixture
def in_english(settings):
    """Pages in English: for tests that read the engine's messages word for word (the UI is
    Swedish by default, and the messages are translated)."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def club(db):
    return make_club("Kortklubben Spader Kung")


@pytest.fixture
def other_club(db):
    return make_club("Klubben Bredvid")


@pytest.fixture
def member(club):
    return make_member(club, "Maja Medlem")


@pytest.fixture
def scorer(club):
    return make_member(club, "Sune Skrivare", roles=[Role.SCORER])


@pytest.fixture
def treasurer(club):
    return make_member(club, "Kerstin Kassör", roles=[Role.TREASURER])


@pytest.fixture
def admin_member(club):
    return make_member(club, "Arne Admin", roles=[Role.ADMIN])


@pytest.fixture
def outsider(other_club):
    return make_member(other_club, "Olle Utomstående", roles=[Role.ADMIN])


def client_for(member) -> Client:
    client = Client()
    # django-axes watches every authentication and needs the request it came with.
    request = RequestFactory().post("/login/")
    assert client.login(request=request, username=member.user.username, password=PASSWORD)
    return client


@pytest.fixture
def member_client(member):
    return client_for(member)


@pytest.fixture
def scorer_client(scorer):
    return client_for(scorer)


@pytest.fixture
def admin_client_(admin_member):
    return client_for(admin_member)


@pytest.fixture
def treasurer_client(treasurer):
    return client_for(treasurer)
