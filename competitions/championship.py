"""The places of a multi-table championship with a final table.

Design
------
``championship_places(rounds, final=None, players=None) -> tuple[Place, ...]``

- ``rounds``: the rounds before the final, each a mapping player → points (as
  ``standings.multi_table`` takes them); their ranking is the *standing*: total, best single
  round, count-back (a dropped player keeps his total and is ranked with the rest).
- ``final``: the final table's result, player → points (``None``: no final table). The final
  decides places 1 … ``len(final)``: by the final's points, then by the standing before the
  final (the finalist who stood higher places higher); finalists equal on both share a place.
- Everyone else follows, from ``len(final) + 1``, in the order of the standing; players equal
  on the standing share a place (1, 2, 2, 4 within the rest, shifted past the final).
- ``Place.total`` is the rounds' total (the final's points are not added to it: the final
  places, it does not score), ``Place.final`` the final's points (``None``: not at the final).
- The result's (player, rank) pairs are what ``prizes.split`` takes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from competitions.base import CompetitionError, PlayerId
from competitions.standings import multi_table
from engine.errors import _
from engine.ranking import rank_lines


@dataclass(frozen=True)
class Place:
    player: PlayerId
    rank: int
    total: int  # the rounds before the final
    final: int | None  # the final table's points; None: not at the final
    standing: int  # the rank by the rounds before the final


def championship_places(
    rounds: Sequence[Mapping[PlayerId, int]],
    final: Mapping[PlayerId, int] | None = None,
    players: Sequence[PlayerId] | None = None,
) -> tuple[Place, ...]:
    """The championship's places (see the module docstring)."""
    standing = multi_table(rounds, players)
    final = final or {}
    known = {line.player for line in standing}
    for player in final:
        if player not in known:
            raise CompetitionError(
                _("{player} is at the final table without having played a round"),
                player=player,
            )
    places = [
        Place(line.player, 0, line.total, final.get(line.player), line.rank) for line in standing
    ]
    finalists = rank_lines(
        [place for place in places if place.final is not None],
        lambda place: (place.final, -place.standing),
    )
    rest = rank_lines(
        [place for place in places if place.final is None], lambda place: -place.standing
    )
    shift = len(finalists)
    return finalists + tuple(
        Place(p.player, p.rank + shift, p.total, None, p.standing) for p in rest
    )
