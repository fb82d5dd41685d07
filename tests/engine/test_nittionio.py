"""Nittionio: worked examples from the rules text (populara_kortspel.sv.txt, "Nittionio regler")
and NOTES.md N1–N5, bad input, and hypothesis invariants of the score sheet."""

from __future__ import annotations

import dataclasses
import json
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import nittionio as n
from engine.errors import IllegalEvent

PLAYERS = ("a", "b", "c")


def deal(bids, tricks, calls=None, **extra):
    event = {
        "type": "deal",
        "bids": dict(zip(PLAYERS, bids, strict=True)),
        "tricks": dict(zip(PLAYERS, tricks, strict=True)),
        **extra,
    }
    if calls is not None:
        event["calls"] = calls
    return event


def play(*events, rules=None):
    state = n.new_game(PLAYERS, rules or n.Rules())
    for event in events:
        state = n.apply(state, event)
    return state


# --- bid cards ---------------------------------------------------------------------------------


def test_three_bid_cards_encode_the_bid():
    # "En ruter anger 0 stick, En spader anger 1 stick, En hjärter anger 2 stick, En klöver
    # anger 3 stick … klöver, ruter, ruter eller hjärter spader ruter eller spader, spader,
    # spader" all mean three; ♣♣♣ is nine and ♦♦♦ nought.
    assert n.bid_from_cards(["C", "D", "D"]) == 3
    assert n.bid_from_cards(["hjärter", "spader", "ruter"]) == 3
    assert n.bid_from_cards(["♠", "♠", "♠"]) == 3
    assert n.bid_from_cards(["kl", "kl", "kl"]) == 9
    assert n.bid_from_cards(["ru", "ru", "ru"]) == 0


def test_the_values_of_the_bid_cards_do_not_matter():
    # "Valörerna på budkorten har ingen som helst betydelse."
    assert n.bid_from_cards(["AC", "6D", "KD"]) == 3


def test_the_help_lists_every_way_to_lay_a_bid():
    assert n.bid_cards(3) == (("C", "D", "D"), ("H", "S", "D"), ("S", "S", "S"))
    assert n.bid_cards(9) == (("C", "C", "C"),)
    assert n.bid_cards(0) == (("D", "D", "D"),)


def test_a_joker_laid_as_a_bid_card_counts_as_the_turn_ups_suit():
    # "den som har jokern på handen agerar exakt som om jokern vore det kortet"; N3: also when
    # the turn-up is a nine (no trump).
    assert n.bid_from_cards(["JK", "C", "D"], turn_up="8H") == 5
    assert n.bid_from_cards(["JK", "D", "D"], turn_up="9C") == 3
    with pytest.raises(IllegalEvent, match="turn-up"):
        n.bid_from_cards(["JK", "D", "D"])
    with pytest.raises(IllegalEvent, match="nobody holds"):
        n.bid_from_cards(["JK", "D", "D"], turn_up="JK")


def test_bid_cards_must_come_from_the_deck():
    with pytest.raises(IllegalEvent, match="5"):
        n.bid_from_cards(["5C", "D", "D"])
    with pytest.raises(IllegalEvent, match="three"):
        n.bid_from_cards(["C", "D"])
    with pytest.raises(IllegalEvent, match="'X'"):
        n.bid_from_cards(["X", "D", "D"])


# --- scoring one deal --------------------------------------------------------------------------


def test_everybody_scores_a_point_a_trick_and_the_bonus_falls_as_more_succeed():
    # Poängräkning: 1 point per trick; exact bid 30 if alone, 20 if two, 10 if all three.
    assert n.score_deal([3, 3, 3], [3, 3, 3]) == (13, 13, 13)
    assert n.score_deal([2, 4, 5], [2, 4, 3]) == (22, 24, 3)
    assert n.score_deal([2, 4, 5], [2, 5, 2]) == (32, 5, 2)
    assert n.score_deal([0, 0, 0], [2, 5, 2]) == (2, 5, 2)


