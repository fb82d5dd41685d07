"""Fyrtioett: worked examples from the rules text (populara_kortspel.sv.txt, "Fyrtioett regler")
and NOTES.md F1–F5, bad input, and hypothesis invariants of the score sheet."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import fyrtioett as f
from engine.errors import IllegalEvent

PLAYERS = ("a", "b", "c", "d")  # sides a & c against b & d


def deal(bids, tricks):
    return {
        "type": "deal",
        "bids": dict(zip(PLAYERS, bids, strict=True)),
        "tricks": dict(zip(PLAYERS, tricks, strict=True)),
    }


def play(*events, rules=None):
    state = f.new_game(PLAYERS, rules or f.Rules())
    for event in events:
        state = f.apply(state, event)
    return state


# --- the bid's worth and one deal ----------------------------------------------------------


def test_bids_up_to_six_are_worth_their_number_and_seven_or_more_double():
    # "Ett bud från 1 upp till 6 stick motsvarar lika många poäng … 7 stick =14 poäng, 8 stick
    # =16 poäng"
    assert [f.bid_worth(n) for n in (1, 4, 6, 7, 8, 13)] == [1, 4, 6, 14, 16, 26]


def test_a_made_bid_scores_its_worth_without_overtricks_and_a_failed_one_loses_it():
    # Poängräkning: bid 4 and take 5 → 4; bid 8 and take 8 → 16; bid 5 and take 4 → -5.
    # The fourth bid 7 taking 0 loses double: -14.
    assert f.score_deal([4, 8, 5, 7], [5, 8, 0, 0]) == (4, 16, -5, -14)


def test_the_calculator_refuses_tricks_that_do_not_add_up_to_thirteen():
    with pytest.raises(IllegalEvent, match="13"):
        f.score_deal([4, 4, 4, 4], [4, 4, 4, 4])


def test_a_seven_bid_alone_makes_the_deal_worth_playing():
    # "Om någon av spelarna bjuder 7 stick eller mer, hamnar därför poängsumman automatiskt
    # över 11"
    assert f.bids_worth([7, 1, 1, 1]) == 17
    assert f.deal_is_played([7, 1, 1, 1])
    assert f.deal_is_played([3, 3, 3, 2])  # 11 is enough
    assert not f.deal_is_played([3, 3, 2, 2])


def test_a_deal_is_scored_on_the_sheet_and_the_deal_passes_counter_clockwise():
    # F5: the deal rotates counter-clockwise, so after a (seat 0) comes d (seat 3);
    # förhand sits to the dealer's right: d bids first when a deals.
    state = f.new_game(PLAYERS)
    assert state.dealer == "a"
    assert state.forhand == "d"
    state = f.apply(state, deal([4, 8, 5, 7], [5, 8, 0, 0]))
    assert state.scores == (4, 16, -5, -14)
    assert state.dealer == "d"
    assert state.forhand == "c"
    row = state.sheet[0]
    assert (row.dealer, row.bids, row.tricks, row.points) == (
        "a",
        (4, 8, 5, 7),
        (5, 8, 0, 0),
        (4, 16, -5, -14),
    )
    assert not state.finished
    assert state.expected == ("deal", "throw_in")
    assert "b: bid 8, 8 tricks, +16 = 16" in state.log


def test_the_scores_run_on_from_deal_to_deal():
    state = play(deal([4, 8, 5, 7], [5, 8, 0, 0]), deal([2, 3, 3, 5], [2, 3, 3, 5]))
    assert state.scores == (6, 19, -2, -9)
    assert state.sheet[1].scores == (6, 19, -2, -9)
    assert state.dealer == "c"


# --- throw-in ------------------------------------------------------------------------------


def test_bids_worth_less_than_eleven_throw_the_deal_in_and_the_next_dealer_deals():
    # Budgivning: "Blir summan av buden lägre än 11 poäng kastar alla sina kort och det blir en
    # ny giv, där näste spelare i ordning motsols delar ut korten."
    state = play({"type": "throw_in", "bids": {"d": 3, "c": 3, "b": 2}})
    assert state.scores == (0, 0, 0, 0)
    assert state.dealer == "d"
    assert state.sheet[0].thrown_in
    assert state.sheet[0].bids == (None, 2, 3, 3)


def test_a_throw_in_may_be_recorded_without_the_bids():
    state = play({"type": "throw_in"}, {"type": "throw_in"})
    assert state.dealer == "c"
    assert len(state.sheet) == 2


def test_a_deal_whose_bids_are_worth_less_than_eleven_is_refused_as_a_played_deal():
    # F3: 3+3+2+2 = 10 points, so there is no play.
    with pytest.raises(IllegalEvent, match="10 points.*thrown in"):
        play(deal([3, 3, 2, 2], [3, 3, 2, 5]))


def test_a_throw_in_is_refused_when_the_bids_are_worth_eleven():
    with pytest.raises(IllegalEvent, match="11"):
        play({"type": "throw_in", "bids": {"a": 3, "b": 3, "c": 3, "d": 2}})


def test_the_state_tells_the_bidding_order_counter_clockwise_from_forhand():
    # "Med början på förhand till höger om given och vidare motsols": a deals, so d (to a's
    # right) bids first and the dealer last; the next deal d deals and c bids first.
    state = f.new_game(PLAYERS)
    assert (state.dealer, state.forhand) == ("a", "d")
    assert state.bidding_order == ("d", "c", "b", "a")
    state = f.apply(state, {"type": "throw_in"})
    assert state.bidding_order == ("c", "b", "a", "d")
    state = f.new_game(PLAYERS, first_dealer="c")
    assert state.bidding_order == ("b", "a", "d", "c")


def test_a_throw_in_takes_the_bids_in_bidding_order_from_forhand():
    # a deals, so d, c, b, a bid in that order; c and b cannot have bid without d.
    with pytest.raises(IllegalEvent, match=r"\bd\b"):
        play({"type": "throw_in", "bids": {"c": 2, "b": 2}})


# --- winning ---------------------------------------------------------------------------------


def test_forty_one_exactly_wins_for_the_side():
    # F1: "uppnår 41 eller fler" — 41 exactly counts.
    state = play(
        deal([10, 1, 1, 1], [10, 1, 1, 1]),  # a +20
        deal([10, 1, 1, 1], [10, 1, 1, 1]),  # a 40
        deal([1, 4, 4, 4], [1, 4, 4, 4]),  # a 41, b c d 6
    )
    assert state.scores == (41, 6, 6, 6)
    assert state.finished
    assert state.winners == ("a", "c")
    assert not state.tie
    assert state.expected == ()
    placements = {s.player: s.placement for s in state.standings}
    assert placements == {"a": 1, "c": 1, "b": 3, "d": 3}
    assert {s.player: s.score for s in state.standings}["c"] == 6


def test_forty_is_not_enough():
    state = play(deal([10, 1, 1, 1], [10, 1, 1, 1]), deal([10, 1, 1, 1], [10, 1, 1, 1]))
    assert state.scores[0] == 40
    assert not state.finished


def _build_up(times):
    # a and b each +6, c +1, d -1 per deal: bids 6, 6, 1, 1 (worth 14), tricks 6, 6, 1, 0.
    return [deal([6, 6, 1, 1], [6, 6, 1, 0]) for _ in range(times)]


def test_when_both_sides_cross_in_the_same_deal_the_higher_player_wins():
    # "Om två spelare från olika sidor samtidigt överskrider 41 poäng, vinner den spelare (och
    # sida) som får flest." After six deals a 36, b 36, c 6, d -6; then a +5 → 41 and b +6 → 42.
    state = play(*_build_up(6), deal([5, 6, 1, 1], [5, 6, 2, 0]))
    assert state.scores == (41, 42, 7, -7)
    assert state.winners == ("b", "d")


def test_when_the_crossing_players_are_equal_the_partners_decide():
    # "Är detta lika, avgörs striden av hur många poäng partnern har." a 42, b 42, c 7, d -7.
    state = play(*_build_up(7))
    assert state.scores == (42, 42, 7, -7)
    assert state.winners == ("a", "c")


def test_a_full_tie_is_reported_rather_than_guessed():
    # F4: a and b cross equal, partners c and d equal. Per deal a +5, b +5, c +1, d +1.
    state = play(*[deal([5, 5, 1, 1], [5, 5, 1, 2]) for _ in range(9)])
    assert state.scores == (45, 45, 9, 9)
    assert state.finished
    assert state.tie
    assert state.winners == ()
    assert {s.placement for s in state.standings} == {1}
    assert state.log[-1].template == (
        "Tie: the players over {target} and their partners have as many points – a draw"
    )


def test_both_partners_crossing_wins_for_their_side():
    # F5: both crossing players on the same side → that side wins.
    assert f.decide_winner([41, 10, 45, 40]) == f.Outcome(winners=(0, 2), tie=False)
    assert f.decide_winner([10, 41, 20, 50]) == f.Outcome(winners=(1, 3), tie=False)
    assert f.decide_winner([30, 10, 40, 40]) == f.Outcome(winners=(), tie=False)
    assert f.decide_winner([41, 41, 40, 41]) == f.Outcome(winners=(1, 3), tie=False)


def test_nothing_is_accepted_after_the_game_is_over():
    state = play(*_build_up(7))
    with pytest.raises(IllegalEvent, match="over"):
        f.apply(state, deal([6, 6, 1, 1], [6, 6, 1, 0]))


# --- options and bad input -------------------------------------------------------------------


def test_a_club_may_require_bids_of_at_least_two():
    # F2: "many tables require 2" (club option).
    with pytest.raises(IllegalEvent, match=r"\bc\b.*at least 2"):
        play(deal([6, 6, 1, 2], [6, 6, 1, 0]), rules=f.Rules(min_bid=2))
    state = play(deal([6, 5, 2, 2], [6, 5, 2, 0]), rules=f.Rules(min_bid=2))
    assert state.scores == (6, 5, 2, -2)


def test_the_rules_refuse_a_minimum_bid_out_of_range():
    with pytest.raises(ValueError, match="min_bid"):
        f.Rules(min_bid=0)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (deal([4, 4, 4, 4], [4, 4, 4, 4]), "13"),
        (deal([4, 4, 4, 14], [4, 4, 4, 1]), r"\bd\b.*14"),
        (deal([4, 4, 4, 0], [4, 4, 4, 1]), r"\bd\b.*0"),
        (deal([4, 4, 4, 4], [4, 4, 6, -1]), r"\bd\b.*-1"),
        ({"type": "deal", "bids": {"a": 4, "b": 4, "c": 4}, "tricks": {}}, r"\bd\b"),
        ({"type": "deal", "bids": {"a": 4, "b": 4, "c": 4, "d": 4, "x": 1}}, r"\bx\b"),
        ({"type": "deal", "bids": {"a": 4, "b": 4, "c": 4, "d": "4"}}, r"\bd\b"),
        ({"type": "deal", "bids": {"a": 4, "b": 4, "c": 4, "d": True}}, r"\bd\b"),
        ({"type": "deal", "bids": [4, 4, 4, 4], "tricks": [4, 4, 4, 1]}, "bids"),
        ({"type": "deal", "bids": {"a": 4, "b": 4, "c": 4, "d": 4}}, "tricks"),
        ({"type": "bid"}, "bid"),
        # Issue 14: a typo of a key is refused by name, not read as "no bids".
        (
            {"type": "deal", "bid": {"a": 4}, "tricks": {"a": 4}},
            "a deal records nothing called 'bid'; it records the bids, the tricks taken",
        ),
        ({"type": "throw_in", "bid": {"d": 2}}, "a throw-in records nothing called 'bid'"),
        ({"type": "deal", "tricks": {"a": 4, "b": 4, "c": 4, "d": 1}}, "a deal needs the bids"),
        (
            {"type": "throw_in", "bids": {"d": "2"}},
            "a throw-in: the bids: d must be a whole number",
        ),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


def test_a_game_needs_four_players_with_distinct_keys():
    with pytest.raises(IllegalEvent, match="4 players"):
        f.new_game(["a", "b", "c"])
    with pytest.raises(IllegalEvent, match="twice"):
        f.new_game(["a", "b", "a", "d"])


def test_the_partners_are_exposed_as_teams_for_the_league():
    # "I kortspelet fyrtioett spelar man parvis mot varandra som i whist": seats 0 & 2, 1 & 3.
    state = f.new_game(PLAYERS)
    assert state.teams == {"a": 0, "b": 1, "c": 0, "d": 1}
    finished = play(*_build_up(7))
    assert finished.teams == state.teams
    assert {finished.teams[w] for w in finished.winners} == {0}
    assert dataclasses.asdict(finished)["teams"] == {"a": 0, "b": 1, "c": 0, "d": 1}


def test_the_scorer_may_pick_the_first_dealer():
    # G2
    state = f.new_game(PLAYERS, first_dealer="c")
    assert (state.dealer, state.forhand) == ("c", "b")
    with pytest.raises(IllegalEvent, match=r"\bx\b"):
        f.new_game(PLAYERS, first_dealer="x")


def test_apply_never_changes_the_state_it_was_given_and_the_state_is_json():
    state = f.new_game(PLAYERS)
    after = f.apply(state, deal([4, 8, 5, 7], [5, 8, 0, 0]))
    assert state.scores == (0, 0, 0, 0)
    assert state.sheet == ()
    json.dumps(dataclasses.asdict(after))


# --- invariants ------------------------------------------------------------------------------


@st.composite
def deals(draw):
    bids = draw(st.lists(st.integers(1, 9), min_size=4, max_size=4))
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
    return bids, tricks


@settings(max_examples=150, deadline=None)
@given(st.lists(deals(), min_size=1, max_size=30))
def test_the_score_sheet_keeps_its_invariants(sequence):
    state = f.new_game(PLAYERS)
    dealers = [state.dealer]
    for bids, tricks in sequence:
        if state.finished:
            break
        worth = sum(b if b < 7 else 2 * b for b in bids)
        event = deal(bids, tricks) if worth >= 11 else {"type": "throw_in"}
        before = state.scores
        state = f.apply(state, event)
        dealers.append(state.dealer)
        row = state.sheet[-1]
        if worth < 11:
            assert state.scores == before
            continue
        made = [b for b, t in zip(bids, tricks, strict=True) if t >= b]
        # Every point is a whole bid's worth, won or lost, and the bids made fit in 13 tricks.
        for bid, took, points in zip(bids, tricks, row.points, strict=True):
            assert abs(points) == (bid if bid < 7 else 2 * bid)
            assert (points > 0) == (took >= bid)
        assert sum(made) <= 13
        assert state.scores == tuple(b + p for b, p in zip(before, row.points, strict=True))
    # The sheet's rows add up to the scores; the game ends exactly when someone reaches 41.
    columns = [sum(r.points[i] for r in state.sheet) for i in range(4)]
    assert tuple(columns) == state.scores
    assert state.finished == (max(state.scores) >= 41)
    for earlier in state.sheet[:-1]:
        assert max(earlier.scores) < 41
    if state.finished and not state.tie:
        assert any(state.scores[PLAYERS.index(p)] >= 41 for p in state.winners)
        assert state.winners in (("a", "c"), ("b", "d"))
    # The deal moves one seat counter-clockwise per deal, thrown in or played.
    for before_dealer, after_dealer in zip(dealers, dealers[1:], strict=False):
        assert PLAYERS.index(after_dealer) == (PLAYERS.index(before_dealer) - 1) % 4


# --- what no table can produce (issue 25) ----------------------------------------------------


def test_a_deal_thrown_in_has_no_tricks_and_says_so_in_words():
    # "kastar alla sina kort": b (förhand), c and d bid 2 + 3 + 3 = 8 and a throws in; nobody
    # played a card, so c cannot have taken four tricks. The pad sends its trick row with the
    # throw-in button: the refusal names the player and the count, never an event or a key.
    thrown = {"type": "throw_in", "bids": {"b": 2, "c": 3, "d": 3}}
    with pytest.raises(IllegalEvent) as refused:
        play({**thrown, "tricks": {"c": 4, "d": 0}})
    message = str(refused.value)
    assert message.startswith("the cards were thrown in before anyone played")
    assert "c has 4" in message
    assert "throw_in" not in message
    assert "'tricks'" not in message
    # A blank trick row (noughts) says nothing that did not happen.
    state = play({**thrown, "tricks": {"a": 0, "b": 0, "c": 0, "d": 0}})
    assert state.sheet[0].thrown_in
    assert state.sheet[0].tricks == ()


def test_every_split_of_the_thirteen_tricks_is_accepted_and_no_other():
    # 13 tricks, one per card of a hand: 13-0-0-0 (a holds the thirteen hearts, the trumps, and
    # leads them) as much as 4-3-3-3; 14 or 12 in all cannot be.
    assert play(deal([7, 1, 1, 1], [13, 0, 0, 0])).sheet[0].tricks == (13, 0, 0, 0)
    assert play(deal([4, 3, 3, 3], [4, 3, 3, 3])).sheet[0].tricks == (4, 3, 3, 3)
    with pytest.raises(IllegalEvent, match="add up to 14, but a deal has 13"):
        play(deal([4, 3, 3, 3], [4, 4, 3, 3]))
    with pytest.raises(IllegalEvent, match="add up to 12, but a deal has 13"):
        play(deal([4, 3, 3, 3], [3, 3, 3, 3]))


def test_a_game_stored_before_issue_25_keeps_replaying():
    state = f.new_game(PLAYERS, legacy_facts=True)
    assert state.legacy_facts
    assert f.apply(state, deal([4, 3, 3, 3], [4, 3, 3, 3])).scores == (4, 3, 3, 3)
