"""Running a two-player competition through real scoring games (C1): the lifecycle, round
robin to the end, drops and late entries re-pairing the next round only, corrected results."""

from __future__ import annotations

import itertools

import pytest

from competitions import running, tables
from competitions.models import Entrant, Kind, Round, Status, TableResult
from tests.competitions.playing import append, play_cribbage, undo_last
from tests.factories import make_member


def swiss(club, by, rounds=3, **extra):
    return running.announce(
        club, by, name="Höstcupen", kind=Kind.SWISS, game_key="cribbage", rounds=rounds, **extra
    )


def enter_all(competition, by, names):
    return [
        running.enter(competition, by, member=make_member(competition.club, name)) for name in names
    ]


def pairs(round_: Round):
    return [
        tuple(seat.entrant.name for seat in table.seats.order_by("position"))
        for table in round_.tables.order_by("number")
        if not table.is_bye
    ]


def byes(round_: Round):
    return sorted(
        seat.entrant.name for table in round_.tables.filter(number=0) for seat in table.seats.all()
    )


def play_round(round_: Round, score=lambda a, b: (121, 100)):
    for table in round_.tables.exclude(number=0).order_by("number"):
        seats = list(table.seats.order_by("position"))
        first, second = score(seats[0].entrant.name, seats[1].entrant.name)
        play_cribbage(table, first, second)


def test_a_swiss_is_announced_entered_started_and_paired_by_seed(club, scorer):
    competition = swiss(club, scorer.user)
    enter_all(competition, scorer.user, "ABCDEF")
    first = running.start(competition, scorer.user)
    competition.refresh_from_db()
    assert competition.status == Status.RUNNING
    assert pairs(first) == [("A", "B"), ("C", "D"), ("E", "F")]
    assert running.start(competition, scorer.user) == first  # a second start: the same round


def test_the_next_round_waits_for_every_table(club, scorer):
    competition = swiss(club, scorer.user)
    enter_all(competition, scorer.user, "ABCD")
    first = running.start(competition, scorer.user)
    table = first.tables.get(number=1)
    play_cribbage(table, 121, 80)
    with pytest.raises(running.CompetitionRefused) as refused:
        running.next_round(competition, scorer.user)
    assert refused.value.code == "unfinished"
    assert competition.round_set.count() == 1
    play_cribbage(first.tables.get(number=2), 100, 121)
    second = running.next_round(competition, scorer.user, number=2)
    assert running.next_round(competition, scorer.user, number=2) == second  # a double tap
    with pytest.raises(running.CompetitionRefused) as refused:
        running.next_round(competition, scorer.user)
    assert refused.value.code == "unfinished"
    assert competition.round_set.count() == 2


@pytest.mark.parametrize("size", [5, 6])
def test_a_round_robin_runs_to_the_end_with_every_pair_met_once(club, scorer, size):
    competition = running.announce(
        club, scorer.user, name="Ligan", kind=Kind.ROUND_ROBIN, game_key="cribbage"
    )
    names = "ABCDEF"[:size]
    enter_all(competition, scorer.user, names)
    round_ = running.start(competition, scorer.user)
    competition.refresh_from_db()
    assert competition.rounds == (size if size % 2 else size - 1)
    met, had_bye = [], []
    for number in range(1, competition.rounds + 1):
        assert round_.number == number
        met += [frozenset(pair) for pair in pairs(round_)]
        had_bye += byes(round_)
        play_round(round_, lambda a, b: (121, 90) if a < b else (95, 121))
        if number < competition.rounds:
            round_ = running.next_round(competition, scorer.user)
    with pytest.raises(running.CompetitionRefused) as refused:
        running.next_round(competition, scorer.user)
    assert refused.value.code == "last_round"
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(names, 2)), key=sorted
    )
    assert sorted(had_bye) == (sorted(names) if size % 2 else [])
    running.finish(competition, scorer.user)
    rows = tables.standings(competition)
    # The lower letter always won: A won every game, then B, …
    assert [row.entrant.name for row in rows] == list(names)
    assert rows[0].wins == size - 1 + (1 if size % 2 else 0)