def test_a_premium_goes_to_its_bidder_when_made_and_to_each_opponent_when_lost():
    # "30 poäng för deklaration och 60 poäng för visning … Gick han inte hem, går bonusen
    # istället till de båda motspelarna!" (N1: the full amount to each.)
    assert n.score_deal([2, 4, 5], [2, 5, 2], premium=(0, "declare")) == (62, 5, 2)
    assert n.score_deal([2, 4, 5], [2, 5, 2], premium=(1, "declare")) == (62, 5, 32)
    assert n.score_deal([2, 4, 5], [2, 4, 3], premium=(1, "show")) == (22, 84, 3)
    assert n.score_deal([2, 4, 5], [2, 4, 3], premium=(2, "show")) == (82, 84, 3)


def test_ninety_nine_is_the_most_a_player_can_score_in_a_deal():
    # "Högsta möjliga poäng för en spelare i en giv är alltså 99": nine tricks bid (♣♣♣), made
    # alone (30) and shown (60).
    assert n.score_deal([9, 1, 1], [9, 0, 0], premium=(0, "show")) == (99, 0, 0)


def test_the_calculator_refuses_tricks_that_do_not_add_up_to_nine():
    with pytest.raises(IllegalEvent, match="9"):
        n.score_deal([3, 3, 3], [3, 3, 4])


# --- premium calls (N5) ------------------------------------------------------------------------


def test_premium_calls_go_clockwise_from_forhand_and_a_show_overcalls_a_declaration():
    # a deals, so b (förhand) calls first, then c, then a.
    state = play(deal([2, 4, 5], [2, 4, 3], calls={"b": "declare", "c": "show"}))
    row = state.sheet[0]
    assert (row.premium_player, row.premium) == ("c", "show")
    # c failed the show: a and b get 60 each; a and b made their bids (20 each).
    assert row.points == (2 + 20 + 60, 4 + 20 + 60, 3)


@pytest.mark.parametrize(
    ("calls", "message"),
    [
        ({"b": "show", "c": "declare"}, r"\bc\b.*pass"),
        ({"b": "declare", "a": "declare"}, r"\ba\b.*show"),
        ({"b": "show", "a": "show"}, r"\ba\b.*pass"),
        ({"b": "raise"}, "'raise'"),
        ({"x": "pass"}, r"\bx\b"),
    ],
)
def test_premium_calls_against_the_order_are_refused(calls, message):
    with pytest.raises(IllegalEvent, match=message):
        play(deal([2, 4, 5], [2, 4, 3], calls=calls))


def test_the_pennycook_variant_has_no_premiums_and_goes_to_150():
    rules = n.Rules(variant="pennycook")
    with pytest.raises(IllegalEvent, match="no declaration"):
        play(deal([2, 4, 5], [2, 4, 3], calls={"b": "declare"}), rules=rules)
    # a takes all nine alone each deal: 9 + 30 = 39; 39 * 4 = 156 ≥ 150 after four deals.
    state = play(*[deal([9, 1, 1], [9, 0, 0])] * 3, rules=rules)
    assert state.totals == (117, 0, 0)
    assert not state.finished
    state = n.apply(state, deal([9, 1, 1], [9, 0, 0]))
    assert state.finished
    assert state.winners == ("a",)


# --- the nine-deal game ------------------------------------------------------------------------


def test_the_game_is_nine_deals_and_the_highest_total_wins():
    # "Man spelar över nio givar, och den som till slut har flest poäng har vunnit."
    events = [deal([3, 3, 3], [3, 3, 3])] * 8 + [deal([2, 4, 5], [2, 4, 3])]
    state = play(*events[:8])
    assert not state.finished
    assert state.totals == (104, 104, 104)
    state = n.apply(state, events[8])
    assert state.finished
    assert state.totals == (126, 128, 107)
    assert state.winners == ("b",)
    assert [(s.player, s.placement) for s in state.standings] == [("b", 1), ("a", 2), ("c", 3)]
    with pytest.raises(IllegalEvent, match="over"):
        n.apply(state, events[0])


