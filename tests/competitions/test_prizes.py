"""The prize split: worked examples, and nothing lost (a property)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.base import CompetitionError
from competitions.prizes import place_amounts, split


def amounts(prizes):
    return [(prize.player, prize.amount_ore) for prize in prizes]


@pytest.mark.parametrize(
    ("pool", "places", "expected"),
    [
        # 50/30/20 of 100 kr, no ties.
        (10000, [("a", 1), ("b", 2), ("c", 3), ("d", 4)], [("a", 5000), ("b", 3000), ("c", 2000)]),
        # 10.01 kr: 500 + 300 + 200 = 1000; the öre left goes to 1st.
        (1001, [("a", 1), ("b", 2), ("c", 3)], [("a", 501), ("b", 300), ("c", 200)]),
        # 2nd and 3rd tied share 30 % + 20 %.
        (10000, [("a", 1), ("b", 2), ("c", 2), ("d", 4)], [("a", 5000), ("b", 2500), ("c", 2500)]),
        # Two firsts share 50 % + 30 %.
        (10000, [("a", 1), ("b", 1), ("c", 3)], [("a", 4000), ("b", 4000), ("c", 2000)]),
        # 10.03 kr: 502, 301, 200; the tied pair shares 501, the odd öre to the one listed first.
        (1003, [("a", 1), ("c", 2), ("b", 2)], [("a", 502), ("c", 251), ("b", 250)]),
        # Three tied on 3rd share the 3rd prize: 2000 / 3 = 667, 667, 666.
        (
            10000,
            [("a", 1), ("b", 2), ("c", 3), ("d", 3), ("e", 3)],
            [("a", 5000), ("b", 3000), ("c", 667), ("d", 667), ("e", 666)],
        ),
        # Two players for three prizes: the last one placed takes the unclaimed 3rd.
        (10000, [("a", 1), ("b", 2)], [("a", 5000), ("b", 5000)]),
    ],
)
def test_worked_examples_with_50_30_20(pool, places, expected):
    assert amounts(split(pool, (50, 30, 20), places)) == expected


def test_bad_percentages_and_pools_are_refused():
    for percents in [(50, 30), (50, 30, 30), (), (100.0,)]:
        with pytest.raises(CompetitionError, match="adding up to 100"):
            place_amounts(100, percents)
    with pytest.raises(CompetitionError, match="whole number of öre"):
        place_amounts(10.5, (100,))


@st.composite
def rankings(draw):
    size = draw(st.integers(1, 12))
    steps = draw(st.lists(st.booleans(), min_size=size - 1, max_size=size - 1))
    ranks = [1]
    for index, tied in enumerate(steps, start=2):
        ranks.append(ranks[-1] if tied else index)
    return [(f"p{i}", rank) for i, rank in enumerate(ranks)]


@st.composite
def percentages(draw):
    cuts = sorted(draw(st.lists(st.integers(0, 100), max_size=6)))
    edges = [0, *cuts, 100]
    return [b - a for a, b in zip(edges, edges[1:], strict=False)]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), percentages(), rankings())
def test_the_parts_add_up_to_the_pool_and_no_lower_place_gets_more(pool, percents, places):
    prizes = split(pool, percents, places)
    assert sum(prize.amount_ore for prize in prizes) == pool
    assert all(prize.amount_ore > 0 for prize in prizes)
    won = {prize.player: prize.amount_ore for prize in prizes}
    got = [won.get(player, 0) for player, _rank in places]
    ordered_percents = list(percents) == sorted(percents, reverse=True)
    if ordered_percents and len(places) >= len(percents):
        assert got == sorted(got, reverse=True)
