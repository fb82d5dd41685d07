"""A table's result comes from its game on the pad (C1): the hand-worked 8-player cribbage
Swiss of tests/competitions/test_cribbage_swiss.py, played through the scoring view, ranks
as it was worked by hand; the table's pad link starts one game, for the club's scorers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from competitions import links, running, tables
from competitions.models import Kind, TableResult
from scoring.models import Game
from tests.competitions.playing import peg_to
from tests.competitions.test_cribbage_swiss import EXPECTED_PAIRINGS, SCORES, SEEDING
from tests.conftest import client_for
from tests.factories import make_member


def play_url(table):
    return reverse(
        "scoring:competition-table-play",
        kwargs={"club_slug": table.round.competition.club.slug, "table_id": table.pk},
    )


def test_the_hand_worked_swiss_played_on_the_pads_ranks_as_worked_by_hand(club, scorer):
    competition = running.announce(
        club, scorer.user, name="ACC-cupen", kind=Kind.SWISS, game_key="cribbage", rounds=3
    )
    for letter in SEEDING:
        running.enter(competition, scorer.user, member=make_member(club, letter))
    client = client_for(scorer)
    round_ = running.start(competition, scorer.user)
    for number in range(3):
        seated = [
            tuple(s.entrant.name for s in table.seats.order_by("position"))
            for table in round_.tables.order_by("number")
        ]
        assert seated == EXPECTED_PAIRINGS[number]
        for table in round_.tables.order_by("number"):
            assert links.table_link(table) == play_url(table)
            response = client.post(play_url(table))
            game = Game.objects.get(competition_table=table)
            assert response.status_code == 302
            assert response["Location"].endswith(f"/games/{game.pk}/")
            first, second = (s.entrant.name for s in table.seats.order_by("position"))
            peg_to(game, SCORES[number][first], SCORES[number][second])
        if number < 2:
            round_ = running.next_round(competition, scorer.user)
    rows = tables.standings(competition)
    assert [(r.rank, r.entrant.name, r.match_points, r.spread, r.opponents_wins) for r in rows] == [
        (1, "H", 8, 80, 4),
        (2, "C", 6, 74, 5),
        (3, "A", 5, 41, 6),
        (4, "B", 4, 26, 4),
        (5, "D", 4, 4, 4),
        (6, "E", 2, -21, 3),
        (7, "F", 2, -61, 5),
        (8, "G", 0, -143, 5),
    ]
    assert TableResult.objects.filter(table__round__competition=competition).count() == 24
    finished = [row for row in tables.round_view(round_) if row.finished]
    assert len(finished) == 4
    assert tables.progress(round_) == (4, 4)


@pytest.fixture
def paired(club, scorer):
    competition = running.announce(
        club, scorer.user, name="Cupen", kind=Kind.SWISS, game_key="cribbage", rounds=2
    )
    running.enter(competition, scorer.user, member=make_member(club, "Anna"))
    running.enter(competition, scorer.user, guest_name="Gästen Gustav")
    round_ = running.start(competition, scorer.user)
    return round_.tables.get(number=1)


def test_a_double_tap_on_start_opens_one_game_with_the_tables_member_and_guest(paired, scorer):
    client = client_for(scorer)
    first = client.post(play_url(paired))
    second = client.post(play_url(paired))
    assert first["Location"] == second["Location"]
    game = Game.objects.get(competition_table=paired)
    assert [s.name for s in game.seats.order_by("position")] == ["Anna", "Gästen Gustav"]
    assert game.game_key == "cribbage"
    # GET for any member of the club: the game.
    assert (
        client_for(make_member(paired.round.competition.club))
        .get(play_url(paired))["Location"]
        .endswith(f"/games/{game.pk}/")
    )


def test_only_the_clubs_scorers_start_a_table_and_outsiders_see_nothing(paired, outsider):
    member = make_member(paired.round.competition.club, "Bara Medlem")
    assert client_for(member).post(play_url(paired)).status_code == 403
    assert client_for(outsider).get(play_url(paired)).status_code == 404
    # Without a game, GET goes to the competition's page.
    response = client_for(member).get(play_url(paired))
    assert response.status_code == 302
    assert not Game.objects.exists()


def test_a_finished_game_at_a_table_reopened_takes_its_results_back(paired, scorer):
    from tests.competitions.playing import play_cribbage, undo_last

    game = play_cribbage(paired, 121, 50)
    assert {r.score for r in paired.results.all()} == {121, 50}
    rows = {r.entrant.name: r for r in tables.standings(paired.round.competition)}
    assert (rows["Anna"].match_points, rows["Anna"].skunks) == (4, 1)
    undo_last(game)
    assert not paired.results.exists()
