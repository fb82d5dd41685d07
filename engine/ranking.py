"""Ranking lines with shared places: the one rule the league's formats and the competitions'
standings both rank by (1, 2, 2, 4: equal keys share a rank and keep their given order)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any


def rank_lines[T](lines: Sequence[T], key: Callable[[T], Any]) -> tuple[T, ...]:
    """``lines`` sorted by ``key``, highest first, each given its ``rank`` (a dataclass field):
    equal keys share a rank (1, 2, 2, 4) and keep their order in ``lines`` (the stable rule
    every caller states: the seeding, or the order players first appeared)."""
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
