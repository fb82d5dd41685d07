"""A Swiss round: pair players with equal (or the nearest) scores who have not met.

Design
------
``pair_round(standings, history, allow_repeats=False) -> Round``

- ``standings``: the players still in the event, best first (``Entrant(player, score)`` or
  ``(player, score)``); the order is the ranking the caller computed (``standings.py``), the
  score is what makes score groups (players with equal scores form a group; groups are ordered
  by score, highest first). A late entry is just a player with 0 points here; a drop is a player
  left out. ``history`` is every earlier pairing (``Pairing`` or ``(first, second)``; a bye has
  ``second=None``); pairings with players no longer in the field are ignored, earlier rounds
  stand as they were played.
- The bye (odd field) goes to the lowest-ranked player who has had the fewest byes (so: the
  lowest without one), unless that makes a repeat pairing unavoidable for the others; then to
  the next one up that does not (see the objective).
- Pairing is a maximum-weight perfect matching (``networkx.max_weight_matching`` with
  ``maxcardinality=True``) on the complete graph of the players (less the bye). Each pair's cost
  is lexicographic, built into one integer weight (``C - cost``; every perfect matching has the
  same number of edges, so the constant ``C`` does not change which one wins):

    1. a repeat (the two have met before): never taken when it can be avoided;
    2. the squared distance between their score groups (0 within a group; pairing 1 group
       apart twice costs less than 2 groups apart once);
    3. the squared distance in rank (neighbours in the ranking preferred: 1–2, 3–4, …).

  The weights of each level exceed the most the levels below can add up to, so the matching
  minimises, in this order: repeats, then (choice of the bye) how far up the bye moved, then
  the score-group cost, then the rank cost. The test suite checks it against brute force.
- No repeat-free pairing at all (a small field late in an event): ``CompetitionError`` unless
  ``allow_repeats=True``, which takes the pairing with the fewest repeats (``Round.repeats``
  says how many) and otherwise the same objective.
- Seats: the player who has had the first seat less often (firsts minus seconds) takes it; on
  equal balance, the higher-ranked player. Tables are numbered from 1 in the order of the pair's
  higher-ranked player; the bye (table 0) is listed last.
- Deterministic: the graph is built in ranking order, so the same input gives the same round;
  among matchings of equal weight it is the one networkx's blossom algorithm reaches first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from numbers import Real

import networkx as nx

from competitions.base import CompetitionError, Pairing, PlayerId, check_unique
from engine.errors import _


@dataclass(frozen=True)
class Entrant:
    player: PlayerId
    score: Real = 0


@dataclass(frozen=True)
class Round:
    pairings: tuple[Pairing, ...]  # tables 1, 2, …, then the bye (if any)
    bye: PlayerId | None = None
    repeats: int = 0  # pairings that repeat an earlier one (0 unless allow_repeats)


@dataclass(frozen=True)
class Cost:
    """What a pairing of the field costs, compared lexicographically (lower is better)."""

    repeats: int
    bye_moved: int  # places the bye moved up from the first candidate
    groups: int  # sum of squared score-group distances
    ranks: int  # sum of squared rank distances

    def key(self) -> tuple[int, int, int, int]:
        return (self.repeats, self.bye_moved, self.groups, self.ranks)


def pair_round(
    standings: Sequence[Entrant | tuple[PlayerId, Real]],
    history: Iterable[Pairing | tuple[PlayerId, PlayerId | None]] = (),
    *,
    allow_repeats: bool = False,
) -> Round:
    """The next round's pairings; see the module docstring."""
    field = [s if isinstance(s, Entrant) else Entrant(*s) for s in standings]
    players = [entrant.player for entrant in field]
    check_unique(players)
    context = _Context(field, history)
    n = len(players)
    if n == 0:
        return Round(())
    if n % 2 == 0:
        found = context.match(list(range(n)), allow_repeats=False)
        if found is None and allow_repeats:
            found = context.match(list(range(n)), allow_repeats=True)
        if found is None:
            raise _no_pairing(n)
        return context.round(found[1], bye=None)
    candidates = bye_candidates(players, context.byes)
    for index in candidates:
        rest = [i for i in range(n) if i != index]
        found = context.match(rest, allow_repeats=False)
        if found is not None:
            return context.round(found[1], bye=index)
    if not allow_repeats:
        raise _no_pairing(n)
    best = None
    for moved, index in enumerate(candidates):
        rest = [i for i in range(n) if i != index]
        cost, pairs = context.match(rest, allow_repeats=True)
        key = replace(cost, bye_moved=moved).key()
        if best is None or key < best[0]:
            best = (key, pairs, index)
    return context.round(best[1], bye=best[2])