def test_a_tie_after_nine_deals_is_reported_not_resolved():
    # N4: "a tie is not resolved".
    state = play(*[deal([3, 3, 3], [3, 3, 3])] * 9)
    assert state.finished
    assert state.tie
    assert {s.placement for s in state.standings} == {1}


def test_a_club_may_play_another_number_of_deals():
    state = play(*[deal([3, 3, 3], [3, 3, 3])] * 3, rules=n.Rules(deals=3))
    assert state.finished


def test_the_deal_passes_clockwise_and_forhand_sits_left_of_the_dealer():
    state = n.new_game(PLAYERS)
    assert (state.dealer, state.forhand) == ("a", "b")
    state = n.apply(state, deal([3, 3, 3], [3, 3, 3]))
    assert (state.dealer, state.forhand) == ("b", "c")


def test_bids_may_be_given_as_bid_cards_and_the_turn_up_sets_the_trump():
    event = deal(
        [["C", "D", "D"], ["hj", "hj", "ru"], 2], [3, 4, 2], turn_up="KS", calls={"b": "declare"}
    )
    state = play(event)
    row = state.sheet[0]
    assert row.bids == (3, 4, 2)
    assert row.trump == "S"
    assert row.points == (3 + 10, 4 + 10 + 30, 2 + 10)
    assert play(deal([3, 3, 3], [3, 3, 3], turn_up="9H")).sheet[0].trump == "NT"
    assert play(deal([3, 3, 3], [3, 3, 3], turn_up="JK")).sheet[0].trump == "NT"


def test_a_missed_bid_need_not_be_shown():
    # "(Den som misslyckades behöver inte visa sina.)": a missed bid scores its tricks whatever
    # it was, so the scorer may record it as unknown. b made 4 alone: 4 + 30.
    state = play(deal(["bet", 4, None], [2, 4, 3]))
    row = state.sheet[0]
    assert row.bids == (None, 4, None)
    assert row.made == (False, True, False)
    assert row.points == (2, 34, 3)
    assert "a: bid ?, 2 tricks, missed, +2 = 2" in state.log
    # A missed show still pays each opponent 60 (N1); the shower's bid was seen (below).
    shown = play(deal([3, 3, 2], [3, 3, 3], calls={"a": "pass", "c": "show"}))
    assert shown.sheet[0].points == (3 + 20 + 60, 3 + 20 + 60, 3)
    assert shown.log == (
        "a: bid 3, 3 tricks, made, +83 = 83",
        "b: bid 3, 3 tricks, made, +83 = 83",
        "c: bid 2 (showing), 3 tricks, missed, +3 = 3",
    )


@pytest.mark.parametrize("call", ["declare", "show"])
@pytest.mark.parametrize("missed", [None, "bet", "-"])
def test_a_premium_bidder_turned_his_bid_cards_up_so_his_bid_cannot_be_missed(call, missed):
    # "Deklaration innebär att man är villig att vända upp sina budkort": whoever declared or
    # showed, his bid is on the table, so it cannot be recorded as not shown.
    with pytest.raises(IllegalEvent, match="c (declared|showed), so his bid cards were turned"):
        play(deal([3, 3, missed], [3, 3, 3], calls={"c": call}))
    # The others may still be missed: a's bid was not shown.
    state = play(deal([missed, 3, 2], [3, 3, 3], calls={"c": call}))
    assert state.sheet[0].made == (False, True, False)


def cards_in_hands(rules, turn_up):
    """The oracle: how many cards of each suit the three hands hold, counted from the deck (the
    turn-up lies on the table; the joker in a hand counts as the turn-up's suit, N3)."""
    held = dict.fromkeys("HDCS", 0)
    for card in n._deck(rules.joker):
        if turn_up is not None and card == turn_up:
            continue
        suit = card.suit if card.suit is not None else (turn_up.suit if turn_up else None)
        if suit is not None:
            held[suit.value] += 1
    return held


