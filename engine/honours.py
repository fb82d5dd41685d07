"""The famous hands a club may name for a prize (issue 29): what the engines detect from what is
recorded, and which hands cannot happen at all.

- ``Honour``: one special hand in a game: the player (seat key), the kind, the deal number in
  the game (1, 2, …) and a detail (the cards when they were given). An engine's
  ``State.honours`` holds every honour of the game so far; replay rebuilds it, so an undo takes
  the hand away.
- Each game declares its own, in its own module (one plug-in per game): ``PRIZE_HANDS``, the kinds a
  club can choose (``HonourKind``: key, game, name marked for translation), and
  ``IMPOSSIBLE_PRIZE_HAND``, a hand a club might ask for that no table of that game can produce,
  with the reason (Kille's three of a kind: ``engine.kille``). ``kinds()`` and ``impossible()``
  gather them from the registered games.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.errors import Text


@dataclass(frozen=True)
class Honour:
    """A special hand: ``player`` (seat key) held ``kind`` in deal ``deal`` (1, 2, …)."""

    player: str
    kind: str
    deal: int
    detail: str = ""


@dataclass(frozen=True)
class HonourKind:
    key: str
    game_key: str
    name: Text


@cache
def kinds() -> dict[str, HonourKind]:
    """Every kind a club can choose, by key, from the games' ``PRIZE_HANDS``."""
    from engine import registry  # the games import this module: gathered on first use

    return {
        kind.key: kind
        for info in registry.all_games()
        for kind in getattr(info.module, "PRIZE_HANDS", ())
    }


@cache
def impossible() -> dict[str, tuple[Text, Text]]:
    """By game key: a hand asked for that the game cannot produce, and why."""
    from engine import registry

    return {
        info.key: info.module.IMPOSSIBLE_PRIZE_HAND
        for info in registry.all_games()
        if getattr(info.module, "IMPOSSIBLE_PRIZE_HAND", None)
    }


def kinds_for(game_key: str) -> tuple[HonourKind, ...]:
    return tuple(kind for kind in kinds().values() if kind.game_key == game_key)
