"""League formats against a hand-computed season.

The season: 5 evenings, best 3 of them count, 1 participation point per evening (counted or
dropped), points by the table {4: (10, 6, 3, 1), 3: (8, 4, 1)}, at least 3 evenings to be
ranked.

  evening  field  places (points)
  1        4      Anna 1 (10), Bo 2 (6), Cilla 3 (3), Dan 4 (1)
  2        4      Bo 1 (10), Anna 2 (6), Dan 3 (3), Eva 4 (1)
  3        4      Cilla 1 (10), Anna 2 (6), Bo 3 (3), Eva 4 (1)
  4        3      Anna 1 (8), Cilla 2 (4), Bo 3 (1)
  5        4      Bo 1 (10), Dan 2 (6), Anna 3 (3), Cilla 4 (1)

  Bo     6 10 3 1 10  best 3: 10 (2) + 10 (5) + 6 (1) = 26, dropped 3 (3), 1 (4); +5 → 31
  Anna  10 6 6 8 3    best 3: 10 (1) + 8 (4) + 6 (2) = 24 (the two 6s: evening 2 counts, the
                      earlier), dropped 6 (3), 3 (5); +5 → 29
  Cilla  3 10 4 1     best 3: 10 (3) + 4 (4) + 3 (1) = 17, dropped 1 (5); +4 → 21
  Dan    1 3 6        all three count: 10; +3 → 13
  Eva    1 1          two evenings, fewer than 3: unranked; 2 + 2 → 4
"""

from __future__ import annotations

import pytest

from league.formats import Appearance, FormatError, LeagueRules, season

EVENINGS = [
    ["Anna", "Bo", "Cilla", "Dan"],
    ["Bo", "Anna", "Dan", "Eva"],
    ["Cilla", "Anna", "Bo", "Eva"],
    ["Anna", "Cilla", "Bo"],
    ["Bo", "Dan", "Anna", "Cilla"],
]
RULES = LeagueRules(
    best=3, participation=1, points_table={4: (10, 6, 3, 1), 3: (8, 4, 1)}, minimum=3
)


def appearances():
    return [
        Appearance(player, occasion=f"ev{number}", order=number, place=place, field=len(field))
        for number, field in enumerate(EVENINGS, start=1)
        for place, player in enumerate(field, start=1)
    ]


def test_best_three_of_five_matches_the_hand_computed_season():
    table = season(appearances(), RULES)
    assert [
        (line.rank, line.player, line.total, line.counted_points, line.participation)
        for line in table.ranked
    ] == [
        (1, "Bo", 31, 26, 5),
        (2, "Anna", 29, 24, 5),
        (3, "Cilla", 21, 17, 4),
        (4, "Dan", 13, 10, 3),
    ]
    lines = {line.player: line for line in table.ranked}

    def shown(scored):
        return [(s.appearance.occasion, s.points) for s in scored]

    assert shown(lines["Anna"].counted) == [("ev1", 10), ("ev2", 6), ("ev4", 8)]
    assert shown(lines["Anna"].dropped) == [("ev3", 6), ("ev5", 3)]
    assert shown(lines["Bo"].counted) == [("ev1", 6), ("ev2", 10), ("ev5", 10)]
    assert shown(lines["Bo"].dropped) == [("ev3", 3), ("ev4", 1)]
    assert shown(lines["Dan"].dropped) == []
    [eva] = table.unranked
    assert (eva.player, eva.rank, eva.total, eva.appearances) == ("Eva", 0, 4, 2)
    assert shown(eva.counted) == [("ev2", 1), ("ev3", 1)]


def test_without_a_table_or_best_n_every_given_result_counts_and_ties_share():
    results = [
        Appearance("x", 1, 1, points=5),
        Appearance("y", 1, 1, points=3),
        Appearance("y", 2, 2, points=2),
        Appearance("x", 2, 2, points=0),
    ]
    table = season(results)
    assert [(line.rank, line.player, line.total) for line in table.ranked] == [
        (1, "x", 5),
        (2, "y", 5),  # equal totals: x's best single result (5) is higher
    ]
    table = season(results[:2] + [Appearance("z", 1, 1, points=5)])
    assert [(line.rank, line.player) for line in table.ranked] == [(1, "x"), (1, "z"), (3, "y")]


def test_a_field_the_points_table_does_not_know_and_a_double_result_are_refused():
    with pytest.raises(FormatError, match="no row for 5 players"):
        season([Appearance("x", 1, 1, place=1, field=5)], RULES)
    with pytest.raises(FormatError, match="two results"):
        season([Appearance("x", 1, 1, points=1), Appearance("x", 1, 2, points=2)])
