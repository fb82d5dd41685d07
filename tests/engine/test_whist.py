"""Whist: worked examples derived by hand from the rules text (populara_kortspel.sv.txt, "Whist
regler") and NOTES.md W1–W8, bad input, and hypothesis invariants of an evening of rubbers."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import whist as w
from engine.base import net_by_account
from engine.errors import IllegalEvent

PLAYERS = ("a", "b", "c", "d")  # side 0 = a & c, side 1 = b & d


def deal(side, tricks, honours=None):
    """Side ``side`` took ``tricks`` (the other side the rest); ``honours`` = {side: count}."""
    event = {"type": "deal", "tricks": {str(side): tricks}}
    if honours:
        event["honours"] = {str(k): v for k, v in honours.items()}
    return event


def guerre(tricks, honours=None):
    event = {"type": "deal", "tricks": dict(zip(PLAYERS, tricks, strict=True))}
    if honours:
        event["honours"] = honours
    return event


def states(*events, **rules):
    """The state after each event (the first is the new game)."""
    state = w.new_game(PLAYERS, w.Rules(**rules))
    result = [state]
    for event in events:
        state = w.apply(state, event)
        result.append(state)
    return result


def play(*events, **rules):
    return states(*events, **rules)[-1]


def last_row(state):
    """The row of the last deal (after a rubber it sits in the finished rubber)."""
    return state.deals[-1] if state.deals else state.rubbers[-1].deals[-1]


def walk(events, expected, **rules):
    """Check each deal's row and the money so far: (points, scores, game value, games, rubber
    points, nets). ``scores`` is the game score after the deal, before a game resets it."""
    transfers = []
    for state, event, want in zip(states(*events, **rules)[1:], events, expected, strict=True):
        transfers.extend(state.transfers)
        row = last_row(state)
        points, scores, value, games, rubber_points, nets = want
        got = (
            row.points,
            row.scores,
            row.game_value,
            row.games,
            row.rubber_points,
            {k: v for k, v in net_by_account(transfers).items() if v},
        )
        assert got == (points, scores, value, games, rubber_points, nets), event
    return state


# --- the calculators -------------------------------------------------------------------------


def test_a_trick_is_each_trick_over_six_and_over_four_a_la_guerre():
    # "För varje trick (stick utöver de sex första) får vinnarparet 1 trickpoäng; nio stick ger
    # alltså 3 trickpoäng"; à la guerre "stick utöver de fyra första".
    assert [w.trick_points(n, "short") for n in (0, 6, 7, 9, 13)] == [0, 0, 1, 3, 7]
    assert [w.trick_points(n, "guerre") for n in (0, 4, 5, 9, 13)] == [0, 0, 1, 5, 9]


def test_honours_are_worth_two_for_three_and_four_for_four_and_five_for_five_a_la_guerre():
    assert [w.honour_points(n, "short") for n in (0, 3, 4)] == [0, 2, 4]
    assert [w.honour_points(n, "long") for n in (0, 3, 4)] == [0, 2, 4]
    assert [w.honour_points(n, "guerre") for n in (0, 3, 4, 5)] == [0, 2, 4, 5]
    assert w.honour_points(4, "american") == 0  # "inga honnörspoäng"


@pytest.mark.parametrize(
    ("variant", "game_values", "by_opponents_score"),
    [
        # Seed: 3 at 0, 2 at 1–2, 1 at 3–4.
        ("short", "half", [3, 2, 2, 1, 1]),
        ("short", "literal", [3, 2, 2, 1, 1]),
        # W2: double while the opponents have less than half the game.
        ("long", "half", [3, 2, 2, 2, 2, 1, 1, 1, 1, 1]),
        ("american", "half", [3, 2, 2, 2, 1, 1, 1]),
        # W2 alternative: the seed's numbers read literally, 3 or more single.
        ("long", "literal", [3, 2, 2, 1, 1, 1, 1, 1, 1, 1]),
        ("american", "literal", [3, 2, 2, 1, 1, 1, 1]),
    ],
)
def test_a_game_is_worth_treble_double_or_single_by_the_opponents_score(
    variant, game_values, by_opponents_score
):
    rules = w.Rules(variant=variant, game_values=game_values)
    assert [w.game_value(n, rules) for n in range(len(by_opponents_score))] == by_opponents_score


# --- short whist: a whole rubber ---------------------------------------------------------------


def test_a_short_whist_rubber_deal_by_deal_with_game_values_bonus_and_money():
    # Stake 1 kr per rubber point, each loser pays the difference (W3).
    paid = {"a": 600, "c": 600, "b": -600, "d": -600}
    state = walk(
        [
            deal(0, 9),  # 3 trick points
            deal(0, 8, {0: 3}),  # 3 + 2 + 2 honours = 7: game, opponents at 0 → 3
            deal(1, 7),  # new game (W1): 0–1
            deal(0, 7),  # 1–1
            deal(1, 10),  # 1 + 4 = 5: game, opponents at 1 → 2
            deal(0, 11),  # 5: game at 0 → 3, second game: rubber, +2 bonus → 8–2
        ],
        [
            ((3, 0), (3, 0), 0, (0, 0), (0, 0), {}),
            ((4, 0), (7, 0), 3, (1, 0), (3, 0), {}),
            ((0, 1), (0, 1), 0, (1, 0), (3, 0), {}),
            ((1, 0), (1, 1), 0, (1, 0), (3, 0), {}),
            ((0, 4), (1, 5), 2, (1, 1), (3, 2), {}),
            ((5, 0), (5, 0), 3, (2, 1), (8, 2), paid),
        ],
        stake_ore=100,
    )
    rubber = state.rubbers[0]
    assert (rubber.winners, rubber.points, rubber.difference) == ((0,), (8, 2), 6)
    assert rubber.nets == paid
    assert state.transfers == (w.Transfer("b", "a", 600), w.Transfer("d", "c", 600))
    # A new rubber starts at love all.
    assert (state.rubber, state.scores, state.games, state.rubber_points) == (
        2,
        (0, 0),
        (0, 0),
        (0, 0),
    )
    assert state.points == {"a": 6, "b": -6, "c": 6, "d": -6}
    assert state.rubbers_won == {"a": 1, "b": 0, "c": 1, "d": 0}
    assert state.league_details["a"] == {"rubbers_won": 1}


def test_points_beyond_game_are_not_carried_into_the_next_game():
    # W1: 13 tricks at 4 make 11; the next game starts at 0–0 for both sides.
    state = play(deal(1, 8), deal(0, 10), deal(0, 13))
    assert last_row(state).scores == (11, 2)
    assert state.scores == (0, 0)
    assert last_row(state).game_value == 2  # opponents at 2 → double


def test_a_side_makes_game_with_its_own_honours_when_it_took_a_trick():
    # At 3, one trick point and three honours (2) → 6: game. Opponents at 2 → double.
    state = play(deal(0, 9), deal(1, 8), deal(0, 7, {0: 3}))
    row = last_row(state)
    assert (row.points, row.scores, row.game, row.game_value) == ((3, 0), (6, 2), (0,), 2)


# --- W4: honours without a trick point ---------------------------------------------------------


def test_honours_without_a_trick_point_stop_one_short_of_game_from_any_score():
    # W4 (seed, not the Victorian laws): side 1 at 1 with four honours and no trick stops at 4.
    state = walk(
        [
            deal(1, 7),  # 0–1
            deal(0, 8, {1: 4}),  # 1 + 4 = 5 would be game: stops at 4
            deal(0, 7, {1: 3}),  # already at 4: stays at 4
            deal(1, 7, {1: 3}),  # a trick point: 4 + 1 + 2 = 7, game; opponents at 3 → 1
        ],
        [
            ((0, 1), (0, 1), 0, (0, 0), (0, 0), {}),
            ((2, 3), (2, 4), 0, (0, 0), (0, 0), {}),
            ((1, 0), (3, 4), 0, (0, 0), (0, 0), {}),
            ((0, 3), (3, 7), 1, (0, 1), (0, 1), {}),
        ],
    )
    rows = state.deals
    assert [r.stopped for r in rows] == [False, True, True, False]


def test_honours_without_a_trick_point_count_when_they_stay_below_game():
    # At 0 four honours make 4 (no game reached, nothing stopped); at 2 three honours make 4.
    row = last_row(play(deal(0, 8, {1: 4})))
    assert (row.points, row.scores, row.stopped) == ((2, 4), (2, 4), False)
    row = last_row(play(deal(1, 8), deal(0, 7, {1: 3})))
    assert (row.points, row.scores, row.stopped) == ((1, 2), (1, 4), False)


def test_in_long_whist_honours_without_a_trick_point_stop_at_nine():
    # W4 "long whist: 9, by the same rule".
    state = walk(
        [
            deal(1, 13),  # 0–7
            deal(0, 8, {1: 4}),  # 7 + 4 = 11: stops at 9
            deal(1, 7),  # 10: game; opponents at 2 → double (long 1–4)
        ],
        [
            ((0, 7), (0, 7), 0, (0, 0), (0, 0), {}),
            ((2, 2), (2, 9), 0, (0, 0), (0, 0), {}),
            ((0, 1), (2, 10), 2, (0, 1), (0, 2), {}),
        ],
        variant="long",
    )
    assert state.deals[1].stopped


# --- W5 and W6: the other side's honours when a side makes game --------------------------------


def test_the_other_sides_honours_do_not_count_when_a_side_makes_game():
    # W5: side 1 at 3 holds four honours while side 0 goes from 2 to 5. W6: the game's value
    # is by side 1's score before the deal (3 → single).
    state = play(deal(0, 8), deal(1, 9), deal(0, 9, {1: 4}))
    row = last_row(state)
    assert (row.points, row.scores, row.game, row.game_value) == ((3, 0), (5, 3), (0,), 1)
    assert row.honours == (0, 4)
    assert row.honours_void


def test_a_game_is_treble_when_the_opponents_had_nothing_before_the_deal():
    # W6: side 1 at 0 holds three honours in the deal side 0 makes game in: still treble.
    row = last_row(play(deal(0, 11, {1: 3})))
    assert (row.points, row.game_value, row.rubber_points, row.honours_void) == (
        (5, 0),
        3,
        (3, 0),
        True,
    )


# --- W2: long and American whist ---------------------------------------------------------------


def test_long_whist_rubbers_with_treble_double_and_single_games():
    # W2 long: 3 at 0, 2 at 1–4, 1 at 5–9.
    walk(
        [
            deal(0, 13, {0: 4}),  # 7 + 4 = 11: game, opponents 0 → 3
            deal(1, 10),  # 0–4
            deal(0, 13, {0: 3}),  # 7 + 2 = 9: no game
            deal(0, 7),  # 10: game, opponents at 4 → 2; 2–0 rubber: 3 + 2 + 2 = 7
            deal(1, 11),  # rubber 2: 0–5
            deal(0, 13, {0: 4}),  # game, opponents at 5 → 1
        ],
        [
            ((11, 0), (11, 0), 3, (1, 0), (3, 0), {}),
            ((0, 4), (0, 4), 0, (1, 0), (3, 0), {}),
            ((9, 0), (9, 4), 0, (1, 0), (3, 0), {}),
            ((1, 0), (10, 4), 2, (2, 0), (7, 0), {"a": 700, "c": 700, "b": -700, "d": -700}),
            ((0, 5), (0, 5), 0, (0, 0), (0, 0), {"a": 700, "c": 700, "b": -700, "d": -700}),
            ((11, 0), (11, 5), 1, (1, 0), (1, 0), {"a": 700, "c": 700, "b": -700, "d": -700}),
        ],
        variant="long",
        stake_ore=100,
    )


def test_long_whist_with_the_literal_game_values():
    # W2 alternative: opponents at 4 → single, so the rubber is 3 + 1 + 2 = 6.
    state = play(
        deal(0, 13, {0: 4}), deal(1, 10), deal(0, 13, {0: 3}), deal(0, 7),
        variant="long", game_values="literal",
    )  # fmt: skip
    assert state.rubbers[0].points == (6, 0)


def test_american_whist_makes_game_in_one_deal_and_has_no_honours():
    # "Det är alltså möjligt att ordna utgång på en enda giv, genom att ta alla tretton sticken."
    walk(
        [
            deal(0, 13),  # 7: game, opponents 0 → 3
            deal(1, 9),  # 0–3
            deal(0, 13),  # game, opponents at 3 → 2 (3 < 3.5); rubber 3 + 2 + 2 = 7
            deal(1, 10),  # rubber 2: 0–4
            deal(0, 13),  # game, opponents at 4 → 1
        ],
        [
            ((7, 0), (7, 0), 3, (1, 0), (3, 0), {}),
            ((0, 3), (0, 3), 0, (1, 0), (3, 0), {}),
            ((7, 0), (7, 3), 2, (2, 0), (7, 0), {"a": 350, "c": 350, "b": -350, "d": -350}),
            ((0, 4), (0, 4), 0, (0, 0), (0, 0), {"a": 350, "c": 350, "b": -350, "d": -350}),
            ((7, 0), (7, 4), 1, (1, 0), (1, 0), {"a": 350, "c": 350, "b": -350, "d": -350}),
        ],
        variant="american",
        stake_ore=50,
    )


def test_american_whist_with_the_literal_game_values():
    state = play(deal(0, 13), deal(1, 9), deal(0, 13), variant="american", game_values="literal")
    assert state.rubbers[0].points == (3 + 1 + 2, 0)


def test_american_whist_refuses_honours():
    state = w.new_game(PLAYERS, w.Rules(variant="american"))
    with pytest.raises(IllegalEvent, match="no honours"):
        w.apply(state, deal(0, 8, {0: 4}))


def test_a_club_without_honours_refuses_them_and_scores_tricks_only():
    state = w.new_game(PLAYERS, w.Rules(honours=False))
    with pytest.raises(IllegalEvent, match="without honours"):
        w.apply(state, deal(0, 8, {0: 4}))
    assert w.apply(state, deal(0, 8)).scores == (2, 0)


# --- W8: best of three ----------------------------------------------------------------------


def test_a_two_nil_rubber_ends_without_a_third_game():
    # W8: two games to side 1 end the rubber; the next deal opens rubber 2.
    state = play(deal(1, 11), deal(1, 11))
    rubber = state.rubbers[0]
    assert (rubber.winners, rubber.games, rubber.points, rubber.difference) == (
        (1,),
        (0, 2),
        (0, 3 + 3 + 2),
        8,
    )
    assert (state.rubber, state.games, state.deals) == (2, (0, 0), ())
    state = w.apply(state, deal(0, 7))
    assert (state.rubber, state.scores, len(state.rubbers)) == (2, (1, 0), 1)


def test_a_third_game_decides_a_one_all_rubber():
    state = play(deal(0, 11), deal(1, 11), deal(1, 9), deal(0, 11))
    rubber = state.rubbers[0]
    # Side 0: 3 (at 0) + 1 (side 1 at 3) + 2 bonus = 6; side 1: 3.
    assert (rubber.winners, rubber.games, rubber.points, rubber.difference) == (
        (0,),
        (2, 1),
        (6, 3),
        3,
    )


# --- W3: money ----------------------------------------------------------------------------------

RUBBER_2_1 = [deal(0, 9), deal(0, 8, {0: 3}), deal(1, 7), deal(0, 7), deal(1, 10), deal(0, 11)]


def test_each_loser_pays_the_difference_times_the_stake_to_a_winner():
    state = play(*RUBBER_2_1, stake_ore=250)
    assert state.transfers == (w.Transfer("b", "a", 1500), w.Transfer("d", "c", 1500))


def test_the_pair_can_pay_the_stake_once_between_them():
    # W3 alternative: 6 × 1 kr = 6 kr for the pair, 3 kr each.
    state = play(*RUBBER_2_1, stake_ore=100, settlement="pair")
    assert state.transfers == (w.Transfer("b", "a", 300), w.Transfer("d", "c", 300))
    # An odd öre: a 6–3 rubber at 1,01 kr is 3,03 kr → 1,52 from the first loser, 1,51.
    odd = play(deal(0, 11), deal(1, 11), deal(1, 9), deal(0, 11), stake_ore=101, settlement="pair")
    assert odd.transfers == (w.Transfer("b", "a", 152), w.Transfer("d", "c", 151))


def test_the_victorian_extras_add_a_stake_per_game_and_per_rubber():
    # W3 "Victorian practice also paid per game and per rubber": difference 6 × 1 kr, games
    # 2–1 → one game × 5 kr, the rubber 10 kr: 21 kr from each loser.
    state = play(*RUBBER_2_1, stake_ore=100, game_stake_ore=500, rubber_stake_ore=1000)
    assert state.transfers == (w.Transfer("b", "a", 2100), w.Transfer("d", "c", 2100))


def test_no_stake_moves_no_money():
    state = play(*RUBBER_2_1, stake_ore=0)
    assert state.transfers == ()
    assert state.rubbers[0].nets == {}


def test_a_rubber_won_by_side_one_is_paid_by_side_zero():
    state = play(deal(1, 11), deal(1, 11), stake_ore=100)
    assert state.transfers == (w.Transfer("a", "b", 800), w.Transfer("c", "d", 800))


# --- whist à la guerre and W7 -----------------------------------------------------------------


def test_a_partie_a_la_guerre_deal_by_deal():
    # Tricks over four, honours 2 / 4 / 5 for 3 / 4 / 5 of A-K-Q-J-10, 9 wins, stuck at 8 on
    # honours without a trick.
    steps = states(
        guerre((6, 4, 2, 1), {"b": 4}),  # a 2; b no trick, four honours 4
        guerre((5, 5, 3, 0), {"c": 3}),  # a 1, b 1; c three honours 2
        # c 2; b 5 + 4 = 9 without a trick: stuck at 8. (Not five honours: b's five would win
        # five tricks, a trick point — issue 25.)
        guerre((3, 4, 6, 0), {"b": 4}),
        guerre((2, 5, 3, 3)),  # b 8 + 1 = 9: b wins the partie
        variant="guerre",
        guerre_stake_ore=200,
    )[1:]
    assert [last_row(s).points for s in steps] == [
        (2, 4, 0, 0),
        (1, 1, 2, 0),
        (0, 3, 2, 0),
        (0, 1, 0, 0),
    ]
    assert [last_row(s).scores for s in steps] == [
        (2, 4, 0, 0),
        (3, 5, 2, 0),
        (3, 8, 4, 0),
        (3, 9, 4, 0),
    ]
    assert steps[2].deals[-1].stopped
    final = steps[-1]
    assert final.rubbers[0].winners == (1,)
    assert final.transfers == (
        w.Transfer("a", "b", 200),
        w.Transfer("c", "b", 200),
        w.Transfer("d", "b", 200),
    )
    assert final.rubbers_won == {"a": 0, "b": 1, "c": 0, "d": 0}
    assert final.scores == (0, 0, 0, 0)
    assert final.teams == {"a": 0, "b": 1, "c": 2, "d": 3}


def test_a_la_guerre_the_text_gives_no_money_by_default():
    state = play(guerre((13, 0, 0, 0)), variant="guerre")  # 9 tricks over four: 9, a wins
    assert state.rubbers[0].winners == (0,)
    assert state.transfers == ()


TO_8_AND_8 = [guerre((12, 1, 0, 0)), guerre((1, 12, 0, 0))]  # a 8, b 8


@pytest.mark.parametrize(
    ("tie", "winners"),
    [
        ("total_then_tricks", (0,)),  # a 8 + 1 + 4 = 13 beats b 7 + 2 = 9
        ("tricks_then_total", (1,)),  # b took 6 tricks, a 5
        ("shared", (0, 1)),
    ],
)
def test_several_players_reaching_nine_in_one_deal_are_resolved_by_the_club_option(tie, winners):
    # W7. a at 8, b at 7: a takes 5 tricks (1) with four honours (4) → 13; b takes 6 (2) → 9.
    events = [guerre((12, 1, 0, 0)), guerre((0, 11, 2, 0)), guerre((5, 6, 2, 0), {"a": 4})]
    state = play(*events, variant="guerre", guerre_tie=tie, guerre_stake_ore=100)
    assert last_row(state).scores == (13, 9, 0, 0)
    assert state.rubbers[0].winners == winners
    assert sum(net_by_account(state.transfers).values()) == 0
    for seat in winners:
        assert state.rubbers_won[PLAYERS[seat]] == 1


def test_a_full_tie_at_nine_is_shared():
    # W7: both at 8 take five tricks (9 each): equal totals, equal tricks → both win; each
    # loser pays each winner.
    state = play(*TO_8_AND_8, guerre((5, 5, 3, 0)), variant="guerre", guerre_stake_ore=100)
    assert state.rubbers[0].winners == (0, 1)
    assert "a and b win the partie" in state.log
    assert net_by_account(state.transfers) == {"a": 200, "b": 200, "c": -200, "d": -200}


def test_a_la_guerre_the_standings_count_parties_won():
    state = play(
        guerre((13, 0, 0, 0)), guerre((0, 13, 0, 0)), guerre((13, 0, 0, 0)),
        {"type": "end_evening"}, variant="guerre",
    )  # fmt: skip
    assert [(s.player, s.placement, s.score) for s in state.standings] == [
        ("a", 1, 2),
        ("b", 2, 1),
        ("c", 3, 0),
        ("d", 3, 0),
    ]


def test_the_fourth_players_tricks_may_be_left_out_a_la_guerre():
    state = w.new_game(PLAYERS, w.Rules(variant="guerre"))
    state = w.apply(state, {"type": "deal", "tricks": {"a": 6, "b": 4, "c": 2}})
    assert last_row(state).tricks == (6, 4, 2, 1)


# --- the evening ------------------------------------------------------------------------------


def test_the_evening_continues_rubber_after_rubber_until_the_scorer_ends_it():
    one = [deal(0, 11), deal(0, 11)]  # side 0 wins 8–0
    two = [deal(1, 11), deal(0, 11), deal(1, 11)]  # side 1 wins 3 + 3 + 2 = 8 against 3
    state = play(*one, *two, *one, deal(1, 8), stake_ore=100)
    assert [r.winners for r in state.rubbers] == [(0,), (1,), (0,)]
    assert state.rubber == 4
    assert state.scores == (0, 2)
    assert state.expected == ("deal", "end_evening")
    assert not state.finished
    state = w.apply(state, {"type": "end_evening"})
    assert state.finished
    assert state.expected == ()
    assert state.transfers == ()  # the running rubber is not scored
    # Net rubber points: side 0 +8 −5 +8 = 11.
    assert state.points == {"a": 11, "b": -11, "c": 11, "d": -11}
    assert [(s.player, s.placement, s.score) for s in state.standings] == [
        ("a", 1, 11),
        ("c", 1, 11),
        ("b", 3, -11),
        ("d", 3, -11),
    ]
    assert state.teams == {"a": 0, "b": 1, "c": 0, "d": 1}
    assert state.league_details == {
        "a": {"rubbers_won": 2},
        "b": {"rubbers_won": 1},
        "c": {"rubbers_won": 2},
        "d": {"rubbers_won": 1},
    }
    with pytest.raises(IllegalEvent, match="over"):
        w.apply(state, deal(0, 7))


def test_equal_net_rubber_points_share_first_place():
    state = play(deal(0, 11), deal(0, 11), deal(1, 11), deal(1, 11), {"type": "end_evening"})
    assert {s.placement for s in state.standings} == {1}
    assert state.log == ("Evening over",)
    state = play(deal(0, 11), deal(0, 11), deal(1, 7), {"type": "end_evening"})
    assert state.log == ("Evening over; the rubber in progress does not count (deals: 1)",)


def test_the_deal_passes_to_the_left_across_rubbers():
    state = w.new_game(PLAYERS, first_dealer="c")
    assert state.dealer == "c"
    dealers = []
    for event in (deal(0, 11), deal(0, 11), deal(1, 7)):
        dealers.append(state.dealer)
        state = w.apply(state, event)
    assert dealers == ["c", "d", "a"]
    assert state.dealer == "b"
    assert state.rubbers[0].deals[0].dealer == "c"


def test_the_evening_cannot_end_before_a_rubber_is_finished():
    state = play(deal(0, 11))
    assert state.expected == ("deal",)
    with pytest.raises(IllegalEvent, match="no rubber"):
        w.apply(state, {"type": "end_evening"})


def test_the_snapshot_is_plain_json():
    state = play(*RUBBER_2_1, deal(1, 8, {0: 3}), stake_ore=100)
    data = json.loads(json.dumps(dataclasses.asdict(state)))
    assert data["teams"] == {"a": 0, "b": 1, "c": 0, "d": 1}
    assert data["league_details"]["a"]["rubbers_won"] == 1


def test_the_log_names_players_by_key():
    state = play(*RUBBER_2_1, stake_ore=100)
    assert state.log == (
        "a & c: 11 tricks +5, game, 3 rubber points",
        "a & c win the rubber 8–2",
        "b pays a 6 kr",
        "d pays c 6 kr",
        "New deal: c deals",
    )
    side = state.log[1].params["side"]
    assert side.template == "{player} & {partner}"
    assert side.params == {"player": "a", "partner": "c"}
    assert state.log[2].params["amount"] == 600


# --- the rubber calculator --------------------------------------------------------------------


def test_the_rubber_calculator_scores_one_rubber_from_its_deals():
    result = w.score_rubber([deal(0, 9), deal(0, 8, {0: 3}), deal(1, 7)], w.Rules(stake_ore=100))
    assert (result.scores, result.games, result.rubber_points, result.rubbers) == (
        (0, 1),
        (1, 0),
        (3, 0),
        (),
    )
    done = w.score_rubber(RUBBER_2_1, w.Rules(stake_ore=100))
    assert done.rubbers[0].difference == 6


def test_the_rubber_calculator_refuses_deals_after_the_rubber_is_won():
    # A deal after the winner is known would start a second rubber (a second winner).
    with pytest.raises(IllegalEvent, match="deal 6"):
        w.score_rubber([*RUBBER_2_1, deal(1, 7)], w.Rules())


def test_the_rubber_calculator_is_for_partnerships():
    with pytest.raises(IllegalEvent, match="partnership"):
        w.score_rubber([guerre((13, 0, 0, 0))], w.Rules(variant="guerre"))


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "deal", "tricks": {"0": 7, "1": 7}}, "13"),
        (
            {"type": "deal", "tricks": {"0": 14}},
            "a deal: the tricks taken: 0 must be a whole number from 0 to 13",
        ),
        (
            {"type": "deal", "tricks": {"0": -1}},
            "a deal: the tricks taken: 0 must be a whole number from 0 to 13",
        ),
        ({"type": "deal", "tricks": {"0": "seven"}}, "whole number"),
        ({"type": "deal", "tricks": {"2": 7}}, "side"),
        ({"type": "deal", "tricks": {"x": 7}}, "side"),
        ({"type": "deal", "tricks": {"a": 7, "c": 6}}, "twice"),
        ({"type": "deal", "tricks": {}}, "tricks"),
        ({"type": "deal"}, "tricks"),
        (deal(0, 8, {0: 3, 1: 3}), "add up to 6, but there are four"),
        (deal(0, 8, {0: 5}), "add up to 5, but there are four"),
        ({"type": "deal", "tricks": {"0": 8}, "honours": "0:x"}, "side:count"),
        (
            {"type": "deal", "tricks": {"0": 8}, "honours": ["0", 4]},
            "a deal: the honours must be",
        ),
        (
            {"type": "deal", "tricks": {"0": 8}, "honour": "2-2"},
            "a deal records nothing called 'honour'; it records the tricks taken, the honours",
        ),
        ({"type": "deal", "honours": "2-2"}, "a deal needs the tricks taken"),
        (
            {"type": "deal", "tricks": [8, 5]},
            "a deal: the tricks taken must be sides by number or players",
        ),
        (
            {"type": "end_evening", "why": "late"},
            "the end of the evening records nothing called 'why'",
        ),
        (
            {"type": "shuffle"},
            "Whist records nothing called 'shuffle'; it records a deal, the end of the evening",
        ),
    ],
)
def test_bad_input_is_refused_with_a_message(event, message):
    state = w.new_game(PLAYERS)
    with pytest.raises(IllegalEvent, match=message):
        w.apply(state, event)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (guerre((5, 5, 5, 5)), "13"),
        ({"type": "deal", "tricks": {"a": 5, "b": 5}}, "each player"),
        (guerre((5, 4, 4, 0), {"a": 3, "b": 3}), "add up to 6, but there are five"),
        (guerre((5, 4, 4, 0), {"a": 6}), "a deal: the honours must be"),
    ],
)
def test_bad_input_a_la_guerre_is_refused(event, message):
    state = w.new_game(PLAYERS, w.Rules(variant="guerre"))
    with pytest.raises(IllegalEvent, match=message):
        w.apply(state, event)


def test_honours_may_be_written_side_colon_count_or_none():
    state = w.new_game(PLAYERS)
    compact = w.apply(state, {"type": "deal", "tricks": {"0": 8}, "honours": "1:4"})
    assert last_row(compact).honours == (0, 4)
    by_player = w.apply(state, {"type": "deal", "tricks": {"0": 8}, "honours": {"d": 4}})
    assert last_row(by_player).honours == (0, 4)
    none = w.apply(state, {"type": "deal", "tricks": {"1": 5}, "honours": "none"})
    assert last_row(none).honours == (0, 0)
    assert none.scores == (2, 0)


# --- honours entered as the split the table saw (issue 14) ---------------------------------------


def split(side, tricks, honours):
    """Side ``side`` took ``tricks``; ``honours`` the split as the pad sends it ("3-1")."""
    return {"type": "deal", "tricks": {str(side): tricks}, "honours": honours}


@pytest.mark.parametrize(
    ("honours", "points", "held"),
    [
        # "Om ett par fick alla fyra i given … får de 4 trickpoäng": one trick point + 4 = game.
        ("4-0", (5, 0), (4, 0)),
        # "Fick de tre av dem, får de 2 trickpoäng": 2 trick points + 2.
        ("3-1", (4, 0), (3, 0)),
        # The other side's three count for them too (no game: not stopped, W4).
        ("1-3", (2, 2), (0, 3)),
        # Two each: nobody has three, nobody scores honours.
        ("2-2", (2, 0), (0, 0)),
        ("0-4", (2, 4), (0, 4)),
    ],
)
def test_short_whist_honours_are_the_split_of_a_k_q_j_of_trumps(honours, points, held):
    tricks = 7 if honours == "4-0" else 8
    row = last_row(play(split(0, tricks, honours)))
    assert (row.points, row.honours) == (points, held)
    assert row.split == tuple(int(n) for n in honours.split("-"))


def test_four_honours_and_a_trick_make_game_from_nothing():
    # 7 tricks (1 trick point) and all four honours: 5, game; the opponents at 0 → treble.
    row = last_row(play(split(0, 7, "4-0")))
    assert (row.scores, row.game, row.game_value) == ((5, 0), (0,), 3)


@pytest.mark.parametrize("honours", ["3–1", "3 - 1", [3, 1], {"0": 3, "1": 1}, {"a": 3}])
def test_the_split_may_be_written_with_a_dash_as_a_list_or_by_side(honours):
    row = last_row(play(split(0, 8, honours)))
    assert (row.points, row.honours, row.split) == ((4, 0), (3, 0), (3, 1))


@pytest.mark.parametrize(
    ("honours", "message"),
    [
        # Four honours in play: a split that does not add up to four cannot have been seen.
        ("3-2", "the honours add up to 5, but there are four .A K Q J of trumps."),
        ("2-1", "the honours add up to 3, but there are four"),
        ("4-4", "the honours add up to 8, but there are four"),
        ([1, 1], "the honours add up to 2, but there are four"),
        ({"0": 3, "1": 0}, "the honours add up to 3, but there are four"),
        ("3", "honours are written as the split, one number per side, e.g. 3-1"),
        ("3-1-0-0", "one number per side"),
        ("three-one", "one number per side"),
    ],
)
def test_a_split_that_does_not_add_up_is_refused(honours, message):
    with pytest.raises(IllegalEvent, match=message):
        play(split(0, 8, honours))


@pytest.mark.parametrize(
    ("honours", "tricks", "points", "held"),
    [
        # "har man tre av dem (oavsett vilka) får man 2 poäng": a has 6 tricks (2) + 2.
        ("3-1-1-0", (6, 4, 2, 1), (4, 0, 0, 0), (3, 0, 0, 0)),
        ("2-2-1-0", (6, 4, 2, 1), (2, 0, 0, 0), (0, 0, 0, 0)),
        # "har man fyra av dem får man 4 poäng" — b without a trick, still below 9.
        ("0-4-1-0", (6, 4, 2, 1), (2, 4, 0, 0), (0, 4, 0, 0)),
        # "och har man alla fem får man 5 poäng" — and wins the five tricks they fall in (a
        # trick point): nothing beats them (issue 25; the deal had d at one trick before).
        ("0-0-0-5", (6, 1, 1, 5), (2, 0, 0, 6), (0, 0, 0, 5)),
    ],
)
def test_a_la_guerre_the_split_is_of_the_five_honours_a_to_ten(honours, tricks, points, held):
    row = last_row(play(guerre(tricks, honours), variant="guerre"))
    assert (row.points, row.honours) == (points, held)
    assert sum(row.split) == 5


@pytest.mark.parametrize(
    ("honours", "message"),
    [
        ("3-2-1-0", "the honours add up to 6, but there are five .A K Q J 10 of trumps."),
        ("2-1-1-0", "the honours add up to 4, but there are five"),
        ("3-2", "one number per player in seat order, e.g. 2-1-1-1"),
        ({"a": 1, "b": 1}, "give the honours of each player .one may be left out.: 3 are not"),
        ({"a": 2}, "3 are not given"),
    ],
)
def test_a_la_guerre_a_split_that_does_not_add_up_to_five_is_refused(honours, message):
    with pytest.raises(IllegalEvent, match=message):
        play(guerre((6, 4, 2, 1), honours), variant="guerre")


def test_a_la_guerre_one_player_may_be_left_out_of_the_split():
    row = last_row(play(guerre((6, 4, 2, 1), {"a": 2, "b": 2, "c": 1}), variant="guerre"))
    assert row.split == (2, 2, 1, 0)


def test_old_games_replay_with_the_old_forms_of_honours():
    # Games stored before the split keep their scores: "side:count", {side: count} and "none".
    state = w.new_game(PLAYERS)
    for old, held, seen in [
        ("1:4", (0, 4), (0, 4)),
        ({"0": 3}, (3, 0), (3, 1)),
        ("none", (0, 0), ()),
        (None, (0, 0), ()),
    ]:
        row = last_row(w.apply(state, split(0, 8, old)))
        assert (row.honours, row.split) == (held, seen), old
    guerre_state = w.new_game(PLAYERS, w.Rules(variant="guerre"))
    row = last_row(w.apply(guerre_state, guerre((6, 4, 2, 1), "1:3")))
    assert (row.points, row.honours, row.split) == ((2, 2, 0, 0), (0, 3, 0, 0), ())


def test_without_honours_a_split_is_refused_and_none_still_accepted():
    american = w.new_game(PLAYERS, w.Rules(variant="american"))
    with pytest.raises(IllegalEvent, match="American whist has no honours"):
        w.apply(american, split(0, 8, "2-2"))
    plain = w.new_game(PLAYERS, w.Rules(honours=False))
    with pytest.raises(IllegalEvent, match="this club plays without honours"):
        w.apply(plain, split(0, 8, "2-2"))
    assert w.apply(plain, split(0, 8, "none")).scores == (2, 0)


def test_the_event_types_come_from_the_declared_table():
    assert w.EVENT_TYPES == ("deal", "end_evening") == tuple(w.EVENTS)


def test_the_rules_refuse_unknown_options():
    for bad in (
        {"variant": "bridge"},
        {"settlement": "nobody"},
        {"game_values": "double"},
        {"guerre_tie": "coin"},
        {"stake_ore": -1},
    ):
        with pytest.raises(ValueError, match="must be"):
            w.Rules(**bad)


def test_whist_is_for_four_players():
    with pytest.raises(IllegalEvent, match="4 players"):
        w.new_game(("a", "b", "c"))


# --- invariants -----------------------------------------------------------------------------


@st.composite
def evenings(draw):
    variant = draw(st.sampled_from(["short", "long", "american", "guerre"]))
    rules = w.Rules(
        variant=variant,
        honours=draw(st.booleans()),
        stake_ore=draw(st.integers(0, 500)),
        settlement=draw(st.sampled_from(["each", "pair"])),
        game_values=draw(st.sampled_from(["half", "literal"])),
        game_stake_ore=draw(st.sampled_from([0, 300])),
        rubber_stake_ore=draw(st.sampled_from([0, 1000])),
        guerre_tie=draw(st.sampled_from(["total_then_tricks", "tricks_then_total", "shared"])),
        guerre_stake_ore=draw(st.sampled_from([0, 100])),
    )
    events = []
    for _ in range(draw(st.integers(1, 40))):
        if variant == "guerre":
            cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
            tricks = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
            event = guerre(tricks)
            counts = (0, 3, 4, 5)
        else:
            event = deal(draw(st.integers(0, 1)), draw(st.integers(7, 13)))
            counts = (0, 3, 4)
        if rules.honours and variant != "american":
            count = draw(st.sampled_from(counts))
            holders = 4 if variant == "guerre" else 2
            if draw(st.booleans()):  # the split the table saw
                event["honours"] = draw(splits(w.HONOUR_CARDS[variant], holders))
            elif count:  # the old form: who held three or more
                event["honours"] = {str(draw(st.integers(0, holders - 1))): count}
            if "honours" in event and not _one_deck_can(rules, event):
                del event["honours"]  # honours the tricks contradict (issue 25)
        events.append(event)
    return rules, events


def _one_deck_can(rules, event):
    """Whether a deal's honours and tricks can come from one deck (a fact of the deal alone)."""
    try:
        w.apply(w.new_game(PLAYERS, rules), event)
    except IllegalEvent:
        return False
    return True