@pytest.mark.parametrize(
    ("variant", "turn_up"),
    [("nine_deals", "JK"), ("nine_deals", "AC"), ("nine_deals", "9C"), ("trumps_by_success", None)],
)
def test_bid_cards_given_as_suits_always_fit_the_nine_of_each_suit_in_the_hands(variant, turn_up):
    # Issue 14: no suit more often than the deck can hold it, the joker counting as the turned-up
    # card. With a club turned up the hands hold eight clubs and the joker, which counts as a
    # club: nine, as many as with the joker turned up or in the 36-card game. Every way for the
    # three players to lay their nine bid cards as suits is checked against that count.
    rules = n.Rules(variant=variant)
    card = None if turn_up is None else n._card_in_deck(turn_up, rules.joker)
    held = cards_in_hands(rules, card)
    assert held == {"H": 9, "D": 9, "C": 9, "S": 9}
    extra = {} if turn_up is None else {"turn_up": turn_up}
    # So no way of laying them as suits is refused (a check counting eight clubs under a club
    # turn-up would refuse three bids of ♣♣♣).
    for laid in product(combinations_with_replacement("CDHS", 3), repeat=3):
        n.apply(n.new_game(PLAYERS, rules), deal([list(t) for t in laid], [3, 3, 3], **extra))


def test_the_same_card_cannot_be_laid_twice():
    with pytest.raises(IllegalEvent, match="K♠"):
        play(deal([["KS", "D", "D"], ["KS", "D", "D"], 2], [3, 4, 2]))
    with pytest.raises(IllegalEvent, match="K♠"):
        play(deal([["KS", "D", "D"], 3, 2], [3, 4, 2], turn_up="KS"))


# --- the 100-point rubber (N4) -----------------------------------------------------------------


def test_the_rubber_bonus_is_a_hundred_for_each_game_under_eight():
    # "efter bara totalt sex omgångar, får han (8- 6)x 100 = 200 poäng som extra bonus"
    assert n.rubber_bonus(6) == 200
    assert n.rubber_bonus(3) == 500
    assert n.rubber_bonus(7) == 100


def _game_won_by(player):
    # The winner bids nine, shows and takes all nine twice: 99 + 99 = 198 ≥ 100.
    bids = {p: 9 if p == player else 1 for p in PLAYERS}
    tricks = {p: 9 if p == player else 0 for p in PLAYERS}
    event = {"type": "deal", "bids": bids, "tricks": tricks, "calls": {player: "show"}}
    return [event, event]


def test_the_first_to_a_hundred_wins_a_game_and_three_games_the_rubber():
    # Poängräkningsvariant: game winner +100; the rubber winner after three games gets
    # (8 - 3) x 100 = 500. a: 3 x (198 + 100) + 500 = 1394.
    rules = n.Rules(variant="rubber")
    state = play(*_game_won_by("a"), rules=rules)
    assert state.games_won == (1, 0, 0)
    assert state.scores == (0, 0, 0)  # a new game starts from nought
    assert state.totals == (298, 0, 0)
    assert state.sheet[-1].bonus == (100, 0, 0)
    assert state.sheet[-1].scores == (198, 0, 0)
    assert state.game_number == 2
    state = play(*_game_won_by("a") * 3, rules=rules)
    assert state.finished
    assert state.totals == (1394, 0, 0)
    assert state.winners == ("a",)


def test_a_rubber_won_in_the_sixth_game_earns_two_hundred():
    rules = n.Rules(variant="rubber")
    events = [e for w in ("a", "b", "a", "b", "c", "a") for e in _game_won_by(w)]
    state = play(*events, rules=rules)
    assert state.finished
    assert state.games_won == (3, 2, 1)
    assert state.sheet[-1].bonus == (100 + 200, 0, 0)
    assert state.totals == (3 * 298 + 200, 2 * 298, 298)
    assert [s.player for s in state.standings] == ["a", "b", "c"]


