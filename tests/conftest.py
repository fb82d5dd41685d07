"""Shared actors: a club with a member, a scorer, a treasurer and an admin; another club."""

from __future__ import annotations

import pytest
from celery._state import _set_task_join_will_block
from django.test import Client, RequestFactory
from django.utils import translation

from club.models import Role
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
