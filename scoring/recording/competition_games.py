"""A competition's game stored: tell ``competitions`` (issue 29) when a game at one of its
tables finishes or reopens, in the game's own transaction."""

from __future__ import annotations

from scoring.models import Game


def game_stored(game: Game, *, finished: bool, was_finished: bool) -> None:
    """Nothing yet: the tournament tables come with the competitions app's models."""
