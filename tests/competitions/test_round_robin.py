"""The circle method: every pair once, one bye each in odd fields, seats balanced."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from competitions.base import CompetitionError, Pairing
from competitions.round_robin import rounds


@pytest.mark.parametrize("n", range(2, 13))
def test_every_pair_meets_once_and_odd_fields_give_everyone_one_bye(n):
    players = [f"p{i}" for i in range(n)]
    schedule = rounds(players)
    assert len(schedule) == (n if n % 2 else n - 1)
    met = Counter()
    byes = Counter()
    firsts, seconds = Counter(), Counter()
    for round_ in schedule:
        seated = [p for pairing in round_ for p in pairing.players]
        assert sorted(seated) == sorted(players)  # everyone once a round
        assert [p.table for p in round_ if not p.is_bye] == list(range(1, n // 2 + 1))
        for pairing in round_:
            if pairing.is_bye:
                byes[pairing.first] += 1
                assert pairing.table == 0
                continue
            met[frozenset(pairing.players)] += 1
            firsts[pairing.first] += 1
            seconds[pairing.second] += 1
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    assert byes == (Counter(players) if n % 2 else Counter())
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in players)
    if n % 2:
        assert all(firsts[p] == seconds[p] for p in players)


def test_the_schedule_is_the_same_for_the_same_seeding_and_ids_may_be_ints():
    assert rounds([3, 1, 2]) == rounds([3, 1, 2])
    assert rounds([1, 2]) == [[Pairing(1, 2, 1)]]
    assert rounds([7]) == []


def test_a_player_listed_twice_is_refused():
    with pytest.raises(CompetitionError, match="listed twice"):
        rounds(["a", "b", "a"])
