"""A competition table's finished game voided: its result goes with it, and the table can
start a new game (scoring's void_game tells the competition, as undo does)."""

from __future__ import annotations

from competitions import running
from competitions.models import Kind, TableResult
from scoring import recording
from tests.competitions.playing import peg_to, play_cribbage, start
from tests.factories import make_member


def test_voiding_a_tables_finished_game_takes_its_result_back(club, scorer):
    competition = running.announce(
        club, scorer.user, name="Cup", kind=Kind.SWISS, game_key="cribbage", rounds=1
    )
    for name in ("Anna", "Bo"):
        running.enter(competition, scorer.user, member=make_member(club, name))
    (table,) = running.start(competition, scorer.user).tables.exclude(number=0)
    game = play_cribbage(table, 121, 100, scorer.user)
    assert TableResult.objects.filter(table=table).count() == 2

    recording.void_game(game, "fel bord", scorer.user)
    assert not TableResult.objects.filter(table=table).exists()

    again = peg_to(start(table, scorer.user), 90, 121)
    assert again.pk != game.pk
    scores = dict(TableResult.objects.filter(table=table).values_list("score", "placement"))
    assert scores == {121: 1, 90: 2}