@st.composite
def splits(draw, cards, holders):
    """A split of the honours between the holders, as text or a list."""
    cuts = sorted(draw(st.lists(st.integers(0, cards), min_size=holders - 1, max_size=holders - 1)))
    split = [b - a for a, b in zip([0, *cuts], [*cuts, cards], strict=True)]
    return draw(st.sampled_from(["-".join(map(str, split)), split]))


@settings(max_examples=150, deadline=None)
@given(evenings())
def test_random_evenings_conserve_money_and_each_rubber_has_one_winner(evening):
    rules, events = evening
    state = w.new_game(PLAYERS, rules)
    transfers = []
    target = w.TARGETS[rules.variant]
    partnership = rules.variant != "guerre"
    for event in events:
        state = w.apply(state, event)
        transfers.extend(state.transfers)
        assert all(0 <= s < target for s in state.scores)
        if state.transfers:
            assert state.deals == ()  # money moves only when a rubber ends
    nets = net_by_account(transfers)
    assert sum(nets.values()) == 0
    assert sum(state.points.values()) == (
        0 if partnership else sum(len(r.winners) for r in state.rubbers)
    )
    for rubber in state.rubbers:
        assert sum(rubber.nets.values()) == 0
        if partnership:
            (winner,) = rubber.winners  # never two rubber winners
            loser = 1 - winner
            assert rubber.games[winner] == 2
            assert rubber.games[loser] <= 1
            values = [r.game_value for r in rubber.deals if r.game == (winner,)]
            assert rubber.points[winner] == sum(values) + 2
            assert rubber.difference == rubber.points[winner] - rubber.points[loser] > 0
            assert sum(1 for r in rubber.deals if r.game) == sum(rubber.games)
        else:
            assert rubber.winners
            assert rubber.deals[-1].game == rubber.winners
        assert all(r.points[s] >= 0 for r in rubber.deals for s in range(len(r.points)))
    for player in PLAYERS:
        won = sum(1 for r in state.rubbers if state.teams[player] in r.winners)
        assert state.rubbers_won[player] == won
    if state.rubbers:
        state = w.apply(state, {"type": "end_evening"})
        assert state.finished
        assert len(state.standings) == 4
    json.dumps(dataclasses.asdict(state))


