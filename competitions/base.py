"""What the competition modules share: a pairing, and the error a director can act on.

A ``Pairing`` seats two players at a table, ``first`` in the first seat (in cribbage the first
seat cuts first; the colour of chess). A bye is a pairing with ``second=None``: the player sits
the round out. Tables are numbered from 1 in the order of the round; a bye has table 0.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

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


def rank_lines[T](lines: Sequence[T], key: Callable[[T], Any]) -> tuple[T, ...]:
    """``lines`` sorted by ``key``, highest first, each given its ``rank`` (a dataclass field):
    equal keys share a rank (1, 2, 2, 4) and keep their order in ``lines`` (the stable rule
    every module states: the seeding, or the order players first appeared)."""
    ordered = sorted(lines, key=lambda line: _Highest(key(line)))
    ranked: list[T] = []
    for index, line in enumerate(ordered):
        same = index > 0 and key(ordered[index - 1]) == key(line)
        rank = ranked[-1].rank if same else index + 1  # type: ignore[attr-defined]
        ranked.append(replace(line, rank=rank))  # type: ignore[type-var]
    return tuple(ranked)


class _Highest:
    """A sort key that puts the highest value first; ``sorted`` stays stable for equals."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Highest) -> bool:
        return self.value > other.value
