"""Championship seating against brute force: round 1, re-seating, balancing after drops, the
final table, and the fields that cannot be seated."""

from __future__ import annotations

from functools import cache
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from competitions.base import CompetitionError
from competitions.seating import balance, final_table, reseat, seat_field


def players(count):
    return [f"p{i}" for i in range(count)]


def even_layouts(count, *, max_size, min_size):
    """Every (tables, small size, tables one bigger) that seats ``count`` within the bounds
    with sizes differing by at most one, found by trying them all."""
    return [
        (tables, small, bigger)
        for tables in range(1, count + 1)
        for small in range(min_size, max_size + 1)
        for bigger in range(tables)
        if small * tables + bigger == count and (bigger == 0 or small + 1 <= max_size)
    ]


def valid(sizes, *, max_size, min_size):
    sizes = [size for size in sizes if size]
    return all(min_size <= size <= max_size for size in sizes) and max(sizes) - min(sizes) <= 1


FIELDS = [
    (count, max_size, min_size)
    for count in range(2, 21)
    for max_size in range(3, 9)
    for min_size in range(1, max_size + 1)
]


def test_round_one_uses_the_fewest_even_tables_and_deals_like_cards():
    for count, max_size, min_size in FIELDS:
        check_round_one(count, max_size, min_size)