# --- what no table can produce (issue 25) ----------------------------------------------------


def test_the_side_with_all_four_honours_took_at_least_two_tricks():
    # a & c hold A K Q J of trumps. Each honour wins the trick it falls in (only a higher trump
    # beats it, and those are theirs too); a and c play at most two of them to one trick, so
    # the four fall in two tricks at least: a leads the A, c drops the Q; then the K and the J.
    with pytest.raises(IllegalEvent, match="a & c held 4 of the four honours.*at least 2 tricks"):
        play(split(1, 12, "4-0"))  # a & c one trick: not enough
    assert last_row(play(split(1, 11, "4-0"))).tricks == (2, 11)  # exactly two: possible


def test_the_side_with_three_honours_took_at_least_one_trick():
    # b & d hold three of A K Q J. If a & c's one honour is the A, it can take two of theirs
    # (b and d both forced to trump under it), but the third then wins its own trick.
    with pytest.raises(IllegalEvent, match="b & d held 3 of the four honours.*at least 1 tricks"):
        play(split(0, 13, "1-3"))
    assert last_row(play(split(0, 12, "1-3"))).tricks == (12, 1)
    # a & c's single honour need not win: b & d hold A K Q, a & c the J, and b & d take all.
    assert last_row(play(split(1, 13, "1-3"))).tricks == (0, 13)


