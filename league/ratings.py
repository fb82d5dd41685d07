"""Ratings: the Plackett-Luce maths on plain numbers.

- OpenSkill Plackett-Luce across all of a club's games of one kind, in the order they finished:
  one team per player, or the result's ``team`` where players played as partners (whist).
  Guests take part with a fresh rating each game; their ratings are not kept. Shown as the
  ordinal (μ − 3σ), with its change after the member's latest game.
- ``rate_plackett_luce`` is openskill's ``PlackettLuce().rate`` with its default parameters on
  plain numbers (tests/league/test_ratings.py checks it against openskill).
- ``rate_games`` rates games one after the other on top of the members' ratings so far and
  gives a ``Point`` per member per game: what ``league.rating_points`` stores as
  ``RatingPoint`` rows.

Standard-library Python only: no Django, no database, no openskill (only its numbers), so the
maths can be tested and benchmarked alone. It reads results as ``league.rows.Row``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from league.rows import Row

# openskill's PlackettLuce defaults: mu, sigma, beta, kappa, tau.
MU, SIGMA = 25.0, 25.0 / 3.0
_BETA, _KAPPA, _TAU = 25.0 / 6.0, 0.0001, 25.0 / 300.0


def rate_plackett_luce(
    teams: Sequence[Sequence[tuple[float, float]]], ranks: Sequence[int]
) -> list[list[tuple[float, float]]]:
    """New (mu, sigma) of every player after one game: ``teams`` of (mu, sigma) pairs, their
    ``ranks`` (lower is better, equal is a tie).

    openskill's ``PlackettLuce().rate(teams, ranks=ranks)`` (Weng-Lin, algorithm 4) with its
    default parameters, step for step and in its order of arithmetic, without its rating
    objects (a deep copy and a uuid per player per game): the same numbers at a fraction of
    the cost. Its averaging of tied teams' changes compares each player with itself and so
    changes nothing; it is left out.
    """
    k = len(teams)
    if k < 2:
        raise ValueError(f"a game needs at least 2 teams, not {k}")
    tau_squared = _TAU * _TAU
    order = sorted(range(k), key=ranks.__getitem__)  # stable: openskill's _unwind
    rank = [int(ranks[i]) for i in order]
    widened, team_mu, team_s2 = [], [], []
    for i in order:
        team = [(mu, math.sqrt(sigma * sigma + tau_squared)) for mu, sigma in teams[i]]
        widened.append(team)
        mu_sum = s2_sum = 0.0  # summed best ordinal first (a stable sort, as openskill's)
        for mu, sigma in team if len(team) == 1 else sorted(team, key=_ordinal, reverse=True):
            mu_sum += mu
            s2_sum += sigma**2
        team_mu.append(mu_sum)
        team_s2.append(s2_sum)
    beta_squared = _BETA**2
    collective = 0.0
    for s2 in team_s2:
        collective += s2 + beta_squared
    c = math.sqrt(collective)
    exps = [math.exp(mu / c) for mu in team_mu]
    # Teams are in rank order: a team's tie group runs from first[i] to last[i].
    first = [rank.index(r) for r in rank]
    last = [k - 1 - rank[::-1].index(r) for r in rank]
    tied = [last[q] - first[q] + 1 for q in range(k)]
    sum_q = []
    for q in range(k):
        total = 0.0
        for e in exps[first[q] :]:  # every team ranked the same or below q, in order
            total += e
        sum_q.append(total)
    rated: list[list[tuple[float, float]]] = [[]] * k
    for i in range(k):
        omega = delta = 0.0
        e = exps[i]
        for q in range(last[i] + 1):  # every team ranked the same or above i
            share = e / sum_q[q]
            delta += share * (1 - share) / tied[q]
            if q == i:
                omega += (1 - share) / tied[q]
            else:
                omega -= share / tied[q]
        s2 = team_s2[i]
        omega *= s2 / c
        delta *= s2 / c**2
        delta *= math.sqrt(s2) / c
        new_team = []
        for mu, sigma in widened[i]:
            part = sigma**2 / s2
            new_team.append((mu + part * omega, sigma * math.sqrt(max(1 - part * delta, _KAPPA))))
        rated[order[i]] = new_team
    return rated


def _ordinal(rating: tuple[float, float]) -> float:
    return rating[0] - 3.0 * rating[1]


class Point(NamedTuple):
    """A member's rating after one game: a ``RatingPoint`` row to be, its columns in order."""

    member_id: int
    game_ref: str
    finished_at: datetime
    mu: float
    sigma: float
    ordinal: float
    change: float
    games: int


def rate_games(games: list[list[Row]], ratings: dict, counts: dict) -> list[Point]:
    """Rate ``games`` in order on top of ``ratings`` (member → (mu, sigma)) and ``counts``
    (member → rated games), which they update; a point per member per game."""
    points: list[Point] = []
    append = points.append
    fresh = (MU, SIGMA)  # a guest's, and a member's first
    for rows in games:
        teams = _teams(rows)
        before = [[ratings.get(r.member_id, fresh) for r in team] for team in teams]
        ranks = [
            team[0].placement if len(team) == 1 else min(r.placement for r in team)
            for team in teams
        ]
        for team, old_team, new_team in zip(
            teams, before, rate_plackett_luce(before, ranks), strict=True
        ):
            for result, (old_mu, old_sigma), (mu, sigma) in zip(
                team, old_team, new_team, strict=True
            ):
                member = result.member_id
                if member is None:
                    continue
                ratings[member] = (mu, sigma)
                counts[member] = rated = counts.get(member, 0) + 1
                ordinal = mu - 3.0 * sigma
                change = ordinal - (old_mu - 3.0 * old_sigma)
                append(
                    Point(
                        member,
                        result.game_ref,
                        result.finished_at,
                        mu,
                        sigma,
                        ordinal,
                        change,
                        rated,
                    )
                )
    return points


def _teams(rows: list[Row]) -> list[list[Row]]:
    if rows[0].team is None or any(r.team is None for r in rows):
        return [[row] for row in sorted(rows, key=_seat)]
    grouped: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        grouped[row.team].append(row)
    return [grouped[t] for t in sorted(grouped)]


def _seat(row: Row) -> int:
    return row.seat
