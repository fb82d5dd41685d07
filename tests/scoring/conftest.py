"""The scoring tests' actors: a toy game, a table of three and an onlooker. Posting to a pad as
the phone does is in ``tests/scoring/pad.py``."""

from __future__ import annotations

import pytest

from engine import registry
from scoring import games
from tests.conftest import client_for
from tests.factories import make_member, make_table
from tests.scoring import toy_game


@pytest.fixture
def toy():
    """The toy game, registered next to the real ones through the public hooks (as
    ``docs/adding-a-game.md`` says a new game joins), with the generic pad."""
    info = registry.register(toy_game)
    games.register(games.Pad(toy_game.KEY))
    yield info
    games.unregister(toy_game.KEY)
    registry.unregister(toy_game.KEY)


@pytest.fixture
def players(club, scorer):
    """Three at the table: the scorer (s0), Bo Ek and Cilla Ros. Modules for other tables seat
    their own."""
    return make_table(club, scorer, 3)


@pytest.fixture
def viewer_client(club):
    """A plain member of the club who plays no part in the game: she may look, not record."""
    return client_for(make_member(club, "Vera Tittare"))
