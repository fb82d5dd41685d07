"""The live tests' actors: the scoring tests' toy game (tests/scoring/conftest.py), at a table
of two."""

import pytest

from scoring import recording
from tests.scoring.conftest import toy  # noqa: F401 - a fixture, used by name


@pytest.fixture
def game(toy, club, scorer, member):  # noqa: F811 - the fixture imported above
    return recording.start_game(club, "toy", [scorer, member], scorer.user)
