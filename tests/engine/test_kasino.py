"""Kasino: worked examples from the rules text (populara_kortspel.sv.txt, "Kortspelet: Kasino")
and NOTES.md KA1–KA4, bad input, and hypothesis invariants of the score sheet."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import kasino as k
from engine.errors import IllegalEvent

TWO = ("a", "b")
FOUR = ("a", "b", "c", "d")


def deal(
    most_cards="a",
    most_spades="a",
    big="a",
    little="a",
    aces=("a", "a", "a", "a"),
    last="a",
    tabbar=None,
    **extra,
):
    event = {
        "type": "deal",
        "most_cards": most_cards,
        "most_spades": most_spades,
        "big_casino": big,
        "little_casino": little,
        "aces": dict(zip("SHDC", aces, strict=True)),
        "last": last,
        **extra,
    }
    if tabbar is not None:
        event["tabbar"] = tabbar
    return event


def play(*events, players=TWO, rules=None):
    state = k.new_game(players, rules or k.Rules())
    for event in events:
        state = k.apply(state, event)
    return state


def score(state, player):
    return state.scores[k.side_of(state, player)]


# --- one deal -------------------------------------------------------------------------------


def test_one_player_taking_everything_gets_the_eleven_points_plus_his_tabbar():
    # "Förutom eventuella tabbar finns alltså 11 poäng som ska fördelas."
    state = play(deal(tabbar={"a": 2}))
    assert score(state, "a") == 13
    assert score(state, "b") == 0
    assert state.sheet[0].points == (13, 0)


def test_each_item_scores_as_the_table_lists_it():
    # Flest kort 1, flest spader 2, per tabbe 1, per ess 1, storan 2, lillan 1, sistan 1.
    # a: most cards 1 + storan 2 + aces ♠♥ 2 + sistan 1 + two tabbar = 8;
    # b: most spades 2 + lillan 1 + aces ♦♣ 2 + one tabbe = 6. 11 + 3 tabbar = 14 in all.
    state = play(
        deal(
            most_cards="a",
            most_spades="b",
            big="a",
            little="b",
            aces=("a", "a", "b", "b"),
            last="a",
            tabbar={"a": 2, "b": 1},
        )
    )
    assert state.scores == (8, 6)
    row = state.sheet[0]
    assert row.points == (8, 6)
    assert row.tabbar == {"a": 2, "b": 1}
    assert not state.finished
    assert state.expected == ("deal", "claim")
    assert state.log[:4] == (
        "Deal 1: a +8 = 8 · b +6 = 6",
        "storan a, lillan b, last take a",
        "most cards a, most spades b",
        "tabbar a 2, b 1",
    )


def test_a_tie_for_most_cards_or_most_spades_voids_those_points():
    # "Har ingen ensam flest kort, eller flest spader, bortfaller de poängen." KA1: not carried.
    state = play(
        deal(most_cards="tie", most_spades="tie", big="b", little="c", last="b"),
        players=("a", "b", "c"),
    )
    assert state.scores == (4, 3, 1)
    assert sum(state.sheet[0].points) == 8
    state = k.apply(state, deal(most_cards="c", most_spades="c", big="c", little="c", last="c"))
    # KA1: the voided points are not carried into the next deal: c gets 1 + 2, not 2 + 4.
    assert state.sheet[1].points == (4, 0, 7)


def test_the_dealer_moves_one_seat_to_the_left_each_deal():
    state = k.new_game(("a", "b", "c"))
    assert state.dealer == "a"
    state = k.apply(state, deal())
    assert state.dealer == "b"
    assert state.sheet[0].dealer == "a"
    assert k.new_game(("a", "b", "c"), first_dealer="c").dealer == "c"


def test_card_counts_may_be_given_instead_of_who_had_most():
    # a took 30 cards and 6 spades, b 22 cards and 7 spades: a most cards, b most spades.
    event = deal(
        most_cards=None,
        most_spades=None,
        cards={"a": 30, "b": 22},
        spades={"a": 6, "b": 7},
    )
    state = play(event)
    assert state.sheet[0].most_cards == "a"
    assert state.sheet[0].most_spades == "b"
    assert state.scores == (1 + 2 + 1 + 4 + 1, 2)


def test_equal_card_counts_are_a_tie():
    event = deal(most_cards=None, cards={"a": 26, "b": 26})
    assert play(event).sheet[0].most_cards is None


def test_points_may_be_entered_per_player_when_the_table_counts_itself():
    # A deal hands out 11 points besides tabbar, 10, 9 or 8 when "most" points are void.
    state = play({"type": "deal", "points": {"a": 7, "b": 4}, "tabbar": {"b": 1}})
    assert state.scores == (7, 5)
    state = k.apply(state, {"type": "deal", "points": {"a": 5, "b": 3}})
    assert state.scores == (12, 8)


# --- winning --------------------------------------------------------------------------------


def test_the_first_to_sixteen_wins():
    # "den som först fått 16 eller fler poäng har vunnit". 11 + 5 tabbar = 16 in one deal.
    state = play(deal(tabbar={"a": 5}))
    assert score(state, "a") == 16
    assert state.finished
    assert state.winners == ("a",)
    assert state.expected == ()
    assert [(s.player, s.placement, s.score) for s in state.standings] == [
        ("a", 1, 16),
        ("b", 2, 0),
    ]
    with pytest.raises(IllegalEvent, match="over"):
        k.apply(state, deal())


def test_fifteen_is_not_enough():
    state = play(deal(tabbar={"a": 4}))
    assert score(state, "a") == 15
    assert not state.finished


def _everything_to(player, tabbar=0):
    return deal(player, player, player, player, (player,) * 4, player, {player: tabbar})


def test_when_several_reach_sixteen_in_one_deal_the_highest_total_wins():
    # KA3 (suggested: the highest total). a 11, b 11; then a gets most cards, most spades,
    # storan, 3 aces and sistan = 9 → 20; b lillan, 1 ace and 5 tabbar = 7 → 18.
    state = play(_everything_to("a"), _everything_to("b"))
    assert state.scores == (11, 11)
    state = k.apply(state, deal(little="b", aces=("a", "a", "a", "b"), tabbar={"b": 5}))
    assert state.scores == (20, 18)
    assert state.finished
    assert state.winners == ("a",)
    assert [s.placement for s in state.standings] == [1, 2]


def test_an_equal_highest_total_over_sixteen_plays_another_deal():
    # KA3 is not resolved by the text: nobody is first, so another deal decides.
    state = play(_everything_to("a"), _everything_to("b"))
    state = k.apply(
        state,
        deal(most_spades="b", little="b", aces=("a", "a", "b", "b"), tabbar={"b": 1}),
    )
    assert state.scores == (17, 17)
    assert not state.finished
    assert state.log[-1] == "a and b are level at 17: one more deal decides"
    state = k.apply(state, _everything_to("b"))
    assert state.finished
    assert state.winners == ("b",)


def test_a_player_may_stop_play_on_reaching_sixteen_with_points_already_certain():
    # "Når man 16 poäng under pågående spel … har man rätt att avbryta spelet." KA2: only aces,
    # storan, lillan and tabbar count; a at 11 + storan 2 + 2 aces + 1 tabbe = 16.
    state = play(_everything_to("a"))
    state = k.apply(
        state,
        {
            "type": "claim",
            "player": "a",
            "big_casino": True,
            "little_casino": False,
            "aces": 2,
            "tabbar": 1,
        },
    )
    assert state.finished
    assert state.scores == (16, 0)
    assert state.winners == ("a",)
    assert state.sheet[-1].claim
    assert state.standings[0].player == "a"


def test_a_claim_short_of_sixteen_is_refused():
    state = play(_everything_to("a"))
    with pytest.raises(IllegalEvent, match="15"):
        k.apply(state, {"type": "claim", "player": "a", "big_casino": True, "aces": 2})


def test_a_claim_cannot_hold_more_than_four_aces():
    state = play(_everything_to("a"))
    with pytest.raises(IllegalEvent, match="4 aces"):
        k.apply(state, {"type": "claim", "player": "a", "aces": 5})


# --- partnership (KA4) ------------------------------------------------------------------------


def test_partners_opposite_each_other_score_together_with_four_players():
    rules = k.Rules(partnership=True)
    state = k.new_game(FOUR, rules)
    assert state.sides == (("a", "c"), ("b", "d"))
    assert state.teams == {"a": 0, "c": 0, "b": 1, "d": 1}
    state = k.apply(
        state,
        deal(
            most_cards="c",
            most_spades="b",
            big="c",
            little="d",
            aces=("a", "b", "c", "d"),
            last="a",
            tabbar={"a": 1, "c": 1, "d": 1},
        ),
    )
    # a & c: 1 + 2 + 2 aces + 1 + 2 tabbar = 8; b & d: 2 + 1 + 2 aces + 1 tabbe = 6.
    assert state.scores == (8, 6)
    assert score(state, "c") == 8
    assert state.log[0] == "Deal 1: a & c +8 = 8 · b & d +6 = 6"
    # Partners are a nested line, so the history can put both names in.
    side = state.log[0].params["scores"].params["first"].params["side"]
    assert side.params == {"player": "a", "partner": "c"}
    assert state.league_details["c"] == {"tabbar": 1}


def test_partnership_counts_are_summed_per_side():
    rules = k.Rules(partnership=True)
    event = deal(
        most_cards=None,
        most_spades=None,
        cards={"a": 12, "b": 14, "c": 16, "d": 10},
        spades={"a": 3, "b": 4, "c": 3, "d": 3},
    )
    row = play(event, players=FOUR, rules=rules).sheet[0]
    # a & c took 28 cards and 6 spades, b & d 24 cards and 7 spades.
    assert row.most_cards == "a"
    assert row.most_spades == "b"


def test_a_partnership_ends_with_both_partners_sharing_the_win():
    rules = k.Rules(partnership=True)
    state = play(deal(tabbar={"c": 3, "a": 2}), players=FOUR, rules=rules)
    assert state.finished
    assert {(s.player, s.placement) for s in state.standings} == {
        ("a", 1),
        ("c", 1),
        ("b", 3),
        ("d", 3),
    }


def test_partnership_needs_four_players():
    with pytest.raises(IllegalEvent, match="four"):
        k.new_game(("a", "b", "c"), k.Rules(partnership=True))


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (deal(big=None), "storan"),
        (deal(big=["a", "b"]), "one player"),
        (deal(little="x"), "'x'"),
        (deal(last=None), "sistan"),
        (deal(most_cards=None), "most cards"),
        (deal(most_spades=["a", "b"]), "one player"),
        ({**deal(), "aces": ["a", "a", "b", "b", "a"]}, "4 aces"),
        ({**deal(), "aces": {"S": "a", "H": "a", "D": "a"}}, "ace of ♣"),
        ({**deal(), "aces": {"S": "a", "H": "a", "D": "a", "C": "a", "X": "b"}}, "'X'"),
        (deal(tabbar={"a": -1}), "-1"),
        (deal(tabbar={"a": 25}), "24"),
        (deal(tabbar={"a": "2"}), "whole number"),
        (deal(most_cards=None, cards={"a": 30, "b": 30}), "52"),
        (deal(most_spades=None, spades={"a": 10, "b": 10}), "13"),
        (deal(most_cards="b", cards={"a": 30, "b": 22}), "most cards"),
        (
            deal(
                most_cards=None, most_spades=None, cards={"a": 47, "b": 5}, spades={"a": 7, "b": 6}
            ),
            "spades",
        ),
        (
            deal(
                most_cards=None,
                aces=("b", "b", "b", "b"),
                big="b",
                little="b",
                cards={"a": 49, "b": 3},
            ),
            "cards",
        ),
        ({"type": "deal", "points": {"a": 8, "b": 4}}, "11"),
        ({"type": "deal", "points": {"a": 4, "b": 3}}, "8"),
        ({"type": "deal", "points": {"a": -1, "b": 10}}, "-1"),
        ({"type": "shuffle"}, "shuffle"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            {**deal(), "tabbars": {"a": 1}},
            "a deal records nothing called 'tabbars'; it records who had most cards",
        ),
        ({"type": "claim", "player": "a", "ace": 2}, "a stop at 16 records nothing called 'ace'"),
        ({"type": "claim", "aces": 2}, "a stop at 16 needs the player who stops play"),
        (
            {"type": "claim", "player": "a", "big_casino": "yes"},
            r"a stop at 16: storan \(♦10\) must be true or false",
        ),
        (
            {"type": "claim", "player": "a", "aces": "two"},
            "a stop at 16: the aces taken must be a whole number",
        ),
        ({**deal(), "big_casino": 3}, r"a deal: storan \(♦10\) must be a player"),
        ({**deal(), "aces": "a"}, "a deal: the aces must be who took each ace"),
        (
            {**deal(most_cards=None), "cards": {"a": 52}},
            "a deal: the cards each player took: b is missing",
        ),
        (
            {"type": "deal", "points": {"a": "11"}},
            "a deal: the points besides tabbar: a must be a whole number",
        ),
        (
            {"type": "shuffle"},
            "Casino records nothing called 'shuffle'; it records a deal, a stop at 16",
        ),
    ],
)
def test_the_payload_is_checked_against_its_declaration(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


def test_the_event_types_come_from_the_declared_table():
    assert k.EVENT_TYPES == ("deal", "claim") == tuple(k.EVENTS)
    assert k.new_game(TWO).expected == k.EVENT_TYPES


def test_a_player_who_captured_anything_took_at_least_two_cards():
    # A take is a card from the hand and at least one from the table: b's one card cannot be.
    one_card = deal(most_cards=None, cards={"a": 50, "b": 1, "c": 1}, aces=("a", "a", "a", "b"))
    with pytest.raises(IllegalEvent, match="b took 1 card: a take is"):
        play(one_card, players=("a", "b", "c"))
    # Nothing taken at all (no card, no item) is a real deal; two cards for one ace are too.
    nothing = deal(most_cards=None, cards={"a": 50, "b": 2, "c": 0}, aces=("a", "a", "a", "b"))
    assert play(nothing, players=("a", "b", "c")).sheet[-1].points == (10, 1, 0)


def test_a_game_is_for_two_to_four_players():
    with pytest.raises(IllegalEvent, match="2–4"):
        k.new_game(("a",))
    with pytest.raises(IllegalEvent, match="2–4"):
        k.new_game(("a", "b", "c", "d", "e"))


def test_the_rules_refuse_a_target_below_one():
    with pytest.raises(ValueError, match="target"):
        k.Rules(target=0)


def test_apply_never_changes_the_state_it_was_given_and_the_state_is_json():
    state = k.new_game(TWO)
    after = k.apply(state, deal(tabbar={"b": 1}))
    assert state.scores == (0, 0)
    assert state.sheet == ()
    json.dumps(dataclasses.asdict(after))


# --- what no table can produce (issue 25) --------------------------------------------------------
# With two players and a dealing first, b is förhand: b plays turns 1, 3, …, 47 and a turns
# 2, 4, …, 48 of the 48 plays (52 cards less the 4 on the table). With four, dealer a: b, c, d,
# a play turns 1, 2, 3, 4, then 5, 6, 7, 8 and so on.


def refused(event, match, players=TWO, rules=None):
    with pytest.raises(IllegalEvent, match=match):
        play(event, players=players, rules=rules)


def test_two_tabbar_never_follow_each_other_so_a_deal_has_at_most_24():
    # After a tabbe the next player must lay out: 48 plays hold at most 24 sweeps.
    refused(deal(tabbar={"a": 13, "b": 12}), "cannot all be taken in one deal")
    state = play(deal(tabbar={"a": 12, "b": 12}))  # b sweeps turns 1…23, a turns 26…48
    assert state.sheet[0].tabbar == {"a": 12, "b": 12}


def test_tabbar_sit_on_the_sweepers_own_turns():
    # Four players: a sweeping on all 12 of his turns (4, 8, …, 48) leaves b, who plays right
    # after a, only turn 1 for a tabbe.
    assert play(deal(tabbar={"a": 12, "b": 1}), players=FOUR).scores[0] == 11 + 12
    refused(deal(tabbar={"a": 12, "b": 2}), "cannot all be taken", players=FOUR)
    # a and c play two seats apart: 12 tabbar each fit (turns 2, 4, …, 48).
    play(deal(tabbar={"a": 12, "c": 12}), players=FOUR)


def test_sistan_takes_after_every_other_take():
    # a's tabbe on turn 48, the last play, is the last take: nobody else can be sistan.
    refused(deal(last="b", tabbar={"a": 12, "b": 1}), "sistan", players=FOUR)
    # b sweeping on every turn (1, 3, …, 47): a plays right after each, to an empty table, and
    # never takes: he cannot be sistan nor hold an ace.
    refused(deal(big="b", little="b", aces=("b",) * 4, last="a", tabbar={"b": 24}), "sistan")
    refused(
        deal(big="b", little="b", aces=("a", "b", "b", "b"), last="b", tabbar={"b": 24}), "turn"
    )
    everything = {"most_cards": "b", "most_spades": "b", "last": "b"}
    play(deal(big="b", little="b", aces=("b",) * 4, tabbar={"b": 24}, **everything))


def test_in_partnership_play_either_partner_may_have_made_the_sides_takes():
    # Dealer d: a plays turns 1, 5, …, 45 and sweeps on each; b plays right after him and never
    # takes. The items name sides: lillan "b" is b & d's (d plays after c, and may take), sistan
    # "a" is a & c's (c may take on turn 47, after a's last tabbe on 45).
    event = deal(little="b", aces=("b", "b", "b", "a"), most_spades="b", tabbar={"a": 12})
    state = k.new_game(FOUR, k.Rules(partnership=True), first_dealer="d")
    assert k.apply(state, event).sheet[0].points == (1 + 2 + 1 + 1 + 12, 2 + 1 + 3)
    # Alone, b himself must have taken lillan, and he never had a turn to take.
    with pytest.raises(IllegalEvent, match="no turn left"):
        k.apply(k.new_game(FOUR, first_dealer="d"), event)


def test_the_takes_recorded_fit_in_the_deck():
    # b (förhand) may take on turn 1 and a sweep on each of his 24 turns after it; but 24
    # tabbar are at least 48 cards, and b's six scoring cards 6 more: 54 > 52.
    event = deal(big="b", little="b", aces=("b",) * 4, last="a", tabbar={"a": 24})
    refused(event, "more cards than a deck")
    play(deal(big="b", little="b", aces=("b", "b", "a", "a"), last="a", tabbar={"a": 24}))


def test_most_spades_cannot_be_tied_between_two_sides():
    # 13 spades: a tie between two players (or two partnerships) is 6½ each.
    refused(deal(most_spades="tie"), "do not split evenly")
    four = k.Rules(partnership=True)
    refused(deal(most_spades="tie"), "do not split evenly", players=FOUR, rules=four)
    play(deal(most_spades="tie"), players=FOUR)  # four alone: 4, 4, 3, 2 is a tie
    play(deal(most_cards="tie"))  # 26 and 26 cards


def test_most_cards_and_spades_must_be_reachable_with_the_tabbar_recorded():
    # a's 20 tabbar are at least 40 cards: b has at most 12 and cannot have most cards, nor a
    # tie; but a's 40 cards may hold only one spade (39 cards are not spades), so b may have
    # had most spades.
    refused(deal(most_cards="b", tabbar={"a": 20}), "b cannot have had most cards")
    refused(deal(most_cards="tie", tabbar={"a": 20}), "most cards cannot have been tied")
    play(deal(most_spades="b", tabbar={"a": 20}))
    # With 24 tabbar a has at least 48 cards: b has at most 4, too few for most (7) spades.
    refused(deal(most_spades="b", tabbar={"a": 24}), "b cannot have had most spades")


def test_a_players_spades_leave_room_for_his_other_scoring_cards():
    # a took 4 cards, all four spades, and storan (♦10) too: five cards.
    counts = {"cards": {"a": 4, "b": 48}, "spades": {"a": 4, "b": 9}}
    event = deal(None, None, "a", "b", ("b",) * 4, "b", **counts)
    refused(event, "no room for the 1 scoring cards")
    play(deal(None, None, "b", "b", ("a", "b", "b", "b"), "b", **counts))  # a's ♠A is a spade


def test_most_spades_follows_the_card_counts_when_only_they_are_given():
    # a took 8 cards, 2 of them not spades (storan, the ace of ♥): at most 6 spades, so b
    # (44 cards) had most spades.
    event = deal(None, "a", "a", "b", ("b", "a", "b", "b"), "b", cards={"a": 8, "b": 44})
    refused(event, "a cannot have had most spades")
    event["most_spades"] = "b"
    play(event)


def test_a_game_stored_before_these_checks_replays_as_recorded():
    state = k.new_game(TWO, legacy_facts=True)
    assert state.legacy_facts
    state = k.apply(state, deal(most_spades="tie", tabbar={"a": 13, "b": 12}))
    assert state.sheet[0].most_spades is None
    assert not k.new_game(TWO).legacy_facts


# --- invariants ------------------------------------------------------------------------------


@st.composite
def deals(draw, players, sides):
    who = st.sampled_from(players)
    maybe = st.sampled_from([*players, "tie"])
    # 13 spades cannot be tied between two sides (two players, or two partnerships).
    spades = maybe if sides > 2 else who
    return deal(
        most_cards=draw(maybe),
        most_spades=draw(spades),
        big=draw(who),
        little=draw(who),
        aces=tuple(draw(who) for _ in range(4)),
        last=draw(who),
        tabbar={p: draw(st.integers(0, 3)) for p in players},
    )


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_each_deal_hands_out_at_most_eleven_points_plus_tabbar(data):
    players = data.draw(st.sampled_from([TWO, ("a", "b", "c"), FOUR]))
    partnership = len(players) == 4 and data.draw(st.booleans())
    state = k.new_game(players, k.Rules(partnership=partnership))
    for event in data.draw(st.lists(deals(players, len(state.sides)), min_size=1, max_size=8)):
        if state.finished:
            with pytest.raises(IllegalEvent):
                k.apply(state, event)
            break
        before = state.scores
        state = k.apply(state, event)
        row = state.sheet[-1]
        tabbar = sum(event["tabbar"].values())
        voided = (event["most_cards"] == "tie") + 2 * (event["most_spades"] == "tie")
        assert sum(row.points) == 11 - voided + tabbar
        assert sum(row.points) <= 11 + tabbar
        assert state.scores == tuple(b + p for b, p in zip(before, row.points, strict=True))
    assert state.scores == tuple(
        sum(r.points[i] for r in state.sheet) for i in range(len(state.sides))
    )
    top = max(state.scores)
    assert state.finished == (top >= 16 and state.scores.count(top) == 1)
    if state.finished:
        assert state.standings[0].score == top
        assert all(s.placement == 1 for s in state.standings if s.player in state.winners)
