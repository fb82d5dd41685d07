"""Two-player standings (skunks as the club chooses, byes, opponents' wins) and the
multi-table ranking."""

from __future__ import annotations

import pytest

from competitions.base import CompetitionError
from competitions.standings import CRIBBAGE, Game, MatchRules, multi_table, skunk_bonus, two_player


def test_skunk_bonuses_follow_the_loser_s_score_and_the_club_s_choice():
    assert [skunk_bonus(points) for points in (91, 90, 61, 60, 0)] == [0, 1, 1, 2, 2]
    no_skunks = MatchRules(skunk_bonus=0, double_skunk_bonus=0)
    lines = two_player([Game("a", "b", 121, 40)], no_skunks)
    assert [(line.player, line.match_points, line.skunks) for line in lines] == [
        ("a", 2, 1),
        ("b", 0, 0),
    ]


def test_opponents_wins_break_a_tie_on_match_points_and_spread():
    # a and c each beat someone by 10; a's victim (b) then won a game, c's (d) did not.
    games = [
        Game("c", "d", 121, 111),
        Game("a", "b", 121, 111),
        Game("b", "e", 121, 111),
        Game("e", "d", 121, 111),
    ]
    lines = two_player(games, MatchRules(game_to=121))
    a, c = (next(line for line in lines if line.player == p) for p in "ac")
    assert (a.match_points, a.spread) == (c.match_points, c.spread) == (2, 10)
    assert (a.opponents_wins, c.opponents_wins) == (1, 0)
    assert [line.player for line in lines].index("a") < [line.player for line in lines].index("c")


def test_equal_on_every_column_share_the_rank_in_seeding_order():
    games = [Game("a", "b", 121, 100), Game("c", "d", 121, 100)]
    lines = two_player(games, players=["c", "a", "b", "d"])
    assert [(line.rank, line.player) for line in lines] == [(1, "c"), (1, "a"), (3, "b"), (3, "d")]


def test_a_bye_is_a_win_by_the_club_s_numbers_and_wins_can_rank_first():
    games = [Game("a", None), Game("b", "c", 121, 50)]
    lines = {line.player: line for line in two_player(games)}
    assert (lines["a"].wins, lines["a"].byes, lines["a"].match_points, lines["a"].games) == (
        1,
        1,
        2,
        0,
    )
    by_wins = MatchRules(order=("wins", "spread"), bye_points=1, bye_spread=10)
    lines = two_player(games, by_wins)
    assert [(line.player, line.match_points) for line in lines] == [("b", 4), ("a", 1), ("c", 0)]


@pytest.mark.parametrize(
    "game",
    [Game("a", "b", 121, 121), Game("a", "b", 120, 100), Game("a", "a", 121, 3)],
)
def test_a_game_without_one_winner_on_121_is_refused(game):
    with pytest.raises(CompetitionError):
        two_player([game], CRIBBAGE)


def test_a_multi_table_event_sums_rounds_then_best_round_then_counts_back():
    rounds = [
        {"a": 10, "b": 5, "c": 8, "d": 7, "e": 12},
        {"a": 5, "b": 10, "c": 7, "d": 8},  # e dropped after round 1
    ]
    lines = multi_table(rounds)
    assert [(line.rank, line.player, line.total) for line in lines] == [
        (1, "b", 15),  # 15 and a best of 10, like a; b's last round (10) beats a's (5)
        (2, "a", 15),
        (3, "d", 15),  # best round 8
        (4, "c", 15),  # best round 8 too, but c's last round is 7 against d's 8
        (5, "e", 12),
    ]
    assert lines[-1].rounds == (12, None)
