"""Vändåtta: worked examples from the rules text (populara_kortspel.sv.txt, "Vändåtta
poängräkning"; NOTES.md V1–V3), bad input, and hypothesis invariants of the score sheet."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import vandatta as v
from engine.errors import IllegalEvent

PLAYERS = ("a", "b", "c")


def deal(winner, **hands):
    """A deal event as the pad sends it: one map per category, player → count.

    ``hands`` maps a loser to a dict of counts (eights, aces, courts, numbers, pips) or to an
    int (the minus points entered directly)."""
    event: dict = {"type": "deal", "winner": winner}
    for player, hand in hands.items():
        if isinstance(hand, int):
            event.setdefault("penalty", {})[player] = hand
            continue
        for category, count in hand.items():
            event.setdefault(category, {})[player] = count
    return event


def play(*events, players=PLAYERS, rules=None):
    state = v.new_game(players, rules or v.Rules())
    for event in events:
        state = v.apply(state, event)
    return state


# --- one hand --------------------------------------------------------------------------------


def test_each_card_left_costs_its_category():
    # "För varje åtta på handen: -25 poäng. För varje ess: -15 poäng. För varje klätt kort resp
    # tia: -10 poäng. För varje nummerkort: -5 poäng"
    assert v.hand_penalty(eights=1) == -25
    assert v.hand_penalty(aces=1) == -15
    assert v.hand_penalty(courts=1) == -10
    assert v.hand_penalty(numbers=1) == -5
    assert v.hand_penalty(eights=1, aces=1, courts=1, numbers=2) == -60


def test_number_cards_may_count_their_face_value():
    # "(alternativt enligt valören)"; V1: only 2–7 and 9 change, so a 3 and a 9 cost 12.
    assert v.hand_penalty(eights=1, aces=1, courts=1, pips=12, face_value=True) == -62


def test_one_deck_up_to_four_players_and_two_from_five():
    # "Antal kort: 52 (dock 104, dvs, två lekar, om ni är fem eller flera spelare)."
    assert [v.decks_for(n) for n in (2, 4, 5, 8)] == [1, 1, 2, 2]
    assert v.new_game(PLAYERS).decks == 1
    assert v.new_game("abcde").decks == 2


# --- a game ----------------------------------------------------------------------------------

DEAL_1 = deal(
    "b", a={"eights": 1, "aces": 1, "courts": 1, "numbers": 2}, c={"courts": 2, "numbers": 0}
)
DEAL_2 = deal("a", b={"eights": 2}, c={"numbers": 4})
DEAL_3 = deal("c", a={"aces": 1, "numbers": 3}, b={"courts": 3, "aces": 1})
DEAL_4 = deal("a", b={"numbers": 1}, c={"eights": 1, "aces": 1, "courts": 1})


def test_the_winner_goes_free_and_the_others_take_minus_points():
    # "Vinnaren slipper givetvis minuspoäng."
    state = play(DEAL_1)
    assert state.totals == {"a": -60, "b": 0, "c": -20}
    row = state.sheet[0]
    assert (row.number, row.winner, row.penalties) == (1, "b", {"a": -60, "b": 0, "c": -20})
    assert not state.finished
    assert state.expected == ("out", "deal")
    assert any("b går ut" in line for line in state.log)


def test_the_totals_run_on_and_the_deal_passes_clockwise():
    state = v.new_game(PLAYERS)
    assert state.dealer == "a"
    state = v.apply(state, DEAL_1)
    assert state.dealer == "b"
    state = v.apply(state, DEAL_2)
    assert state.totals == {"a": -60, "b": -50, "c": -40}
    assert state.dealer == "c"
    assert state.sheet[1].totals == {"a": -60, "b": -50, "c": -40}


def test_the_game_ends_at_minus_100_and_the_fewest_minus_points_win():
    # "Så snart någon kommit ned i -100 eller mer är spelet slut och den med minst antal
    # minuspoäng har vunnit." V2: exactly -100 ends it.
    state = play(DEAL_1, DEAL_2, DEAL_3)
    assert state.totals == {"a": -90, "b": -95, "c": -40}
    assert not state.finished
    state = v.apply(state, deal("a", b={"numbers": 1}, c={"numbers": 1}))
    assert state.totals == {"a": -90, "b": -100, "c": -45}
    assert state.finished
    assert state.winners == ("c",)
    assert state.expected == ()
    assert [(s.player, s.placement, s.score) for s in state.standings] == [
        ("c", 1, -45),
        ("a", 2, -90),
        ("b", 3, -100),
    ]
    with pytest.raises(IllegalEvent, match="over"):
        v.apply(state, DEAL_1)


def test_a_tie_for_the_fewest_minus_points_shares_first_place():
    # V2: "a tie is not resolved" — both winners share placement 1.
    state = play(
        deal("a", b={"eights": 3}, c={"numbers": 1}),
        deal("c", a={"numbers": 1}, b={"eights": 1, "numbers": 2}),
    )
    assert state.totals == {"a": -5, "b": -110, "c": -5}
    assert state.finished
    assert set(state.winners) == {"a", "c"}
    assert {s.player: s.placement for s in state.standings} == {"a": 1, "c": 1, "b": 3}


def test_face_value_changes_only_the_number_cards():
    # V1: the option changes 2–7 and 9; eights, aces, tens and court cards keep their values.
    rules = v.Rules(face_value=True)
    state = play(
        deal("b", a={"eights": 1, "aces": 1, "courts": 1, "numbers": 2, "pips": 12}, c={"pips": 9}),
        rules=rules,
    )
    assert state.totals == {"a": -62, "b": 0, "c": -9}


def test_face_value_needs_the_number_cards_value():
    rules = v.Rules(face_value=True)
    with pytest.raises(IllegalEvent, match="face value"):
        play(deal("b", a={"numbers": 2}, c={"courts": 1}), rules=rules)
    with pytest.raises(IllegalEvent, match="2 number cards"):
        play(deal("b", a={"numbers": 2, "pips": 19}, c={"courts": 1}), rules=rules)
    with pytest.raises(IllegalEvent, match="face value"):
        play(deal("b", a={"pips": 12}, c={"courts": 1}))  # not a face-value game


def test_minus_points_may_be_entered_instead_of_the_cards():
    state = play(deal("b", a=60, c=-20))  # either sign means minus points
    assert state.totals == {"a": -60, "b": 0, "c": -20}


# --- step by step: who went out, then one hand at a time (the pad's flow) ---------------------


def out(player):
    return {"type": "out", "player": player}


def hand(player, **counts):
    return {"type": "hand", "player": player, **counts}


def test_a_deal_may_be_recorded_one_hand_at_a_time():
    state = play(out("b"))
    assert state.pending_winner == "b"
    assert state.to_record == "c"  # clockwise from the winner
    assert state.expected == ("hand",)
    assert state.totals == {"a": 0, "b": 0, "c": 0}
    state = v.apply(state, hand("c", courts=2))
    assert state.pending == {"c": -20}
    assert state.to_record == "a"
    assert state.sheet == ()
    state = v.apply(state, hand("a", eights=1, aces=1, courts=1, numbers=2))
    assert state.totals == play(DEAL_1).totals == {"a": -60, "b": 0, "c": -20}
    assert state.sheet[0].penalties == {"a": -60, "b": 0, "c": -20}
    assert (state.pending_winner, state.pending, state.to_record) == (None, {}, None)
    assert state.expected == ("out", "deal")


def test_a_hand_may_give_the_minus_points_directly():
    state = play(out("b"), hand("a", penalty=60), hand("c", penalty=20, eights=0))
    assert state.totals == {"a": -60, "b": 0, "c": -20}


def test_the_decks_are_checked_across_the_hands_of_a_deal():
    state = play(out("a"), hand("b", eights=3))
    with pytest.raises(IllegalEvent, match="5 eights"):
        v.apply(state, hand("c", eights=2))


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([hand("a", numbers=1)], "who went out"),
        ([out("b"), out("a")], "being recorded"),
        ([out("b"), DEAL_1], "being recorded"),
        ([out("x")], "'x'"),
        ([out("b"), hand("b", numbers=1)], "b went out"),
        ([out("b"), hand("a", numbers=1), hand("a", numbers=1)], "a is already recorded"),
        ([out("b"), hand("a")], "a holds no cards"),
        ([out("b"), hand("x", numbers=1)], "'x'"),
        ([out("b"), hand("a", numbers=-2)], "a cannot hold -2"),
        ([out("b"), hand("a", numbers="2")], "numbers: a has '2'"),
        ([out("b"), hand("a", numbers=1, penalty=5)], "either"),
        ([out("b"), hand("a", eights=5)], "5 eights"),
    ],
)
def test_bad_steps_are_refused_with_a_clear_message(events, message):
    with pytest.raises(IllegalEvent, match=message):
        play(*events)


# --- elimination (option) ----------------------------------------------------------------------


def test_with_elimination_a_player_at_minus_100_is_out_and_the_last_one_left_wins():
    # "Alternativt blir den som har -100 eller mer utslagen, och den som sist är kvar på mindre
    # än -100 poäng har vunnit partiet."
    rules = v.Rules(elimination=True)
    state = play(DEAL_1, DEAL_2, DEAL_3, DEAL_4, rules=rules)
    assert state.totals == {"a": -90, "b": -100, "c": -90}
    assert not state.finished
    assert state.eliminated == ("b",)
    assert state.active == ("a", "c")
    assert state.sheet[-1].eliminated == ("b",)
    with pytest.raises(IllegalEvent, match="b is out of the game"):
        v.apply(state, deal("a", b={"numbers": 1}, c={"numbers": 1}))
    with pytest.raises(IllegalEvent, match="b is out of the game"):
        v.apply(state, deal("b", a={"numbers": 1}, c={"numbers": 1}))
    with pytest.raises(IllegalEvent, match="b is out of the game"):
        v.apply(state, out("b"))
    with pytest.raises(IllegalEvent, match="b is out of the game"):
        v.apply(v.apply(state, out("a")), hand("b", numbers=1))
    state = v.apply(state, deal("c", a={"eights": 1}))
    assert state.finished
    assert state.winners == ("c",)
    assert [(s.player, s.placement) for s in state.standings] == [("c", 1), ("a", 2), ("b", 3)]


def test_players_knocked_out_in_the_same_deal_are_ranked_by_their_totals():
    # V3 (our reading): the deal's winner never takes minus points, so someone is always left;
    # those who fall in the same deal are ranked by fewest minus points.
    rules = v.Rules(elimination=True)
    state = play(deal("a", b={"eights": 4}, c={"aces": 4, "courts": 9}), rules=rules)
    assert state.totals == {"a": 0, "b": -100, "c": -150}
    assert state.finished
    assert [(s.player, s.placement) for s in state.standings] == [("a", 1), ("b", 2), ("c", 3)]


def test_the_deal_skips_eliminated_players():
    rules = v.Rules(elimination=True)
    state = v.new_game(("a", "b", "c", "d"), rules)
    state = v.apply(state, deal("a", b={"eights": 4}, c={"numbers": 1}, d={"numbers": 1}))
    assert state.active == ("a", "c", "d")
    assert state.dealer == "c"
    state = v.apply(state, deal("a", c={"numbers": 1}, d={"numbers": 1}))
    assert state.dealer == "d"
    state = v.apply(state, deal("a", c={"numbers": 1}, d={"numbers": 1}))
    assert state.dealer == "a"


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (deal("x", a={"numbers": 1}), "'x'"),
        ({"type": "deal"}, "who went out"),
        (deal("b", a={"numbers": 1}), "c holds no cards"),
        (deal("b", a={"numbers": 1}, c={"numbers": 0}), "c holds no cards"),
        (deal("b", a={"numbers": 1}, b={"numbers": 1}, c={"numbers": 1}), "b went out"),
        (deal("b", a={"numbers": 1}, c={"eights": 5}), "5 eights"),
        (deal("b", a={"eights": 3}, c={"eights": 2}), "5 eights"),
        (deal("b", a={"aces": 5}, c={"numbers": 1}), "5 aces"),
        (deal("b", a={"courts": 17}, c={"numbers": 1}), "17 tens and court cards"),
        (deal("b", a={"numbers": 20}, c={"numbers": 9}), "29 number cards"),
        (deal("b", a={"numbers": -1}, c={"numbers": 1}), "a cannot hold -1"),
        (deal("b", a={"numbers": "2"}, c={"numbers": 1}), "numbers: a has '2'"),
        (deal("b", a={"numbers": True}, c={"numbers": 1}), "numbers: a has True"),
        (deal("b", a={"numbers": 1}, c={"numbers": 1}) | {"aces": [1, 2]}, "aces"),
        (deal("b", a={"numbers": 1}, x={"numbers": 1}), "'x'"),
        (deal("b", a=33, c={"numbers": 1}), "fives"),
        (deal("b", a=465, c={"numbers": 1}), "at most 460"),
        (deal("b", a={"numbers": 1}, c={"numbers": 1}) | {"penalty": {"a": 10}}, "either"),
        ({"type": "score"}, "score"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


def test_two_decks_allow_more_of_each_category():
    players = ("a", "b", "c", "d", "e")
    hands = {p: {"eights": 2} for p in "bcd"} | {"e": {"eights": 2, "aces": 8}}
    state = play(deal("a", **hands), players=players)
    assert state.totals["e"] == -170
    with pytest.raises(IllegalEvent, match="9 eights"):
        play(deal("a", **hands | {"e": {"eights": 3}}), players=players)


def test_a_hand_cannot_hold_the_whole_deck():
    # Two players, one deck: the pile always keeps at least the card the winner went out on.
    too_many = {"eights": 4, "aces": 4, "courts": 16, "numbers": 28}
    with pytest.raises(IllegalEvent, match="52 cards"):
        play(deal("a", b=too_many), players=("a", "b"))
    state = play(deal("a", b=too_many | {"numbers": 27}), players=("a", "b"))
    assert state.totals["b"] == -455


def test_a_refusal_is_a_translatable_template_naming_the_player():
    # The UI translates the template and puts the player's name in (scoring.messages).
    with pytest.raises(IllegalEvent) as refused:
        play(out("b"), hand("a"))
    assert refused.value.template.startswith("{player} holds no cards")
    assert refused.value.params == {"player": "a"}


def test_the_rules_need_two_to_eight_distinct_players():
    with pytest.raises(IllegalEvent, match="2–8 players"):
        v.new_game(["a"])
    with pytest.raises(IllegalEvent, match="2–8 players"):
        v.new_game("abcdefghi")
    with pytest.raises(IllegalEvent, match="twice"):
        v.new_game(["a", "b", "a"])


def test_the_scorer_may_pick_the_first_dealer():
    assert v.new_game(PLAYERS, first_dealer="c").dealer == "c"
    with pytest.raises(IllegalEvent, match="first dealer x"):
        v.new_game(PLAYERS, first_dealer="x")


def test_apply_never_changes_the_state_it_was_given_and_the_state_is_json():
    state = v.new_game(PLAYERS)
    after = v.apply(state, DEAL_1)
    assert state.totals == {"a": 0, "b": 0, "c": 0}
    assert state.sheet == ()
    assert after.transfers == ()
    json.dumps(dataclasses.asdict(after))


# --- invariants ------------------------------------------------------------------------------


@st.composite
def games(draw):
    players = tuple("abcdefgh"[: draw(st.integers(2, 8))])
    rules = v.Rules(face_value=draw(st.booleans()), elimination=draw(st.booleans()))
    deals = draw(st.lists(st.tuples(st.integers(0, 7), st.data()), min_size=1, max_size=25))
    return players, rules, deals


@settings(max_examples=150, deadline=None)
@given(games())
def test_the_score_sheet_keeps_its_invariants(game):
    players, rules, deals = game
    state = v.new_game(players, rules)
    for winner_index, data in deals:
        if state.finished:
            break
        winner = state.active[winner_index % len(state.active)]
        hands = {}
        for player in state.active:
            if player == winner:
                continue
            # Within what the deck holds for up to seven losers; each holds at least one card.
            counts = {
                "eights": data.draw(st.integers(0, 1)),
                "aces": data.draw(st.integers(0, 1)),
                "courts": data.draw(st.integers(0, 2)),
                "numbers": data.draw(st.integers(1, 3)),
            }
            if rules.face_value:
                counts["pips"] = data.draw(
                    st.integers(2 * counts["numbers"], 9 * counts["numbers"])
                )
            hands[player] = counts
        before = dict(state.totals)
        if data.draw(st.booleans()):
            state = v.apply(state, deal(winner, **hands))
        else:
            state = v.apply(state, out(winner))
            for player, counts in hands.items():
                state = v.apply(state, hand(player, **counts))
        row = state.sheet[-1]
        assert row.penalties[winner] == 0
        for player, held in hands.items():
            expected = v.hand_penalty(
                held["eights"],
                held["aces"],
                held["courts"],
                held["numbers"],
                pips=held.get("pips"),
                face_value=rules.face_value,
            )
            assert row.penalties[player] == expected < 0
            assert state.totals[player] == before[player] + expected
    # The sheet adds up to the totals, which never go above zero.
    for player in players:
        assert sum(r.penalties.get(player, 0) for r in state.sheet) == state.totals[player] <= 0
    fallen = [p for p in players if state.totals[p] <= -100]
    if rules.elimination:
        assert set(state.eliminated) == set(fallen)
        assert state.finished == (len(state.active) == 1)
    else:
        assert state.finished == bool(fallen)
        for earlier in state.sheet[:-1]:
            assert min(earlier.totals.values()) > -100
    if state.finished:
        firsts = {s.player for s in state.standings if s.placement == 1}
        assert firsts == set(state.winners)
        if rules.elimination:
            assert firsts == set(state.active)
        else:
            assert firsts == {p for p in players if state.totals[p] == max(state.totals.values())}
        assert sorted(s.player for s in state.standings) == sorted(players)


@pytest.mark.parametrize("kind", [[], {"deal": 1}, None, 3])
def test_an_event_type_that_is_not_a_name_is_refused_as_unknown(kind):
    with pytest.raises(IllegalEvent, match="unknown event"):
        v.apply(v.new_game(PLAYERS), {"type": kind})
