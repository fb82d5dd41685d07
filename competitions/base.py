"""What the competition modules share: a pairing, and the error a director can act on.

A ``Pairing`` seats two players at a table, ``first`` in the first seat (in cribbage the first
seat cuts first; the colour of chess). A bye is a pairing with ``second=None``: the player sits
the round out. Tables are numbered from 1 in the order of the round; a bye has table 0.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from engine.errors import EngineError, _

PlayerId = Hashable  # an int or a string the caller chooses


class CompetitionError(EngineError):
    """Input a competition cannot be run from (a duplicate player, a pairing that cannot be
    made without a repeat, percentages that do not add up). The message says what to change."""


@dataclass(frozen=True)
class Pairing:
    first: PlayerId
    second: PlayerId | None  # None: a bye
    table: int = 0

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


def check_unique(players: list) -> None:
    """Refuse a list that names a player twice."""
    seen = set()
    for player in players:
        if player in seen:
            raise CompetitionError(_("{player} is listed twice"), player=player)
        seen.add(player)
