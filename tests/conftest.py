"""Shared actors: a club with a member, a scorer, a treasurer and an admin; another club."""

from __future__ import annotations

import os

import pytest
from celery._state import _set_task_join_will_block
from django.test import Client, RequestFactory
from django.utils import translation

import ledger
from club.models import Club, Role
from ledger.models import AuditRecord, Transaction
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


def _reads_the_database_settings(item: pytest.Item) -> bool:
    """A test that picks a database itself (a subprocess given ``DATABASE_URL``, a check of the
    engine in use) depends on the pass even without a database fixture."""
    source = getattr(getattr(item, "module", None), "__file__", None)
    if source is None:
        return False
    text = _module_text(source)
    return any(word in text for word in ("DATABASE_URL", "DATABASES", "connection.vendor"))


_TEXTS: dict[str, str] = {}


def _module_text(path: str) -> str:
    if path not in _TEXTS:
        with open(path, encoding="utf-8") as source:
            _TEXTS[path] = source.read()
    return _TEXTS[path]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The test command runs the suite twice (scripts/test.sh): ``PROTOKOLL_SUITE_PASS=1`` on
    SQLite, ``2`` on PostgreSQL. A test that touches no database (the rules engines, their
    simulators, pure helpers) gives the same answer on both, so it runs in the first pass only.
    A browser test drives the pages, which are the same on both; it runs in the second pass
    only, on the database production runs, against the threaded live server production's
    workers resemble. A test that reads the database settings itself (a subprocess given
    ``DATABASE_URL``, a check of the engine in use) runs in both, and so does every test that
    uses a database. Without ``PROTOKOLL_SUITE_PASS`` every collected test runs."""
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
    if _reads_the_database_settings(item):
        return True
    if suite_pass == "1":
        return item.get_closest_marker("browser") is None
    return _wrote_to_a_database(item)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """The books' invariant after every test that could write to them: the same checks as
    ``manage.py check_ledger`` (the audit chain, every balance against its entries and zero
    sums, each game's money and every pot and bet against the engines' replay, the evenings'
    pot moves against their rule), for every club, on SQLite and PostgreSQL alike. It runs as
    part of the test — right after its body, before any fixture is torn down (a toy game still
    registered, the test's settings still in force) — and fails it on any problem. A test that
    breaks the books on purpose says so with ``@pytest.mark.books_tampered``."""
    result = yield
    if _wrote_to_a_database(item) and not item.get_closest_marker("books_tampered"):
        problems = books_problems(by_hand=item.get_closest_marker("books_by_hand") is not None)
        assert not problems, "check_ledger after the test:\n" + "\n".join(problems)
    return result


def books_problems(*, by_hand: bool = False) -> list[str]:
    """``by_hand``: the test posted by hand what only a game or an evening posts (the ledger's
    own arithmetic, a statement's layout): the chain and the balances must still agree, the
    games' and evenings' checks are not asked."""
    if not (Transaction.objects.exists() or AuditRecord.objects.exists()):
        return []
    checks = (
        (lambda club: ledger.verify_audit(club) + ledger.verify_balances(club))
        if by_hand
        else ledger.verify_books
    )
    return [
        f"{club.slug}: {problem}"
        for club in Club.objects.order_by("pk")
        for problem in checks(club)
    ]


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