def test_opponents_who_reach_a_hundred_in_the_last_deal_of_a_game_get_the_bonus_too():
    # "Vinnaren av en omgång, samt även de motspelare som nådde över 100 poäng under
    # omgången, får dessutom en bonus på 100 poäng." (N4: 100 or more.)
    rules = n.Rules(variant="rubber")
    state = play(
        deal([9, 1, 1], [9, 0, 0], calls={"a": "show"}),  # a 99
        deal([1, 9, 1], [0, 9, 0], calls={"b": "show"}),  # b 99
        deal([4, 5, 1], [4, 5, 0]),  # a 99 + 24 = 123, b 99 + 25 = 124
        rules=rules,
    )
    assert state.sheet[-1].scores == (123, 124, 0)
    assert state.sheet[-1].bonus == (100, 100, 0)
    assert state.games_won == (0, 1, 0)
    assert state.totals == (223, 224, 0)


def test_an_opponent_at_exactly_a_hundred_gets_the_bonus():
    # N4: "nådde över 100" is read as 100 or more.
    rules = n.Rules(variant="rubber")
    state = play(
        deal([9, 1, 1], [9, 0, 0], calls={"a": "show"}),  # a 99
        deal([1, 9, 1], [0, 9, 0], calls={"b": "show"}),  # b 99
        deal([1, 0, 1], [1, 1, 7]),  # a alone 1 + 30 → 130, b 1 → 100
        rules=rules,
    )
    assert state.sheet[-1].scores == (130, 100, 7)
    assert state.sheet[-1].bonus == (100, 100, 0)


def test_a_game_tied_at_the_top_is_played_on():
    rules = n.Rules(variant="rubber")
    state = play(
        deal([9, 1, 1], [9, 0, 0], calls={"a": "show"}),
        deal([1, 9, 1], [0, 9, 0], calls={"b": "show"}),
        deal([4, 4, 1], [4, 4, 1]),  # 113, 113, 11
        rules=rules,
    )
    assert state.scores == (113, 113, 11)
    assert state.games_won == (0, 0, 0)
    state = n.apply(state, deal([1, 1, 1], [1, 0, 8]))
    assert state.games_won == (1, 0, 0)


# --- trumps by success (36 cards) ---------------------------------------------------------------


def test_the_36_card_variant_starts_without_trumps_and_then_trumps_follow_the_successes():
    # "Första given spelas utan trumffärg … ruter om ingen gjorde det, spader om en, hjärter om
    # två och klöver om alla tre spelarna gick hem."
    rules = n.Rules(variant="trumps_by_success")
    state = n.new_game(PLAYERS, rules)
    assert state.trump == "NT"
    state = n.apply(state, deal([2, 4, 5], [2, 4, 3]))
    assert state.sheet[0].trump == "NT"
    assert state.trump == "H"
    state = n.apply(state, deal([3, 3, 3], [3, 3, 3]))
    assert (state.sheet[1].trump, state.trump) == ("H", "C")
    state = n.apply(state, deal([0, 0, 0], [3, 3, 3]))
    assert state.trump == "D"
    assert n.trump_after(1) == "S"


def test_the_36_card_variant_has_no_joker_and_no_turn_up():
    rules = n.Rules(variant="trumps_by_success")
    with pytest.raises(IllegalEvent, match="turn-up"):
        play(deal([3, 3, 3], [3, 3, 3], turn_up="8H"), rules=rules)
    with pytest.raises(IllegalEvent, match="joker"):
        play(deal([["JK", "D", "D"], 3, 3], [3, 3, 3]), rules=rules)


