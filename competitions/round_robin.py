"""Round robin by the circle method: everyone meets everyone once.

Design
------
``rounds(players)`` returns the whole schedule, one list of ``Pairing`` per round.

- An odd field gets a phantom opponent: whoever meets it has the bye (``Pairing(p, None)``),
  so every player has exactly one bye over the schedule. ``n`` players play ``n - 1`` rounds
  (even ``n``) or ``n`` rounds (odd ``n``).
- The circle: the last player (or the phantom, odd fields) stays put; the others stand on a
  ring of ``m = n - 1`` places (``n`` even after the phantom). In round ``r`` (from 0) the fixed
  player meets ``ring[r]`` and, for ``k = 1 .. n/2 - 1``, ``ring[r + k]`` meets ``ring[r - k]``
  (indices mod ``m``). Every pair of ring players ``i, j`` meets once: in the round ``r`` with
  ``2r = i + j (mod m)`` (``m`` is odd, so that ``r`` exists and is unique); each ring player
  meets the fixed player in round ``r = its place``.
- Seats: ``ring[r + k]`` takes the first seat, ``ring[r - k]`` the second. A ring player meets
  each offset ``k`` once from each side, so its ring games split evenly; the fixed player's game
  alternates (the ring player first in even rounds, the fixed player first in odd rounds).
  Hence first and second seats differ by at most 1 for everyone (0 in odd fields).
- Order within a round: the fixed player's table first, then ``k = 1, 2, …``; tables are
  numbered from 1 in that order and the bye (table 0) goes last. The same players in the same
  order always give the same schedule.
"""

from __future__ import annotations

from collections.abc import Sequence

from competitions.base import Pairing, PlayerId, check_unique

_PHANTOM = object()


def rounds(players: Sequence[PlayerId]) -> list[list[Pairing]]:
    """The schedule for ``players`` (in seeding order); see the module docstring."""
    field = list(players)
    check_unique(field)
    if len(field) < 2:
        return []
    if len(field) % 2:
        field.append(_PHANTOM)
    n = len(field)
    fixed, ring, m = field[-1], field[:-1], n - 1
    schedule = []
    for r in range(m):
        games = [(ring[r], fixed) if r % 2 == 0 else (fixed, ring[r])]
        games += [(ring[(r + k) % m], ring[(r - k) % m]) for k in range(1, n // 2)]
        schedule.append(_number(games))
    return schedule


def _number(games: list[tuple]) -> list[Pairing]:
    played = [(a, b) for a, b in games if a is not _PHANTOM and b is not _PHANTOM]
    round_ = [Pairing(a, b, table) for table, (a, b) in enumerate(played, start=1)]
    for a, b in games:
        if b is _PHANTOM:
            round_.append(Pairing(a, None))
        elif a is _PHANTOM:
            round_.append(Pairing(b, None))
    return round_
