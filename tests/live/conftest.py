"""The live tests' actors: the scoring tests' toy game (tests/scoring/conftest.py)."""

from tests.scoring.conftest import toy  # noqa: F401 - a fixture, used by name
