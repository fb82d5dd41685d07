"""A prize pool split over places by the club's percentages; tied places share.

Design
------
``split(pool_ore, percents, places) -> tuple[Prize, ...]``

- ``pool_ore``: whole öre, 0 or more. ``percents``: whole percentages per place, best first,
  adding up to exactly 100 (the whole pool is paid out; ``(50, 30, 20)``).
- Each place's prize is ``pool * percent // 100``; the öre the rounding leaves go to the
  higher places, one each from 1st place down (never more than one per place: fewer öre are
  left than there are places).
- ``places``: the ranking as (player, rank) pairs, best first, with shared ranks for ties
  (1, 2, 2, 4 as ``standings`` gives them). Players tied on a rank covering prize places
  ``k .. k + t - 1`` share the sum of those places' prizes (places past the last prize add 0):
  each gets ``sum // t``; the odd öre go one each to the tied players in the order given (the
  ranking's own stable rule), so the higher-listed gets the öre.
- Fewer players than prizes: the unclaimed places' prizes go to the lowest player who placed,
  so nothing is left in the pool (a club that wants otherwise lists fewer percentages).
- The parts always add up to ``pool_ore`` exactly (a property test checks it); players who
  win nothing are not listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from competitions.base import CompetitionError, PlayerId, check_unique
from engine.errors import _


@dataclass(frozen=True)
class Prize:
    player: PlayerId
    rank: int
    amount_ore: int


def place_amounts(pool_ore: int, percents: Sequence[int]) -> list[int]:
    """Each place's prize before ties: floor of the percentage, the öre left to the top."""
    check_percents(percents)
    if not isinstance(pool_ore, int) or isinstance(pool_ore, bool) or pool_ore < 0:
        raise CompetitionError(
            _("the prize pool must be a whole number of öre, 0 or more, not {value}"),
            value=repr(pool_ore),
        )
    amounts = [pool_ore * percent // 100 for percent in percents]
    for place in range(pool_ore - sum(amounts)):
        amounts[place] += 1
    return amounts


def check_percents(percents: Sequence[int]) -> None:
    if (
        not percents
        or any(not isinstance(p, int) or isinstance(p, bool) or p < 0 for p in percents)
        or sum(percents) != 100
    ):
        raise CompetitionError(
            _("the prize percentages must be whole numbers adding up to 100, not {percents}"),
            percents=", ".join(map(str, percents)),
        )


def split(
    pool_ore: int, percents: Sequence[int], places: Sequence[tuple[PlayerId, int]]
) -> tuple[Prize, ...]:
    """The prizes (see the module docstring)."""
    amounts = place_amounts(pool_ore, percents)
    check_unique([player for player, _rank in places])
    if not places:
        if pool_ore:
            raise CompetitionError(_("no players to give the prizes to"))
        return ()
    groups: list[list[tuple[PlayerId, int]]] = []
    for player, rank in places:
        if groups and groups[-1][0][1] == rank:
            groups[-1].append((player, rank))
        else:
            groups.append([(player, rank)])
    position = 0
    prizes: list[Prize] = []
    for number, group in enumerate(groups):
        size = len(group)
        end = position + size if number < len(groups) - 1 else len(amounts)
        pot = sum(amounts[position:end])
        position += size
        share, odd = divmod(pot, size)
        for index, (player, rank) in enumerate(group):
            amount = share + (1 if index < odd else 0)
            if amount:
                prizes.append(Prize(player, rank, amount))
    return tuple(prizes)
