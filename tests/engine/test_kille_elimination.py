"""Kille elimination: worked examples from kille_elimination.en.txt and NOTES.md E1–E7, bad input,
and hypothesis invariants over random games (scores only grow, exactly one winner)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import kille_elimination as ke
from engine.cards import KILLE_DECK, KilleRank
from engine.errors import IllegalEvent

P4 = ("a", "b", "c", "d")  # clockwise; a deals first


def play(*events, players=P4, rules=None, first_dealer=None):
    state = ke.new_game(players, rules or ke.Rules(), first_dealer=first_dealer)
    for event in events:
        state = ke.apply(state, event)
    return state


def deal(fourth, calls, cards):
    """The events of one deal: the fourth-trick winner, the calls in order, the shown cards."""
    events = [{"type": "fourth_trick", "player": fourth}]
    for call in calls:
        player, kind = call.split()
        events.append({"type": kind, "player": player})
    events.append({"type": "reveal", "cards": cards})
    return events


def refused(state, event):
    with pytest.raises(IllegalEvent) as info:
        ke.apply(state, event)
    return str(info.value)


# --- card values (E1, E4) --------------------------------------------------------------------


def test_card_values_follow_the_rank_from_blaren_up_to_kille():
    # "0, 0, 0, 1, 2, … 12, 13, 14, 15, 16, 17, 50" in the order blaren … kille (E1).
    values = [ke.card_value(rank) for rank in KilleRank]
    assert values == [0, 0, 0, *range(1, 13), 13, 14, 15, 16, 17, 50]


# --- scoring one deal --------------------------------------------------------------------------


def test_a_right_declarer_scores_nothing_and_the_others_their_card():
    # "If the declarer was correct, they score 0 points and other players score the value
    # associated with their card."
    points = ke.score_deal({"a": "7", "b": "värdshus", "c": "2", "d": "kille"}, declarer="c")
    assert points == {"a": 7, "b": 13, "c": 0, "d": 50}


def test_a_wrong_declarer_scores_ten_plus_his_card_and_the_lowest_nothing():
    # "If the declarer was wrong, then they score 10 plus their card's value, and the players with
    # the lowest-ranked card(s) score zero. All remaining players score the value …"
    points = ke.score_deal({"a": "blaren", "b": "9", "c": "5", "d": "gök"}, declarer="c")
    assert points == {"a": 0, "b": 9, "c": 15, "d": 17}


def test_lowest_is_by_rank_not_by_value():
    # E4: blompottan and blaren both score 0, but blaren is lower.
    points = ke.score_deal({"a": "blaren", "b": "blompottan", "c": "4"}, declarer="b")
    assert points == {"a": 0, "b": 10, "c": 4}


def test_a_declarer_tied_for_lowest_is_wrong_and_the_other_holder_scores_nothing():
    # E5: "a lower or equal card"; he scores 10 + his card, the other holder 0.
    points = ke.score_deal({"a": "3", "b": "3", "c": "8", "d": "husar"}, declarer="a")
    assert points == {"a": 13, "b": 0, "c": 8, "d": 16}


def test_without_a_declaration_the_lowest_scores_ten_plus_his_card():
    # "If there was no declaration … The player with the lowest ranked card scores 10 plus their
    # card's value and all other players scores 0."
    points = ke.score_deal({"a": "6", "b": "2", "c": "kille", "d": "kavall"}, declarer=None)
    assert points == {"a": 0, "b": 12, "c": 0, "d": 0}


def test_without_a_declaration_a_tie_for_lowest_scores_nothing_for_anyone():
    # "If there's a tie for lowest then all players score 0 points."
    points = ke.score_deal({"a": "2", "b": "2", "c": "kille"}, declarer=None)
    assert points == {"a": 0, "b": 0, "c": 0}


def test_score_deal_refuses_impossible_cards():
    with pytest.raises(IllegalEvent, match="two"):
        ke.score_deal({"a": "2", "b": "2", "c": "2"}, declarer=None)
    with pytest.raises(IllegalEvent, match="Kille card"):
        ke.score_deal({"a": "joker", "b": "2"}, declarer=None)
    with pytest.raises(IllegalEvent, match="declarer"):
        ke.score_deal({"a": "1", "b": "2"}, declarer="z")


# --- the game ----------------------------------------------------------------------------------


def test_calls_go_clockwise_from_the_fourth_trick_winner():
    # "The winner of the 4th trick now has the option to declare or pass … if you pass the next
    # player gets the same options." (E6)
    state = play({"type": "fourth_trick", "player": "c"})
    assert state.to_act == "c"
    assert "c" in refused(state, {"type": "pass", "player": "d"})
    state = ke.apply(state, {"type": "pass", "player": "c"})
    assert state.to_act == "d"
    state = ke.apply(state, {"type": "declare", "player": "d"})
    assert state.phase == "reveal"
    assert state.declarer == "d"
    assert "declare" in refused(state, {"type": "pass", "player": "a"})


def test_a_deal_adds_to_the_scores_and_passes_the_deal_left():
    state = play(*deal("b", ["b pass", "c declare"], {"a": "7", "b": "3", "c": "2", "d": "9"}))
    assert state.scores == {"a": 7, "b": 3, "c": 0, "d": 9}
    assert state.dealer == "b"
    assert state.phase == "fourth_trick"
    assert state.deals[-1].points == {"a": 7, "b": 3, "c": 0, "d": 9}
    assert state.deals[-1].declarer == "c"


def test_all_passing_reveals_without_a_declaration():
    state = play(*deal("a", ["a pass", "b pass", "c pass", "d pass"], {
        "a": "12", "b": "1", "c": "5", "d": "8"
    }))  # fmt: skip
    assert state.scores == {"a": 0, "b": 11, "c": 0, "d": 0}
    assert state.deals[-1].declarer is None


def test_a_player_reaching_fifty_is_out_and_the_deal_skips_him():
    # "If a player reaches 50 points they are eliminated" (E3: exactly 50 is out). E6: the deal
    # passes to the next player still in on the dealer's left.
    state = play(*deal("a", ["a declare"], {"a": "blaren", "b": "kille", "c": "3", "d": "4"}))
    assert state.scores["b"] == 50
    assert state.out == ("b",)
    assert state.players_in == ("a", "c", "d")
    assert state.dealer == "c"  # a dealt; b is out
    shown, out, new_deal = state.log
    assert shown == "Shown: a blaren +0, b kille +50, c 3 +3, d 4 +4"
    assert out.template == "{player} is out ({score})"
    assert out.params == {"player": "b", "score": 50}
    assert new_deal == "New deal: c deals"
    assert "out" in refused(state, {"type": "fourth_trick", "player": "b"})
    state = ke.apply(state, {"type": "fourth_trick", "player": "d"})
    state = ke.apply(state, {"type": "pass", "player": "d"})
    state = ke.apply(state, {"type": "pass", "player": "a"})
    assert state.to_act == "c"  # b is skipped
    state = ke.apply(state, {"type": "pass", "player": "c"})
    assert "missing" in refused(state, {"type": "reveal", "cards": {"a": "1", "c": "2"}})
    assert "out" in refused(state, {"type": "reveal", "cards": {"a": "1", "b": "2", "c": "3"}})


def test_the_last_player_remaining_wins():
    # "The game ends when only one player remains. They are the winner." Eliminated later places
    # higher; players out in the same deal are ranked by their totals.
    events = [
        *deal("a", ["a declare"], {"a": "blaren", "b": "kille", "c": "3", "d": "4"}),  # b out
        *deal("c", ["c declare"], {"a": "1", "c": "blaren", "d": "kille"}),  # d out (54)
        *deal("a", ["a declare"], {"a": "blaren", "c": "kille"}),  # c out (53)
    ]
    state = play(*events)
    assert state.finished
    assert state.winner == "a"
    assert state.scores == {"a": 1, "b": 50, "c": 53, "d": 54}
    assert [(s.player, s.placement, s.score) for s in state.standings] == [
        ("a", 1, 1),
        ("c", 2, 53),
        ("d", 3, 54),
        ("b", 4, 50),
    ]
    assert state.expected == ()
    assert state.log[-1] == "a wins"
    assert "over" in refused(state, {"type": "fourth_trick", "player": "a"})


def test_players_out_in_the_same_deal_share_a_place_on_equal_totals():
    state = play(
        *deal("a", ["a declare"], {"a": "blaren", "b": "kille", "c": "kille"}),
        players=("a", "b", "c"),
    )
    assert state.finished
    assert state.winner == "a"
    assert [(s.player, s.placement) for s in state.standings] == [("a", 1), ("b", 2), ("c", 2)]


def test_the_limit_is_a_club_option():
    state = play(
        *deal("a", ["a declare"], {"a": "blaren", "b": "kille", "c": "3"}),
        players=("a", "b", "c"),
        rules=ke.Rules(limit=100),
    )
    assert state.out == ()


def test_bad_input_is_refused():
    state = play()
    assert "fourth trick" in refused(state, {"type": "pass", "player": "b"})
    assert "player at the table" in refused(state, {"type": "fourth_trick", "player": "z"})
    assert "records nothing called 'knock'" in refused(state, {"type": "knock", "player": "a"})
    state = ke.apply(state, {"type": "fourth_trick", "player": "a"})
    assert "calls" in refused(state, {"type": "reveal", "cards": dict.fromkeys(P4, "1")})
    state = ke.apply(state, {"type": "declare", "player": "a"})
    assert "Kille card" in refused(state, {"type": "reveal", "cards": dict.fromkeys(P4, "0")})
    assert "two" in refused(state, {"type": "reveal", "cards": dict.fromkeys(P4, "1")})


def test_every_payload_is_checked_against_its_declaration():
    state = play()
    # A typo of a real key is named, not read as "no player given".
    assert "'playr'" in refused(state, {"type": "fourth_trick", "playr": "a"})
    assert "needs the player who took the fourth trick" in refused(state, {"type": "fourth_trick"})
    assert "the fourth trick must be" in refused(state, {"type": "fourth_trick", "player": 3})
    state = ke.apply(state, {"type": "fourth_trick", "player": "a"})
    state = ke.apply(state, {"type": "declare", "player": "a"})
    assert "the showing needs the cards shown" in refused(state, {"type": "reveal"})
    assert "the cards shown must be" in refused(
        state, {"type": "reveal", "cards": ["1", "2", "3", "4"]}
    )
    assert "'z' is not a player" in refused(state, {"type": "reveal", "cards": {"z": "1"}})
    assert "'card'" in refused(state, {"type": "reveal", "cards": {"a": "1"}, "card": "1"})
    assert "an event needs a type" in refused(state, {"type": None})
    assert ke.EVENT_TYPES == tuple(ke.EVENTS) == ("fourth_trick", "pass", "declare", "reveal")


def test_new_game_checks_the_table():
    with pytest.raises(IllegalEvent, match="2–6"):
        ke.new_game(list("abcdefg"))
    assert ke.new_game(("a", "b"), first_dealer="b").dealer == "b"


def test_the_state_is_json_friendly():
    state = play(*deal("b", ["b pass", "c declare"], {"a": "7", "b": "3", "c": "2", "d": "9"}))
    json.dumps(dataclasses.asdict(state))


# --- hypothesis --------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_random_games_end_with_one_winner_and_scores_that_only_grow(players, seed):
    rng = random.Random(seed)
    names = tuple(f"s{i}" for i in range(players))
    state = ke.new_game(names)
    for _ in range(400):
        if state.finished:
            break
        before = dict(state.scores)
        still_in = state.players_in
        state = ke.apply(state, {"type": "fourth_trick", "player": rng.choice(still_in)})
        while state.phase == "calls":
            kind = "declare" if rng.random() < 0.3 else "pass"
            state = ke.apply(state, {"type": kind, "player": state.to_act})
        deck = list(KILLE_DECK)
        rng.shuffle(deck)
        state = ke.apply(
            state, {"type": "reveal", "cards": {p: deck.pop().label for p in still_in}}
        )
        assert all(state.scores[p] >= before[p] for p in names)
        # Someone always scores nothing, so a deal never eliminates everybody.
        assert state.players_in
        assert set(state.out) == {p for p in names if state.scores[p] >= 50}
        assert state.finished or state.dealer in state.players_in
    assert state.finished
    assert [s.placement for s in state.standings].count(1) == 1
    assert state.standings[0].player == state.winner


# --- what no table can produce (issue 25) ------------------------------------------------------


def test_a_third_copy_of_a_card_is_refused_at_the_showing():
    # The deck has two of each rank: three players cannot all show a 2.
    state = play(*deal("a", ["a pass", "b pass", "c pass", "d pass"], {
        "a": "12", "b": "1", "c": "5", "d": "8"
    })[:-1])  # fmt: skip
    message = refused(state, {"type": "reveal", "cards": {"a": "2", "b": "2", "c": "2", "d": "3"}})
    assert "2 is recorded 3 times" in message


def test_any_player_still_in_can_have_taken_the_fourth_trick_whatever_the_cards_shown():
    # Worked by hand for two players who both keep a blaren (both copies): b won the third trick
    # and leads 5 in the fourth; a holds 9 and blaren, must play the lowest card that reaches 5
    # (the 9) and takes the trick. Had a won the third trick, b takes the fourth the same way.
    for fourth in ("a", "b"):
        state = play(
            *deal(fourth, [f"{fourth} pass", f"{'b' if fourth == 'a' else 'a'} pass"], {
                "a": "blaren", "b": "blaren"
            }),
            players=("a", "b"),
        )  # fmt: skip
        assert state.deals[-1].fourth_trick == fourth
        assert state.deals[-1].points == {"a": 0, "b": 0}  # tied for lowest: nobody scores


def test_legacy_facts_is_taken_and_changes_nothing():
    state = ke.new_game(P4, legacy_facts=True)
    assert state.legacy_facts
    for event in deal("b", ["b pass", "c declare"], {"a": "7", "b": "3", "c": "2", "d": "9"}):
        state = ke.apply(state, event)
    assert state.scores == {"a": 7, "b": 3, "c": 0, "d": 9}