def test_a_round_robin_refuses_a_late_entry_and_gives_a_dropped_players_opponents_byes(
    club, scorer
):
    competition = running.announce(
        club, scorer.user, name="Ligan", kind=Kind.ROUND_ROBIN, game_key="cribbage"
    )
    a, b, c, d = enter_all(competition, scorer.user, "ABCD")
    first = running.start(competition, scorer.user)
    with pytest.raises(running.CompetitionRefused) as refused:
        running.enter(competition, scorer.user, guest_name="Sen")
    assert refused.value.code == "late_entry"
    play_round(first)
    running.withdraw(d, scorer.user)
    second = running.next_round(competition, scorer.user)
    assert len(pairs(second)) == 1
    assert len(byes(second)) == 1
    assert "D" not in [n for p in pairs(second) for n in p]


def test_a_drop_and_a_late_entry_re_pair_round_three_only(club, scorer):
    competition = swiss(club, scorer.user)
    entrants = enter_all(competition, scorer.user, "ABCDEF")
    first = running.start(competition, scorer.user)
    play_round(first)
    round_one = pairs(first)
    by_name = {e.name: e for e in entrants}
    # Round 2 is made; then B drops and G enters during round 2.
    second = running.next_round(competition, scorer.user)
    round_two = pairs(second)
    running.withdraw(by_name["B"], scorer.user)
    late = running.enter(competition, scorer.user, guest_name="G")
    assert late.joins_round == 3
    assert pairs(first) == round_one
    # B's round-2 table had not begun: his opponent takes a bye, the rest stand.
    b_pair = next(p for p in round_two if "B" in p)
    opponent = next(n for n in b_pair if n != "B")
    assert pairs(second) == [p for p in round_two if p != b_pair]
    assert byes(second) == [opponent]
    assert Entrant.objects.get(pk=by_name["B"].pk).dropped_after == 1
    play_round(second)
    third = running.next_round(competition, scorer.user)
    playing = sorted(n for p in pairs(third) for n in p) + byes(third)
    assert sorted(playing) == sorted("ACDEFG")
    assert pairs(first) == round_one


def test_a_corrected_result_of_round_one_leaves_round_two_as_it_was(club, scorer):
    competition = swiss(club, scorer.user)
    enter_all(competition, scorer.user, "ABCD")
    first = running.start(competition, scorer.user)
    games = []
    for table in first.tables.order_by("number"):
        games.append(play_cribbage(table, 121, 100))
    second = running.next_round(competition, scorer.user)
    before = pairs(second)
    # The first table's game reopens (undo) and finishes again the other way round.
    undo_last(games[0])
    assert not TableResult.objects.filter(table__round=first, table__number=1).exists()
    with pytest.raises(running.CompetitionRefused):
        running.finish(competition, scorer.user)
    game = games[0]
    game.refresh_from_db()
    append(game, "peg", {"player": "s1", "points": 21}, "again")
    game.refresh_from_db()
    assert game.status == "finished"
    results = {
        r.entrant.name: r.score
        for r in TableResult.objects.filter(table__round=first, table__number=1)
    }
    # A's last peg of 5 (116 → 121) was taken back; B pegged 21 from 100 and won.
    assert results == {"A": 116, "B": 121}
    assert pairs(second) == before
    rows = {row.entrant.name: row for row in tables.standings(competition)}
    assert (rows["A"].wins, rows["B"].wins, rows["B"].spread) == (0, 1, 5)


def test_a_drop_at_a_table_whose_game_has_started_keeps_the_table(club, scorer):
    from tests.competitions.playing import start

    competition = swiss(club, scorer.user)
    a, _b, _c, _d = enter_all(competition, scorer.user, "ABCD")
    first = running.start(competition, scorer.user)
    start(first.tables.get(number=1))
    running.withdraw(a, scorer.user)
    a.refresh_from_db()
    assert a.dropped_after == 1  # he plays round 1 out (or the host ends his game)
    assert pairs(first) == [("A", "B"), ("C", "D")]
    assert byes(first) == []
