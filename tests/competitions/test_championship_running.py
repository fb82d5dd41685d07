"""A championship run through the services (C1): round 1 dealt to the fewest even tables,
round 2 re-seated by the standings, a drop before round 2's games balances the tables that
have not begun, the final table of the top four decides the places and the prizes."""

from __future__ import annotations

from competitions import results, running, tables
from competitions.models import Kind, Status, TableResult
from tests.factories import make_member


def seated(round_):
    return [
        [s.entrant.name for s in t.seats.order_by("position")]
        for t in round_.tables.order_by("number")
    ]


def record_round(round_, points):
    """Each table's result: ``points[name]``, placed by it (the higher the better)."""
    for table in round_.tables.order_by("number"):
        entrants = [s.entrant for s in table.seats.order_by("position")]
        ordered = sorted(entrants, key=lambda e: -points[e.name])
        rows = [
            results.Row(entrant=e, score=points[e.name], placement=ordered.index(e) + 1)
            for e in entrants
        ]
        results.record(table, f"game:{table.pk}", rows)


def test_a_championship_with_a_drop_and_a_final_table(club, scorer):
    competition = running.announce(
        club,
        scorer.user,
        name="Femhundra-SM",
        kind=Kind.CHAMPIONSHIP,
        game_key="femhundra",
        rounds=3,
        table_size=4,
        final_table_size=4,
        entry_fee_ore=1000,
        prize_percents=[60, 40],
    )
    names = [f"P{n:02}" for n in range(1, 11)]
    for name in names:
        running.enter(competition, scorer.user, member=make_member(club, name))
    first = running.start(competition, scorer.user)
    # 10 players, at most 4 a table: 3 tables (4, 3, 3), dealt like cards.
    assert seated(first) == [
        ["P01", "P04", "P07", "P10"],
        ["P02", "P05", "P08"],
        ["P03", "P06", "P09"],
    ]
    points = {name: 10 * n for n, name in enumerate(names, start=1)}  # P10 best
    record_round(first, points)
    second = running.next_round(competition, scorer.user)
    assert seated(second) == [
        ["P10", "P09", "P08", "P07"],
        ["P06", "P05", "P04"],
        ["P03", "P02", "P01"],
    ]
    # P08 drops before round 2's games start: the three tables balance to 3, 3, 3 with the
    # fewest moves (nobody moves: his table just loses him).
    p08 = competition.entrants.get(member__name="P08")
    running.withdraw(p08, scorer.user)
    p08.refresh_from_db()
    assert p08.dropped_after == 1
    assert seated(second) == [
        ["P10", "P09", "P07"],
        ["P06", "P05", "P04"],
        ["P03", "P02", "P01"],
    ]
    record_round(second, {name: 100 - p for name, p in points.items()})  # P01 best now
    final = running.next_round(competition, scorer.user)
    assert final.is_final
    rows = tables.standings(competition)
    # Totals after two rounds: each has 100 (10n + 100 − 10n); P08 has 80 (round 1 only).
    # Equal totals: the best single round (P10 100; P01 and P09 90; P02 80), then count-back
    # from the last round (P01 90 before P09 10).
    top = [row.entrant.name for row in rows[:4]]
    assert seated(final) == [top]
    assert top == ["P10", "P01", "P09", "P02"]
    assert rows[-1].entrant.name == "P08"
    assert rows[-1].dropped
    record_round(final, {name: (5 if name == "P09" else 1) for name in names})
    running.finish(competition, scorer.user)
    competition.refresh_from_db()
    assert competition.status == Status.FINISHED
    places = [(e.name, place, amount) for e, place, amount in tables.winners(competition)]
    # Pool 10 × 1000 (P08's fee stays in it); the final puts P09 first (6000), then the
    # others tied on the final's points in the order of the standing before it: P10 (4000).
    assert places == [("P09", 1, 6000), ("P10", 2, 4000)]
    assert TableResult.objects.filter(table__round=final).count() == 4


def test_a_drop_balances_only_the_tables_whose_game_has_not_begun(club, scorer):
    competition = running.announce(
        club,
        scorer.user,
        name="Stopp-cupen",
        kind=Kind.CHAMPIONSHIP,
        game_key="stopp",  # 3 to 6 players a table
        rounds=2,
        table_size=4,
    )
    names = [f"S{n:02}" for n in range(1, 13)]
    for name in names:
        running.enter(competition, scorer.user, member=make_member(club, name))
    first = running.start(competition, scorer.user)
    assert seated(first) == [
        ["S01", "S04", "S07", "S10"],
        ["S02", "S05", "S08", "S11"],
        ["S03", "S06", "S09", "S12"],
    ]
    # Table 1's game is under way (it has its result); then S03 and S06 of table 3 drop.
    record_round_table(first.tables.get(number=1))
    for name in ("S03", "S06"):
        running.withdraw(competition.entrants.get(member__name=name), scorer.user)
    # Tables 2 and 3 (6 players left) balance to 3 + 3: the last-seated of table 2 moves.
    assert seated(first) == [
        ["S01", "S04", "S07", "S10"],
        ["S02", "S05", "S08"],
        ["S09", "S12", "S11"],
    ]
    dropped = competition.entrants.filter(dropped_after__isnull=False)
    assert {e.dropped_after for e in dropped} == {0}  # they played no round


def record_round_table(table):
    entrants = [s.entrant for s in table.seats.order_by("position")]
    results.record(
        table,
        f"game:{table.pk}",
        [results.Row(entrant=e, score=10 - i, placement=i + 1) for i, e in enumerate(entrants)],
    )