def bye_candidates(players: Sequence[PlayerId], byes: Counter) -> list[int]:
    """Ranks (indices into ``players``) in the order they are offered the bye: fewest byes
    first, then the lowest-ranked first."""
    return sorted(range(len(players)), key=lambda i: (byes[players[i]], -i))


def score_groups(scores: Sequence[Real]) -> list[int]:
    """Each player's score group: 0 for the highest score, 1 for the next distinct one, …"""
    distinct = sorted(set(scores), reverse=True)
    return [distinct.index(score) for score in scores]


def pairing_cost(
    pairs: Iterable[tuple[int, int]], groups: Sequence[int], met: set[frozenset]
) -> tuple[int, int, int]:
    """(repeats, group cost, rank cost) of pairs of ranks; ``met`` holds frozensets of ranks."""
    repeats = group_cost = rank_cost = 0
    for i, j in pairs:
        repeats += frozenset((i, j)) in met
        group_cost += (groups[i] - groups[j]) ** 2
        rank_cost += (i - j) ** 2
    return repeats, group_cost, rank_cost


class _Context:
    def __init__(self, field: list[Entrant], history: Iterable) -> None:
        self.players = [entrant.player for entrant in field]
        self.groups = score_groups([entrant.score for entrant in field])
        rank = {player: i for i, player in enumerate(self.players)}
        self.byes: Counter = Counter()
        self.balance: Counter = Counter()  # first seats minus second seats
        self.met: set[frozenset] = set()
        for pairing in history:
            first, second = (
                (pairing.first, pairing.second) if isinstance(pairing, Pairing) else pairing
            )
            if second is None:
                self.byes[first] += 1
                continue
            self.balance[first] += 1
            self.balance[second] -= 1
            if first in rank and second in rank:
                self.met.add(frozenset((rank[first], rank[second])))
        n = len(self.players)
        self.rank_unit = 1
        self.group_unit = n**3 + 1  # > the most the rank costs of a round can add up to
        self.repeat_unit = (n**3 + 1) * self.group_unit
        self.base = 2 * self.repeat_unit

    def weight(self, i: int, j: int) -> int:
        repeat, group_cost, rank_cost = pairing_cost([(i, j)], self.groups, self.met)
        return self.base - (
            repeat * self.repeat_unit + group_cost * self.group_unit + rank_cost * self.rank_unit
        )

    def match(self, ranks: list[int], *, allow_repeats: bool):
        """The best perfect matching of ``ranks``: (Cost, pairs as (i, j) with i < j), or None
        when there is none (without repeats)."""
        graph = nx.Graph()
        graph.add_nodes_from(ranks)
        for a, i in enumerate(ranks):
            for j in ranks[a + 1 :]:
                if allow_repeats or frozenset((i, j)) not in self.met:
                    graph.add_edge(i, j, weight=self.weight(i, j))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != len(ranks):
            return None
        pairs = sorted(tuple(sorted(pair)) for pair in matching)
        repeats, group_cost, rank_cost = pairing_cost(pairs, self.groups, self.met)
        return Cost(repeats, 0, group_cost, rank_cost), pairs

    def round(self, pairs: list[tuple[int, int]], bye: int | None) -> Round:
        tables = []
        for number, (i, j) in enumerate(sorted(pairs), start=1):
            higher, lower = self.players[i], self.players[j]
            if self.balance[lower] < self.balance[higher]:
                higher, lower = lower, higher
            tables.append(Pairing(higher, lower, number))
        repeats = sum(frozenset(pair) in self.met for pair in pairs)
        if bye is not None:
            tables.append(Pairing(self.players[bye], None))
        return Round(tuple(tables), None if bye is None else self.players[bye], repeats=repeats)


def _no_pairing(n: int) -> CompetitionError:
    return CompetitionError(
        _(
            "the {count} players cannot all be paired without a repeat pairing; "
            "allow repeats for this round, or end the event"
        ),
        count=n,
    )
