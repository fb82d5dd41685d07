"""Tvåmanswhist: worked examples from the rules text (populara_kortspel.sv.txt, "Tvåmanswhist
regler") and NOTES.md TW1–TW2, the match a club chooses, bad input, and invariants."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import tvamanswhist as t
from engine.errors import IllegalEvent

PLAYERS = ("a", "b")


def tricks(a=None, b=None, **extra):
    counted = {p: n for p, n in (("a", a), ("b", b)) if n is not None}
    return {"type": "deal", "tricks": counted, **extra}


def weighted(early, late):
    return {
        "type": "deal",
        "early": {"a": early[0], "b": early[1]},
        "late": {"a": late[0], "b": late[1]},
    }


def play(*events, **rules):
    state = t.new_game(PLAYERS, t.Rules(**rules))
    for event in events:
        state = t.apply(state, event)
    return state


# --- one deal -------------------------------------------------------------------------------


def test_the_thirteen_counted_tricks_decide_the_deal():
    # "De första tretton sticken … saknar betydelse … vinnaren är förstås den som tar flest av
    # dessa."
    state = play(tricks(8, 5))
    row = state.sheet[0]
    assert row.counted == {"a": 8, "b": 5}
    assert row.winner == "a"
    assert state.deals_won == {"a": 1, "b": 0}
    assert state.points == {"a": 8, "b": 5}
    assert state.log == ("Deal 1: a wins 8–5 in tricks · deals won 1–0",)


def test_one_players_tricks_are_enough_the_other_took_the_rest():
    state = play(tricks(b=6))
    assert state.sheet[0].counted == {"a": 7, "b": 6}
    assert state.sheet[0].winner == "a"


def test_the_deal_alternates_between_the_two_players():
    state = t.new_game(PLAYERS, first_dealer="b")
    assert state.dealer == "b"
    state = t.apply(state, tricks(7, 6))
    assert state.dealer == "a"
    assert state.sheet[0].dealer == "b"


def test_all_twenty_six_tricks_may_count_and_the_last_trick_breaks_thirteen_all():
    # Variant: "räkna alla 26 sticken … Slutar det då 13-13, vinner den som tog det sista
    # sticket." TW2.
    state = play(tricks(15, 11), counting="26")
    assert state.sheet[0].winner == "a"
    state = t.apply(state, tricks(13, 13, last="b"))
    assert state.sheet[1].winner == "b"
    assert state.sheet[1].last == "b"
    assert state.deals_won == {"a": 1, "b": 1}
    assert state.points == {"a": 28, "b": 24}


def test_thirteen_all_needs_the_last_trick():
    with pytest.raises(IllegalEvent, match="last trick"):
        play(tricks(13, 13), counting="26")


def test_early_tricks_may_count_one_point_and_late_tricks_two():
    # Variant: "de första tretton sticken ger 1 poäng per styck, medan de sista tretton ger 2
    # poäng styck. Då kan det inte sluta lika." a 10 + 2·4 = 18, b 3 + 2·9 = 21.
    state = play(weighted((10, 3), (4, 9)), counting="points")
    row = state.sheet[0]
    assert row.counted == {"a": 18, "b": 21}
    assert row.winner == "b"
    assert sum(row.counted.values()) == 39


def test_the_weighted_count_needs_both_halves():
    with pytest.raises(IllegalEvent, match="give the early and the late tricks"):
        play(tricks(7, 6), counting="points")


# --- the match (TW1) ---------------------------------------------------------------------------


def test_by_default_the_first_to_win_three_deals_wins_the_match():
    state = play(tricks(8, 5), tricks(5, 8), tricks(7, 6))
    assert not state.finished
    state = t.apply(state, tricks(9, 4))
    assert state.finished
    assert state.winner == "a"
    assert state.expected == ()
    assert [(s.player, s.placement, s.score) for s in state.standings] == [("a", 1, 3), ("b", 2, 1)]
    assert state.league_details == {"a": {"deals_won": 3}, "b": {"deals_won": 1}}
    with pytest.raises(IllegalEvent, match="over"):
        t.apply(state, tricks(7, 6))


def test_a_club_may_play_one_deal_as_the_match():
    state = play(tricks(4, 9), deals_to_win=1)
    assert state.finished
    assert state.winner == "b"


def test_a_points_match_ends_when_someone_reaches_the_points():
    state = play(tricks(9, 4), tricks(9, 4), deals_to_win=0, points_to_win=20)
    assert state.points == {"a": 18, "b": 8}
    assert not state.finished
    state = t.apply(state, tricks(2, 11))
    assert state.points == {"a": 20, "b": 19}
    assert state.finished
    assert state.winner == "a"
    assert [(s.player, s.score) for s in state.standings] == [("a", 20), ("b", 19)]


def test_when_both_reach_the_points_in_one_deal_the_higher_total_wins():
    # a 24 – b 15 after three deals; b wins the fourth 10–3, but a has more: 27 against 25.
    state = play(tricks(9, 4), tricks(8, 5), tricks(7, 6), deals_to_win=0, points_to_win=25)
    assert state.points == {"a": 24, "b": 15}
    state = t.apply(state, tricks(3, 10))
    assert state.sheet[-1].winner == "b"
    assert state.finished
    assert state.winner == "a"


def test_equal_totals_over_the_points_go_to_the_deals_winner():
    state = play(tricks(5, 8), tricks(7, 6), deals_to_win=0, points_to_win=25)  # 12 – 14
    state = t.apply(state, tricks(7, 6))  # 19 – 20
    state = t.apply(state, tricks(7, 6))  # 26 – 26: a won this deal
    assert state.points == {"a": 26, "b": 26}
    assert state.winner == "a"


def test_the_match_can_be_ended_by_hand_and_its_result_reaches_the_league():
    # TW1: with no target (both 0) the match runs until the table ends it.
    state = play(tricks(8, 5), tricks(5, 8), tricks(9, 4), deals_to_win=0)
    assert not state.finished
    assert state.expected == ("deal", "end")
    state = t.apply(state, {"type": "end"})
    assert state.finished
    assert state.winner == "a"
    assert [(s.player, s.placement, s.score) for s in state.standings] == [("a", 1, 2), ("b", 2, 1)]


def test_a_match_ended_level_is_shared():
    state = play(tricks(8, 5), tricks(5, 8), {"type": "end"})
    assert state.finished
    assert state.winner is None
    assert [s.placement for s in state.standings] == [1, 1]


def test_a_points_match_ended_by_hand_ranks_by_points():
    state = play(tricks(8, 5), tricks(6, 7), {"type": "end"}, deals_to_win=0, points_to_win=50)
    assert [(s.player, s.placement, s.score) for s in state.standings] == [
        ("a", 1, 14),
        ("b", 2, 12),
    ]


def test_a_match_without_a_deal_cannot_be_ended():
    with pytest.raises(IllegalEvent, match="no deal"):
        play({"type": "end"})


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (tricks(8, 6), "13"),
        (tricks(14), "14"),
        (tricks(-1), "-1"),
        (tricks("7"), "whole number"),
        ({"type": "deal", "tricks": {"a": 7, "x": 6}}, "'x'"),
        ({"type": "deal", "tricks": {}}, "tricks"),
        ({"type": "deal"}, "tricks"),
        ({"type": "deal", "tricks": [7, 6]}, "tricks"),
        (tricks(7, 6, last="x"), "'x'"),
        ({"type": "bid"}, "bid"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            tricks(7, trick=9),
            "a deal records nothing called 'trick'; it records the tricks counted, the tricks of "
            "the first 13, the tricks of the last 13, who took the last trick",
        ),
        (
            {"type": "end", "why": "late"},
            "the end of the match records nothing called 'why'; it records only that it happened",
        ),
        (tricks(7, last=1), "a deal: who took the last trick must be a player at the table, not 1"),
        (
            {"type": "deal", "tricks": {"a": 27}},
            "a deal: the tricks counted: a must be a whole number",
        ),
        ({"type": "deal", "tricks": {"x": 7}}, "a deal: the tricks counted: 'x' is not a player"),
        ({"type": "deal", "early": "7-6"}, "a deal: the tricks of the first 13 must be"),
        (
            {"type": "bid"},
            "Two-handed whist records nothing called 'bid'; it records a deal, the end of the "
            "match",
        ),
    ],
)
def test_the_payload_is_checked_against_its_declaration(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(tricks(8), event)


def test_the_event_types_come_from_the_declared_table():
    assert t.EVENT_TYPES == ("deal", "end") == tuple(t.EVENTS)


def test_twenty_six_counted_tricks_are_checked_too():
    with pytest.raises(IllegalEvent, match="26"):
        play(tricks(14, 13), counting="26")


def test_weighted_halves_must_each_hold_thirteen_tricks():
    with pytest.raises(
        IllegalEvent, match="the tricks of the last 13: the tricks add up to 12, but 13"
    ):
        play(weighted((10, 3), (4, 8)), counting="points")


def test_the_game_is_for_two():
    with pytest.raises(IllegalEvent, match="2 players"):
        t.new_game(("a", "b", "c"))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"counting": "27"}, "counting"),
        ({"deals_to_win": -1}, "deals_to_win"),
        ({"points_to_win": -5}, "points_to_win"),
    ],
)
def test_the_rules_refuse_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        t.Rules(**options)


def test_apply_never_changes_the_state_it_was_given_and_the_state_is_json():
    state = t.new_game(PLAYERS)
    after = t.apply(state, tricks(8, 5))
    assert state.points == {"a": 0, "b": 0}
    assert state.sheet == ()
    json.dumps(dataclasses.asdict(after))


# --- what no table can produce (issue 25) --------------------------------------------------------


def test_the_last_trick_goes_to_a_player_who_took_one_of_the_last_thirteen():
    # The 26th trick is one of the last 13 and one of the 26: a player with none of them did
    # not take it.
    with pytest.raises(IllegalEvent, match="b took none of the 26 tricks"):
        play(tricks(26, 0, last="b"), counting="26")
    with pytest.raises(IllegalEvent, match="a took none of the 26 tricks"):
        play(tricks(b=26, last="a"), counting="26")
    assert play(tricks(25, 1, last="b"), counting="26").sheet[0].last == "b"
    assert play(tricks(13, 13, last="a"), counting="26").sheet[0].winner == "a"
    # The 13 count: the counted tricks are the last 13.
    with pytest.raises(IllegalEvent, match="b took none of the last 13 tricks"):
        play(tricks(13, 0, last="b"))
    assert play(tricks(12, 1, last="b")).sheet[0].last == "b"
    # The points count: the late tricks. b took all 13 early tricks but none of the late ones.
    with pytest.raises(IllegalEvent, match="b took none of the last 13 tricks"):
        play({**weighted((0, 13), (13, 0)), "last": "b"}, counting="points")
    state = play({**weighted((0, 13), (12, 1)), "last": "b"}, counting="points")
    assert state.sheet[0].counted == {"a": 24, "b": 15}


def test_every_split_of_each_half_is_accepted():
    # Any number of each half's 13 tricks can go to either player (see the docstring).
    for early in range(14):
        for late in range(14):
            state = play(weighted((early, 13 - early), (late, 13 - late)), counting="points")
            assert state.sheet[0].counted["a"] == early + 2 * late


def test_a_game_stored_before_these_checks_replays_as_recorded():
    state = t.new_game(PLAYERS, t.Rules(counting="26"), legacy_facts=True)
    assert state.legacy_facts
    assert t.apply(state, tricks(26, 0, last="b")).sheet[0].winner == "a"
    assert not t.new_game(PLAYERS).legacy_facts


# --- invariants ------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    counting=st.sampled_from(t.COUNTINGS),
    deals_to_win=st.integers(0, 4),
    points_to_win=st.sampled_from([0, 20, 40]),
    draws=st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13), st.booleans()), max_size=12),
)
def test_the_match_keeps_its_invariants(counting, deals_to_win, points_to_win, draws):
    state = t.new_game(PLAYERS, t.Rules(counting, deals_to_win, points_to_win))
    total = {"13": 13, "26": 26, "points": 39}[counting]
    for early, late, last_a in draws:
        if state.finished:
            break
        if counting == "points":
            event = weighted((early, 13 - early), (late, 13 - late))
        elif counting == "26":
            # The last trick goes to a player who took at least one (issue 25).
            taker = "a" if (last_a and early + late) or early + late == 26 else "b"
            event = tricks(early + late, last=taker)
        else:
            event = tricks(late)
        state = t.apply(state, event)
        row = state.sheet[-1]
        assert sum(row.counted.values()) == total
        loser = next(p for p in PLAYERS if p != row.winner)
        assert row.counted[row.winner] >= row.counted[loser]
    played = len(state.sheet)
    assert sum(state.deals_won.values()) == played
    for p in PLAYERS:
        assert state.points[p] == sum(r.counted[p] for r in state.sheet)
        assert state.deals_won[p] == sum(r.winner == p for r in state.sheet)
    reached = (deals_to_win and max(state.deals_won.values()) >= deals_to_win) or (
        points_to_win and max(state.points.values()) >= points_to_win
    )
    assert state.finished == bool(reached)
    if state.finished:
        assert state.standings[0].player == state.winner
        assert state.standings[0].placement == 1
        assert state.standings[1].placement == 2