def check_round_one(count, max_size, min_size):
    field = players(count)
    layouts = even_layouts(count, max_size=max_size, min_size=min_size)
    if not layouts:
        with pytest.raises(CompetitionError, match="cannot sit|too few"):
            seat_field(field, max_size=max_size, min_size=min_size)
        return
    tables = seat_field(field, max_size=max_size, min_size=min_size)
    fewest = min(layout[0] for layout in layouts)
    assert len(tables) == fewest
    sizes = [len(table) for table in tables]
    assert sizes == sorted(sizes, reverse=True)  # the bigger tables first
    assert valid(sizes, max_size=max_size, min_size=min_size)
    assert sorted(p for table in tables for p in table) == sorted(field)
    for index, player in enumerate(field):  # 1 → table 1, 2 → table 2, …, round and round
        assert tables[index % fewest][index // fewest] == player


def test_reseating_puts_the_strongest_together_at_the_same_tables():
    for count, max_size, min_size in FIELDS:
        check_reseat(count, max_size, min_size)


def check_reseat(count, max_size, min_size):
    ranking = players(count)
    layouts = even_layouts(count, max_size=max_size, min_size=min_size)
    if not layouts:
        with pytest.raises(CompetitionError):
            reseat(ranking, max_size=max_size, min_size=min_size)
        return
    tables, small, bigger = min(layouts)
    sizes = [small + 1] * bigger + [small] * (tables - bigger)
    seated = reseat(ranking, max_size=max_size, min_size=min_size)
    assert [len(table) for table in seated] == sizes  # the fewest tables, the bigger first
    assert [p for table in seated for p in table] == ranking  # table 1 the top, and so on


def test_twelve_by_fours_and_eleven_by_standings():
    field = list("ABCDEFGHIJKL")
    assert seat_field(field, max_size=4, min_size=2) == [
        list("ADGJ"),
        list("BEHK"),
        list("CFIL"),
    ]
    assert reseat(field[:11], max_size=4, min_size=2) == [list("ABCD"), list("EFGH"), list("IJK")]
    assert reseat(field[:5], max_size=6, min_size=3) == [list("ABCDE")]


@cache
def fewest_moves(sizes, max_size, min_size):
    """(players moved, tables) of the best re-assignment of every player left, tried one by
    one: each player to any table given or to one new table."""
    seats = [table for table, size in enumerate(sizes) for _seat in range(size)]
    best = None
    for assignment in product(range(len(sizes) + 1), repeat=len(seats)):
        counts = [assignment.count(table) for table in range(len(sizes) + 1)]
        if not valid(counts, max_size=max_size, min_size=min_size):
            continue
        moved = sum(a != b for a, b in zip(assignment, seats, strict=True))
        option = (moved, sum(1 for count in counts if count))
        best = option if best is None else min(best, option)
    return best


LAYOUTS = [
    # (tables, max_size, min_size)
    ([list("ABCD"), list("EFGH")], 4, 2),
    ([list("ABCD"), list("EFGH")], 4, 3),
    ([list("ABC"), list("DEF"), list("GHI")], 3, 2),
    ([list("ABC"), list("DEF"), list("GHI")], 4, 2),
    ([list("ABCD"), list("EFG"), list("HIJ")], 4, 3),
    ([list("ABC"), list("DE"), list("FG")], 3, 1),
    ([list("ABCDE"), list("FGHI")], 5, 3),
]


def drop_sets(tables):
    field = [p for table in tables for p in table]
    for count in (1, 2, 3):
        yield from combinations(field, count)


@pytest.mark.parametrize(("tables", "max_size", "min_size"), LAYOUTS)
def test_balancing_after_drops_moves_the_fewest_players(tables, max_size, min_size):
    for gone in drop_sets(tables):
        left = [[p for p in table if p not in gone] for table in tables]
        best = fewest_moves(tuple(map(len, left)), max_size, min_size)
        if best is None:
            with pytest.raises(CompetitionError):
                balance(tables, gone, max_size=max_size, min_size=min_size)
            continue
        after = balance(tables, gone, max_size=max_size, min_size=min_size)
        where = {p: i for i, table in enumerate(after) for p in table}
        was = {p: i for i, table in enumerate(tables) for p in table}
        assert sorted(where) == sorted(set(was) - set(gone)), gone
        sizes = [len(table) for table in after]
        assert valid(sizes, max_size=max_size, min_size=min_size), (gone, after)
        moved = [p for p in where if where[p] != was[p]]
        assert (len(moved), sum(1 for size in sizes if size)) == best, (gone, after)
        for before, now in zip(left, after, strict=False):
            stayed = [p for p in now if where[p] == was[p]]
            assert before[: len(stayed)] == stayed  # the last-seated are the ones who move
            assert now[: len(stayed)] == stayed  # and newcomers sit after those who stayed


def test_a_drop_that_leaves_even_tables_moves_nobody():
    tables = seat_field(list("ABCDEFGHIJKL"), max_size=4, min_size=2)
    assert balance(tables, {"H"}, max_size=4, min_size=2) == [
        list("ADGJ"),
        list("BEK"),
        list("CFIL"),
    ]


def test_the_last_seated_at_the_biggest_table_moves_to_the_smallest():
    tables = [list("ABCD"), list("EFGH"), list("IJKL")]
    # I and J leave: 4, 4, 2 → 4, 3, 3; table 1 keeps four (the lower number on equal), so H,
    # the last seated at table 2, moves to table 3.
    assert balance(tables, {"I", "J"}, max_size=4, min_size=2) == [
        list("ABCD"),
        list("EFG"),
        list("KLH"),
    ]


def test_a_table_is_broken_up_when_the_field_no_longer_fills_the_tables():
    tables = [list("ABCD"), list("EFGH"), list("IJKL")]
    # Tables of 3 or 4: 7 players fill two tables; table 3 (two left) is broken up.
    assert balance(tables, {"A", "E", "I", "J", "F"}, max_size=4, min_size=3) == [
        list("BCDK"),
        list("GHL"),
        [],
    ]
    # With tables of 2 allowed, 3 + 2 + 2 would move one player (L to C) as 4 + 3 does (C to
    # table 2): on equal moves, the fewer tables.
    assert balance(tables, list("ADGJB"), max_size=4, min_size=2) == [
        [],
        list("EFHC"),
        list("IKL"),
    ]


def test_the_biggest_table_gives_first():
    # Tables of at most 3 for 11 players: 3 + 3 + 3 + 2. Table 1 (5) gives E, then tables 1
    # and 2 are equal (4) and table 1 gives D; the new table is the smallest both times; then
    # table 2 gives I to table 3.
    tables = [list("ABCDE"), list("FGHI"), list("JK")]
    assert balance(tables, (), max_size=3, min_size=1) == [
        list("ABC"),
        list("FGH"),
        list("JKI"),
        list("ED"),
    ]


def test_a_table_over_the_most_opens_a_new_one():
    # The last seated leave first: F, then E, then D.
    assert balance([list("ABCDEF")], (), max_size=4, min_size=2) == [list("ABC"), list("FED")]


@given(
    count=st.integers(2, 30),
    max_size=st.integers(2, 8),
    min_size=st.integers(1, 8),
    data=st.data(),
)
@settings(max_examples=300, deadline=None)
def test_any_field_and_any_drops_stay_within_the_bounds(count, max_size, min_size, data):
    field = players(count)
    try:
        tables = seat_field(field, max_size=max_size, min_size=min_size)
    except CompetitionError:
        assert not even_layouts(count, max_size=max_size, min_size=min_size)
        return
    gone = data.draw(st.sets(st.sampled_from(field), max_size=count))
    left = count - len(gone)
    if not even_layouts(left, max_size=max_size, min_size=min_size):
        with pytest.raises(CompetitionError):
            balance(tables, gone, max_size=max_size, min_size=min_size)
        return
    after = balance(tables, gone, max_size=max_size, min_size=min_size)
    assert len(after) == len(tables)  # never more tables after drops
    assert sorted(p for table in after for p in table) == sorted(set(field) - gone)
    assert valid([len(table) for table in after], max_size=max_size, min_size=min_size)
    ranking = [p for p in field if p not in gone]
    again = reseat(ranking, max_size=max_size, min_size=min_size)
    assert len(again) <= len(after)  # the next round never needs more tables


def test_the_final_table_is_the_top_of_the_ranking():
    assert final_table(list("FBLGAI"), 4) == list("FBLG")
    with pytest.raises(CompetitionError, match="final table of 4 needs 4 players"):
        final_table(list("ABC"), 4)
    with pytest.raises(CompetitionError, match="at least 1"):
        final_table(list("ABC"), 0)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: seat_field(list("ABCDE"), max_size=4, min_size=4), "cannot sit at tables of 4"),
        (lambda: seat_field(list("A"), max_size=4, min_size=2), "1 players are too few"),
        (lambda: seat_field([], max_size=4, min_size=2), "0 players are too few"),
        (lambda: seat_field(list("ABCD"), max_size=2, min_size=3), "tables of 3 to 2 players"),
        (lambda: seat_field(list("ABCD"), max_size=2, min_size=0), "tables of 0 to 2 players"),
        (lambda: seat_field(list("ABCA"), max_size=4, min_size=2), "A is listed twice"),
        (lambda: reseat(list("ABCDE"), max_size=4, min_size=4), "cannot sit"),
        (lambda: balance([list("AB"), list("CD")], "ABC", max_size=4, min_size=2), "too few"),
        (lambda: balance([list("AB"), list("CA")], "", max_size=4, min_size=2), "twice"),
        (lambda: final_table(list("ABB"), 2), "B is listed twice"),
    ],
)
def test_a_field_that_cannot_be_seated_is_refused_with_what_to_change(call, message):
    with pytest.raises(CompetitionError, match=message):
        call()
