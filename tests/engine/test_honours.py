"""The famous hands the engines detect (issue 29): worked examples, what cannot happen, and a
hypothesis invariant: a cribbage show is an honour exactly when it scores 29, 28 or 24."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import cribbage as c
from engine import honours, kille, kille_elimination
from engine import polskt_pass as pp
from engine.cards import KilleRank, parse_card, parse_cards
from engine.errors import IllegalEvent
from engine.honours import Honour
from engine.snapshots import restore


def play(module, state, *events):
    for event in events:
        state = module.apply(state, event)
    return state


def cut(starter: str):
    """a deals, b shows first."""
    return play(c, c.new_game(["a", "b"]), {"type": "starter", "card": starter})


def test_a_29_hand_by_cards_is_an_honour_of_its_deal():
    state = play(c, cut("5S"), {"type": "show", "player": "b", "cards": ["5C", "5D", "5H", "JS"]})
    assert state.scores["b"] == 29
    assert state.honours == (Honour("b", "cribbage:29:hand", 1, "5C 5D 5H JS 5S"),)


def test_a_29_hand_given_as_points_is_the_same_honour_without_cards():
    state = play(c, cut("5S"), {"type": "show", "player": "b", "points": 29})
    assert state.honours == (Honour("b", "cribbage:29:hand", 1, ""),)


def test_a_29_crib_is_the_dealers_and_the_next_deals_number_is_two():
    state = play(
        c,
        cut("5S"),
        {"type": "show", "player": "b", "points": 2},
        {"type": "show", "player": "a", "points": 4},
        {"type": "crib", "cards": ["5C", "5D", "5H", "JS"]},
    )
    assert c.score_hand(parse_cards("5c 5d 5h js"), parse_card("5s"), crib=True).total == 29
    assert state.honours == (Honour("a", "cribbage:29:crib", 1, "5C 5D 5H JS 5S"),)
    state = play(
        c,
        state,
        {"type": "starter", "card": "6D"},
        {"type": "show", "player": "a", "cards": ["4H", "4S", "5H", "5C"]},
    )
    assert state.honours[-1] == Honour("a", "cribbage:24:hand", 2, "4H 4S 5H 5C 6D")


@pytest.mark.parametrize(
    ("starter", "cards", "total"),
    [
        # four fives and a king: fifteens 5+5+5 (4) and 5+K (4) = 16, six pairs 12
        ("KD", ["5C", "5D", "5H", "5S"], 28),
        # three fives and a jack not of the starter's suit, a five cut: 28, no nobs
        ("5S", ["5C", "5D", "5H", "JD"], 28),
        # 4-4-5-5-6: four runs of three 12, two pairs 4, four fifteens (4+5+6) 8
        ("6D", ["4H", "4S", "5H", "5C"], 24),
        # 3-3-3-3 and a nine: six fifteens (3+3+9) 12, six pairs 12
        ("9D", ["3H", "3S", "3C", "3D"], 24),
        # 7-7-8-8-9: four runs of three 12, two pairs 4, four fifteens (7+8) 8
        ("9D", ["7H", "7S", "8H", "8C"], 24),
    ],
)
def test_worked_hands_of_28_and_24(starter, cards, total):
    assert c.score_hand(parse_cards(" ".join(cards)), parse_card(starter)).total == total
    state = play(c, cut(starter), {"type": "show", "player": "b", "cards": cards})
    (honour,) = state.honours
    assert honour.kind == f"cribbage:{total}:hand"


def test_a_29_needs_a_five_cut_so_a_king_starter_refuses_it():
    with pytest.raises(IllegalEvent, match="at most 28"):
        play(c, cut("KD"), {"type": "show", "player": "b", "points": 29})
    assert 29 in c.IMPOSSIBLE_WITH_STARTER[13][0]
    assert 28 not in c.IMPOSSIBLE_WITH_STARTER[13][0]  # 5-5-5-5 with the king: 28


def test_other_totals_are_no_honour():
    state = play(
        c,
        cut("5S"),
        {"type": "show", "player": "b", "points": 23},
        {"type": "show", "player": "a", "points": 20},
        {"type": "crib", "points": 21},
    )
    assert state.honours == ()


def test_replaying_fewer_events_loses_the_honour_and_the_snapshot_keeps_it():
    events = [
        {"type": "starter", "card": "5S"},
        {"type": "show", "player": "b", "cards": ["5C", "5D", "5H", "JS"]},
    ]
    whole = play(c, c.new_game(["a", "b"]), *events)
    undone = play(c, c.new_game(["a", "b"]), *events[:1])
    assert undone.honours == ()
    data = json.loads(json.dumps(dataclasses.asdict(whole)))
    data.pop("log")
    back = restore(c.State, data, [line.as_json() for line in whole.log])
    assert back.honours == whole.honours


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True), st.booleans())
def test_a_show_is_an_honour_exactly_when_it_scores_29_28_or_24(numbers, crib):
    starter, *hand = (c.number_card(n) for n in numbers)
    total = c.score_hand(hand, starter, crib=crib).total
    state = cut(str(starter))
    if crib:  # the hands first, as points any table can score with this starter: 2 (a pair)
        state = play(
            c,
            state,
            {"type": "show", "player": "b", "points": 2},
            {"type": "show", "player": "a", "points": 2},
        )
    try:
        state = play(
            c,
            state,
            {"type": "crib", "cards": [str(x) for x in hand]}
            if crib
            else {"type": "show", "player": "b", "cards": [str(x) for x in hand]},
        )
    except IllegalEvent:
        return  # the facts checks found the cards clash with a show given as points
    kinds = [h.kind for h in state.honours]
    if total in (29, 28, 24):
        assert kinds == [f"cribbage:{total}:{'crib' if crib else 'hand'}"]
    else:
        assert kinds == []


# --- Polskt pass -------------------------------------------------------------------------------

FOUR = ("a", "b", "c", "d")


def test_a_won_la_vola_is_an_honour_and_a_lost_one_is_not():
    state = pp.new_game(FOUR, pp.Rules(stake_ore=1000))
    deal = {"type": "deal", "suit": "H", "rank": "J", "cutter_jack": False}
    state = pp.apply(state, deal)
    (player,) = state.current.spelforare
    trick = {"type": "trick", "winner": player}
    state = play(pp, state, trick, trick, {"type": "la_vola", "player": player}, trick, trick)
    state = pp.apply(state, trick)
    assert state.sheet[-1].outcome == "la_vola_won"
    assert state.honours == (Honour(player, pp.LA_VOLA, 1),)
    # The next deal: la vola said and lost, no honour.
    state = pp.apply(state, deal)
    (player2,) = state.current.spelforare
    other = next(p for p in FOUR if p != player2)
    state = play(
        pp,
        state,
        {"type": "trick", "winner": player2},
        {"type": "trick", "winner": player2},
        {"type": "la_vola", "player": player2},
        {"type": "trick", "winner": other},
    )
    assert state.sheet[-1].outcome == "la_vola_lost"
    assert len(state.honours) == 1


# --- Kille: three of a kind cannot happen --------------------------------------------------------


def test_the_kille_deck_forbids_three_of_a_kind():
    assert len(KilleRank) == 21
    assert kille.COPIES == 2
    with pytest.raises(IllegalEvent, match="only two of each"):
        kille.check_copies([KilleRank.KILLE, KilleRank.KILLE, KilleRank.KILLE])
    kille.check_copies([KilleRank.KILLE, KilleRank.KILLE])  # a pair is possible
    assert set(honours.impossible()) == {"kille", "kille_elimination"}
    assert not honours.kinds_for("kille")
    assert not honours.kinds_for("kille_elimination")
    assert kille_elimination.check_copies is kille.check_copies  # the elimination game too


def test_every_kind_names_a_game_with_honours_in_its_state():
    games = Counter(kind.game_key for kind in honours.kinds().values())
    assert games == {"cribbage": 6, "polskt_pass": 1}
    assert "honours" in {f.name for f in dataclasses.fields(c.State)}
    assert "honours" in {f.name for f in dataclasses.fields(pp.State)}