def test_the_36_card_variant_is_won_at_a_hundred_or_more():
    rules = n.Rules(variant="trumps_by_success")
    state = play(deal([9, 1, 1], [9, 0, 0], calls={"a": "show"}), rules=rules)
    assert not state.finished
    state = n.apply(state, deal([1, 1, 1], [1, 0, 8]))  # a 99 + 31 = 130
    assert state.finished
    assert state.winners == ("a",)


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (deal([3, 3, 3], [3, 3, 4]), "9"),
        (deal([3, 3, 10], [3, 3, 3]), r"\bc\b.*10"),
        (deal([3, 3, -1], [3, 3, 3]), r"\bc\b.*-1"),
        (deal([3, 3, 3], [3, 7, -1]), r"\bc\b.*-1"),
        (deal([3, 3, "3"], [3, 3, 3]), r"\bc\b"),
        (deal([3, 3, "maybe"], [3, 3, 3]), r"\bc\b.*'maybe'"),
        ({"type": "deal", "bids": {"a": 3, "b": 3}, "tricks": {"a": 3, "b": 3, "c": 3}}, r"\bc\b"),
        ({"type": "deal", "bids": {"a": 3, "b": 3, "c": 3}}, "tricks"),
        (deal([3, 3, 3], [3, 3, 3], turn_up="4H"), "4"),
        ({"type": "premium"}, "premium"),
        # Issue 14: a typo of a key is refused by name, not read as "everybody passed".
        (
            deal([3, 3, 3], [3, 3, 3]) | {"call": {"b": "show"}},
            "a deal records nothing called 'call'; it records the bids, the tricks taken, the "
            "premium calls, the turned-up card",
        ),
        (
            deal([3, 3, 3], [3, 3, 3], calls={"b": "shows"}),
            "a deal: the premium calls: b must be one of",
        ),
        (deal([3, 3, 3], [3, 3, 3], turn_up=7), "the turned-up card must be a card"),
        ({"type": "deal", "tricks": {"a": 3, "b": 3, "c": 3}}, "a deal needs the bids"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


def test_the_rules_refuse_unknown_variants_and_no_deals():
    with pytest.raises(ValueError, match="variant"):
        n.Rules(variant="bridge")
    with pytest.raises(ValueError, match="deals"):
        n.Rules(deals=0)


def test_a_game_needs_three_players():
    with pytest.raises(IllegalEvent, match="3 players"):
        n.new_game(["a", "b"])


def test_apply_never_changes_the_state_it_was_given_and_the_state_is_json():
    state = n.new_game(PLAYERS, n.Rules(variant="rubber"))
    after = n.apply(state, deal([2, 4, 5], [2, 4, 3], calls={"b": "show"}))
    assert state.sheet == ()
    assert state.totals == (0, 0, 0)
    json.dumps(dataclasses.asdict(after))


# --- invariants ---------------------------------------------------------------------------------


@st.composite
def deals(draw):
    bids = draw(st.lists(st.one_of(st.integers(0, 9), st.none()), min_size=3, max_size=3))
    cut = sorted(draw(st.lists(st.integers(0, 9), min_size=2, max_size=2)))
    tricks = [cut[0], cut[1] - cut[0], 9 - cut[1]]
    caller = draw(st.sampled_from([None, *PLAYERS]))
    calls = {} if caller is None else {caller: draw(st.sampled_from(["declare", "show"]))}
    if caller is not None and bids[PLAYERS.index(caller)] is None:  # his bid cards were seen
        bids[PLAYERS.index(caller)] = draw(st.integers(0, 9))
    return bids, tricks, calls


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(n.VARIANTS),
    st.lists(deals(), min_size=1, max_size=30),
)
def test_every_deal_hands_out_nine_trick_points_plus_the_bonuses(variant, sequence):
    state = n.new_game(PLAYERS, n.Rules(variant=variant))
    for bids, tricks, calls in sequence:
        if state.finished:
            break
        if variant == "pennycook":
            calls = {}  # no premiums in Pennycook's game
        before = state.totals
        state = n.apply(state, deal(bids, tricks, calls=calls))
        row = state.sheet[-1]
        made = [b is not None and b == t for b, t in zip(bids, tricks, strict=True)]
        success_bonus = {0: 0, 1: 30, 2: 2 * 20, 3: 3 * 10}[sum(made)]
        premium = 0
        for player, kind in calls.items():
            value = 30 if kind == "declare" else 60
            premium = value if made[PLAYERS.index(player)] else 2 * value
        assert sum(row.points) == 9 + success_bonus + premium
        for took, points in zip(tricks, row.points, strict=True):
            assert took <= points <= 99
        # The sheet's bonuses (games and rubbers) come in hundreds, and the totals add up.
        assert all(b % 100 == 0 and b >= 0 for b in row.bonus)
        assert state.totals == tuple(
            t + p + b for t, p, b in zip(before, row.points, row.bonus, strict=True)
        )
        if variant == "trumps_by_success":
            assert state.trump == "DSHC"[sum(made)]
    if variant == "nine_deals":
        assert state.finished == (len(state.sheet) == 9)
    if state.finished and not state.tie:
        best = max(state.totals)
        assert state.totals[PLAYERS.index(state.winners[0])] == best or variant == "rubber"