def test_the_old_form_of_the_honours_is_checked_too():
    # "0:4" — a & c held all four — with a & c at one trick.
    with pytest.raises(IllegalEvent, match="a & c held 4"):
        play({"type": "deal", "tricks": {"1": 12}, "honours": "0:4"})


def test_a_la_guerre_five_honours_win_five_tricks_and_four_win_three():
    # d holds A K Q J 10: one card a trick, each of them unbeatable — five tricks.
    with pytest.raises(IllegalEvent, match="d held 5 of the five honours.*at least 5 tricks"):
        play(guerre((6, 2, 1, 4), "0-0-0-5"), variant="guerre")
    # b holds four: the fifth (the A at best) beats one of them — three tricks at least.
    with pytest.raises(IllegalEvent, match="b held 4 of the five honours.*at least 3 tricks"):
        play(guerre((6, 2, 4, 1), "1-4-0-0"), variant="guerre")
    assert last_row(play(guerre((6, 3, 3, 1), "1-4-0-0"), variant="guerre")).split == (1, 4, 0, 0)
    # Three honours: at least one trick (Q J 10 under A and K still win the third).
    with pytest.raises(IllegalEvent, match="a held 3 of the five honours.*at least 1 tricks"):
        play(guerre((0, 5, 4, 4), "3-1-1-0"), variant="guerre")


def test_a_la_guerre_the_counts_must_fit_together():
    # 3-2-0-0: b loses both his honours only to two higher ones of a, in two tricks, and a's
    # third honour wins its own trick (only b's could beat it, and both are beaten): a three.
    # a with one trick and b with none fit each alone, not together.
    with pytest.raises(IllegalEvent, match=r"honours held \(3–2–0–0\) cannot go with the tricks"):
        play(guerre((1, 0, 6, 6), "3-2-0-0"), variant="guerre")
    assert w.honour_tricks_possible((3, 2, 0, 0), (3, 0, 5, 5), partnership=False)
    assert w.honour_tricks_possible((3, 2, 0, 0), (1, 2, 5, 5), partnership=False)
    # Given in part ({"a": 3}: the other two with b, c or d), a fitting completion is enough.
    assert play(guerre((1, 0, 6, 6), {"a": 3}), variant="guerre").deals


def test_a_game_stored_before_issue_25_replays_its_impossible_honours():
    state = w.new_game(PLAYERS, legacy_facts=True)
    assert state.legacy_facts
    row = last_row(w.apply(state, split(1, 12, "4-0")))
    assert (row.tricks, row.split) == ((1, 12), (4, 0))
