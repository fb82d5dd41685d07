"""A game's special hands stored: pay the club's prizes for the hands the state holds, once,
in the game's own transaction (``honours``, issue 29)."""

from __future__ import annotations

from typing import Any

from scoring.models import Game


def game_stored(game: Game, state: Any) -> None:
    """Nothing yet: the engines' honours come with the honours app."""
