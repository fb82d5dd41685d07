"""What the competition pages read (C1): standings, a round's tables, progress and the pool,
in a handful of queries however many entrants."""

from __future__ import annotations

from competitions import links, results, running, tables
from competitions.models import Kind
from tests.factories import make_member


def sixteen_after_two_rounds(club, by):
    competition = running.announce(
        club, by, name="Stora cupen", kind=Kind.SWISS, game_key="kasino", rounds=4
    )
    for n in range(1, 17):
        if n % 4:
            running.enter(competition, by, member=make_member(club, f"K{n:02}"))
        else:
            running.enter(competition, by, guest_name=f"Gäst {n:02}")
    round_ = running.start(competition, by)
    for number in (1, 2):
        for table in round_.tables.exclude(number=0):
            first, second = (s.entrant for s in table.seats.order_by("position"))
            results.record(
                table,
                f"game:{table.pk}",
                [results.Row(first, 11, 1), results.Row(second, 11 - number * 2, 2)],
            )
        if number == 1:
            round_ = running.next_round(competition, by)
    return competition, round_


def test_standings_of_sixteen_take_a_few_queries(club, scorer, django_assert_max_num_queries):
    competition, _round = sixteen_after_two_rounds(club, scorer.user)
    with django_assert_max_num_queries(5):
        rows = tables.standings(competition)
        names = [row.entrant.name for row in rows]
    assert len(names) == 16
    assert [row.match_points for row in rows[:4]] == [4, 4, 4, 4]
    assert rows[0].spread == 6  # won by 2, then by 4


def test_a_round_view_takes_a_few_queries_and_links_each_table(
    club, scorer, django_assert_max_num_queries
):
    competition, round_ = sixteen_after_two_rounds(club, scorer.user)
    with django_assert_max_num_queries(6):
        rows = tables.round_view(round_)
        seen = [(row.table.number, [e.name for e, _r in row.seats], row.link) for row in rows]
    assert len(seen) == 8
    assert all(
        link == links.table_link(row.table) for row, (_n, _s, link) in zip(rows, seen, strict=True)
    )
    assert all(row.finished and row.game is None for row in rows)
    assert tables.progress(round_) == (8, 8)


def test_kasino_and_a_tvamanswhist_draw_count_as_the_engines_placed_them(club, scorer):
    competition = running.announce(
        club, scorer.user, name="Whist", kind=Kind.SWISS, game_key="tvamanswhist", rounds=2
    )
    a, b, c, d = (
        running.enter(competition, scorer.user, guest_name=name) for name in ("A", "B", "C", "D")
    )
    first = running.start(competition, scorer.user)
    t1, t2 = first.tables.order_by("number")
    # A and B drew (both placed 1st); C won on the second measure with equal deals.
    results.record(t1, "game:1", [results.Row(a, 5, 1), results.Row(b, 5, 1)])
    results.record(t2, "game:2", [results.Row(c, 4, 1), results.Row(d, 4, 2)])
    rows = {row.entrant.name: row for row in tables.standings(competition)}
    assert (rows["A"].wins, rows["A"].losses, rows["A"].match_points) == (0, 0, 0)
    assert (rows["C"].wins, rows["C"].spread, rows["D"].spread) == (1, 1, -1)
    assert [r.entrant.name for r in tables.standings(competition)][0] == "C"
    # The drawn pair does not meet again.
    second = running.next_round(competition, scorer.user)
    pairs = {
        frozenset(s.entrant.name for s in t.seats.all()) for t in second.tables.exclude(number=0)
    }
    assert frozenset("AB") not in pairs
