"""The scoring tests' actors: a toy game, a table of three and an onlooker. Posting to a pad as
the phone does is in ``tests/scoring/pad.py``."""

from __future__ import annotations

import pytest

from engine import registry
from tests.conftest import client_for
from tests.factories import make_member, make_table
from tests.scoring import toy_game


@pytest.fixture
def toy(monkeypatch):
    """Register the toy game next to the real ones."""
    real_get = registry.get
    info = registry.GameInfo("toy", toy_game, toy_game.NAMES, 2, 4)
    monkeypatch.setattr(registry, "get", lambda key: info if key == "toy" else real_get(key))
    return info


@pytest.fixture
def players(club, scorer):
    """Three at the table: the scorer (s0), Bo Ek and Cilla Ros. Modules for other tables seat
    their own."""
    return make_table(club, scorer, 3)


@pytest.fixture
def viewer_client(club):
    """A plain member of the club who plays no part in the game: she may look, not record."""
    return client_for(make_member(club, "Vera Tittare"))