# --- what no table can produce (issue 25) ----------------------------------------------------


def test_a_deal_is_nine_tricks_of_nine_cards_each():
    # 12 cards, three laid as bid cards: nine played, nine tricks. 9-0-0 can be (a holds the
    # top cards), 10 or 8 in all cannot.
    assert play(deal([9, 0, 0], [9, 0, 0])).sheet[0].made == (True, True, True)
    with pytest.raises(IllegalEvent, match="add up to 10, but a deal has 9"):
        play(deal([3, 3, 3], [4, 3, 3]))
    with pytest.raises(IllegalEvent, match="add up to 8, but a deal has 9"):
        play(deal([3, 3, 3], [3, 3, 2]))


def test_the_joker_turned_up_is_in_no_hand_and_the_turn_up_in_no_bid():
    # The joker turned up: nobody holds it, so nobody lays it (N3).
    with pytest.raises(IllegalEvent, match="the joker was turned up"):
        play(deal([["JK", "C", "D"], 3, 3], [3, 3, 3], turn_up="JK"))
    # K♠ turned up lies on the table: b cannot lay it.
    with pytest.raises(IllegalEvent, match="K♠ is given twice"):
        play(deal([3, ["KS", "C", "D"], 3], [3, 3, 3], turn_up="KS"))
    # A joker laid without the turn-up: its suit (the turn-up's) is unknown.
    with pytest.raises(IllegalEvent, match="give the turn-up"):
        play(deal([["JK", "C", "D"], 3, 3], [3, 3, 3]))
    # With 8♥ turned up the joker is a heart: ♥ ♣ ♦ = 2 + 3 + 0 = 5.
    row = play(deal([["JK", "C", "D"], 4, 0], [5, 4, 0], turn_up="8H")).sheet[0]
    assert row.bids == (5, 4, 0)


def test_bid_cards_are_three_cards_of_the_deck_in_play():
    with pytest.raises(IllegalEvent, match="three bid cards"):
        play(deal([["C", "C"], 3, 3], [3, 3, 3]))
    with pytest.raises(IllegalEvent, match="not in the 37-card deck"):
        play(deal([["5C", "C", "D"], 3, 3], [3, 3, 3]))
    with pytest.raises(IllegalEvent, match="not in the 36-card deck"):
        play(
            deal([["JK", "C", "D"], 3, 3], [3, 3, 3]),
            rules=n.Rules(variant="trumps_by_success"),
        )


def test_a_game_stored_before_issue_25_keeps_replaying():
    state = n.new_game(PLAYERS, legacy_facts=True)
    assert state.legacy_facts
    assert n.apply(state, deal([3, 3, 3], [3, 3, 3])).sheet[0].made == (True, True, True)
