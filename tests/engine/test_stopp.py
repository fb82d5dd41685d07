"""Stopp: worked examples from the rules text (populara_kortspel.sv.txt, "Stopp regler";
NOTES.md ST1–ST4), bad input, and hypothesis invariants of capitals, pot and money."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import stopp as s
from engine.base import POT, Transfer, net_by_account
from engine.errors import IllegalEvent

PLAYERS = ("a", "b", "c", "d")


def deal(**cards):
    return {"type": "deal", "cards": cards}


def play(*events, players=PLAYERS, rules=None, first_dealer=None):
    state = s.new_game(players, rules or s.Rules(), first_dealer=first_dealer)
    transfers = []
    for event in events:
        state = s.apply(state, event)
        transfers.extend(state.transfers)
    return state, transfers


def test_everyone_starts_with_a_capital_of_ten_units():
    # "Alla ska börja med ett ”kapital” om 10 enheter, t.ex. tio enkronor"
    state = s.new_game(PLAYERS)
    assert state.capitals == {"a": 10, "b": 10, "c": 10, "d": 10}
    assert (state.pot, state.pot_ore) == (0, 0)
    assert state.rules.unit_ore == 100
    assert state.expected == ("deal",)


def test_the_players_with_cards_left_pay_one_unit_per_card_into_the_pot():
    # "De som då har kort kvar på handen betalar en enhet per kort till potten."
    state, transfers = play(deal(a=0, b=3, c=1, d=6))
    assert state.capitals == {"a": 10, "b": 7, "c": 9, "d": 4}
    assert (state.pot, state.pot_ore) == (10, 1000)
    assert state.transfers == (
        Transfer("b", POT, 300),
        Transfer("c", POT, 100),
        Transfer("d", POT, 600),
    )
    row = state.sheet[0]
    assert (row.number, row.cards, row.paid, row.pot) == (
        1,
        {"a": 0, "b": 3, "c": 1, "d": 6},
        {"b": 3, "c": 1, "d": 6},
        10,
    )
    assert "b pays 3 (7 left)" in state.log


DEALS = (
    deal(a=0, b=3, c=1, d=6),
    deal(a=2, b=0, c=0, d=5),  # ST1: d has 4 units left, pays 4 and is out; ST3: c went out early
    deal(a=4, b=6, c=0),
    deal(a=0, b=2, c=3),  # ST1 again: b pays his last unit
    deal(a=0, c=0),  # ST3: the last two both went out: nobody pays
    deal(a=5, c=0),
)


def test_a_player_who_cannot_pay_in_full_pays_what_he_has_and_is_out():
    # ST1, ST2: "När en deltagare blivit av med hela sitt startkapital får han inte vara med
    # längre."
    state, _ = play(*DEALS[:2])
    assert state.capitals == {"a": 8, "b": 7, "c": 9, "d": 0}
    assert state.sheet[1].paid == {"a": 2, "d": 4}
    assert state.pot == 16
    assert state.active == ("a", "b", "c")
    assert state.out == ("d",)
    assert state.sheet[1].out == ("d",)
    with pytest.raises(IllegalEvent, match="d is out of the game"):
        s.apply(state, deal(a=0, b=1, c=1, d=2))


def test_when_the_last_two_both_go_out_nobody_pays():
    # ST3
    state, _ = play(*DEALS[:5])
    assert state.capitals == {"a": 4, "b": 0, "c": 6, "d": 0}
    assert state.pot == 30
    assert state.sheet[-1].paid == {}
    assert state.transfers == ()


def test_the_last_one_in_takes_the_pot():
    # "Den som är sist kvar i spelet vinner potten."
    state, transfers = play(*DEALS)
    assert state.finished
    assert state.winner == "c"
    assert state.capitals == {"a": 0, "b": 0, "c": 40, "d": 0}
    assert (state.pot, state.pot_ore) == (0, 0)
    assert state.pot_won == 34
    assert state.transfers == (Transfer("a", POT, 400), Transfer(POT, "c", 3400))
    assert [(x.player, x.placement, x.score) for x in state.standings] == [
        ("c", 1, 40),
        ("a", 2, 0),
        ("b", 3, 0),
        ("d", 4, 0),
    ]
    assert net_by_account(transfers) == {"a": -1000, "b": -1000, "c": 3000, "d": -1000, POT: 0}
    assert state.expected == ()
    with pytest.raises(IllegalEvent, match="over"):
        s.apply(state, deal(c=0))


def test_players_out_in_the_same_deal_share_their_place():
    # c deals first, so a (eldest hand) leads and can go out with b and c never playing
    # (issue 25: with a dealing, b would be eldest and could not have kept all six cards).
    state, _ = play(
        deal(a=0, b=6, c=6), deal(a=0, b=4, c=5), players=("a", "b", "c"), first_dealer="c"
    )
    assert state.winner == "a"
    assert [(x.player, x.placement) for x in state.standings] == [("a", 1), ("b", 2), ("c", 2)]


def test_counters_move_no_money():
    # ST4: "Units may be real money or counters; only real money goes to the ledger."
    rules = s.Rules(real_money=False)
    state, transfers = play(*DEALS, rules=rules)
    assert state.winner == "c"
    assert transfers == []
    assert state.pot_ore == 0


def test_the_club_chooses_the_capital_and_the_units_value():
    rules = s.Rules(capital=5, unit_ore=50)
    state, transfers = play(deal(a=0, b=6, c=2, d=1), rules=rules, first_dealer="d")
    assert state.capitals == {"a": 5, "b": 0, "c": 3, "d": 4}
    assert state.pot == 8
    assert state.pot_ore == 400
    assert state.transfers[0] == Transfer("b", POT, 250)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"capital": 0}, "capital"),
        ({"unit_ore": 0}, "unit"),
        ({"unit_ore": -100}, "unit"),
    ],
)
def test_the_rules_refuse_nonsense_options(options, message):
    with pytest.raises(ValueError, match=message):
        s.Rules(**options)


def test_counters_need_no_value():
    assert s.Rules(real_money=False, unit_ore=0).unit_ore == 0


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (deal(a=0, b=7, c=1, d=1), "cards: b cannot hold 7; a hand has 6 cards"),
        (
            deal(a=0, b=-1, c=1, d=1),
            "a deal: the cards left in each hand: b must be a whole number from 0 to 60, not -1",
        ),
        (deal(a=1, b=1, c=1, d=1), "went out"),
        (deal(a=0, b=1, c=1), "did d have left"),
        (deal(a=0, b=1, c=1, d=1, x=1), "'x' is not a player in this game"),
        (deal(a=0, b="1", c=1, d=1), "b must be a whole number from 0 to 60, not '1'"),
        (deal(a=0, b=True, c=1, d=1), "b must be a whole number from 0 to 60, not True"),
        (
            {"type": "deal", "cards": [0, 1, 1, 1]},
            "the cards left in each hand must be players at the table",
        ),
        ({"type": "deal"}, "a deal needs the cards left in each hand"),
        ({"type": "deal", "cards": None}, "a deal needs the cards left in each hand"),
        (
            {"type": "deal", "card": {"a": 0}},
            "a deal records nothing called 'card'; it records the cards left in each hand",
        ),
        ({"type": "stopp"}, "Stop records nothing called 'stopp'; it records a deal"),
        (["deal"], "an event is a mapping"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


def test_a_refusal_is_a_translatable_template_naming_the_player():
    with pytest.raises(IllegalEvent) as refused:
        play(deal(a=0, b=1, c=1, d=1), deal(a=0, b=1, c=1, d=1, x=0))
    assert refused.value.template == "{event}: {field}: {player} is not a player in this game"
    assert refused.value.params == {
        "event": "a deal",
        "field": "the cards left in each hand",
        "player": "'x'",
    }


def test_a_player_out_of_the_game_is_refused_by_name():
    # d deals, a leads; then a deals and b (eldest) has played at least one card (issue 25).
    out, _ = play(deal(a=0, b=6, c=6, d=6), deal(a=0, b=4, c=0, d=0), first_dealer="d")
    assert out.active == ("a", "c", "d")
    with pytest.raises(IllegalEvent) as refused:
        s.apply(out, deal(a=0, b=0, c=1, d=1))
    assert refused.value.template == (
        "{player} is out of the game (no capital left) and holds no cards"
    )
    assert refused.value.params == {"player": "b"}


# --- what no table can produce (issue 25) -------------------------------------------------


def test_the_eldest_hand_led_the_first_card_so_he_cannot_hold_all_six():
    # Item 3: "Förhand börjar med att spela ut ett valfritt kort". a deals, b is eldest hand.
    with pytest.raises(IllegalEvent, match="b cannot hold all 6 cards") as refused:
        play(deal(a=0, b=6, c=6, d=6))
    assert refused.value.params == {"player": "b", "hand": 6}
    # b leads ♠A ♥A ♦A ♣A ♠K ♥K (with the aces of both kings' suits in his own hand nobody can
    # beat one of them) and goes out while a, c and d never play: they pay six each.
    state, _ = play(deal(a=6, b=0, c=6, d=6))
    assert state.capitals == {"a": 4, "b": 10, "c": 4, "d": 4}
    # Eldest hand is the first player still in on the dealer's left: with b out of the game
    # and a dealing, c leads.
    state, _ = play(deal(a=0, b=6, c=1, d=1), deal(a=0, b=4, c=1, d=1), first_dealer="c")
    assert (state.active, state.dealer, s.eldest_hand(state)) == (("a", "c", "d"), "a", "c")
    with pytest.raises(IllegalEvent, match="c cannot hold all 6"):
        s.apply(state, deal(a=0, c=6, d=6))
    assert s.apply(state, deal(a=6, c=5, d=0)).capitals["a"] == 4


def test_a_game_stored_before_issue_25_replays_as_before():
    old = s.new_game(PLAYERS, legacy_facts=True)
    assert s.apply(old, deal(a=0, b=6, c=6, d=6)).capitals["b"] == 4
    with pytest.raises(IllegalEvent, match="somebody went out"):
        s.apply(old, deal(a=1, b=6, c=6, d=6))


def test_the_event_types_are_derived_from_the_declared_events():
    assert s.EVENT_TYPES == ("deal",) == tuple(s.EVENTS)
    assert s.new_game(PLAYERS).expected == ("deal",)


def test_a_game_needs_three_to_six_distinct_players():
    with pytest.raises(IllegalEvent, match="3–6 players"):
        s.new_game(["a", "b"])
    with pytest.raises(IllegalEvent, match="3–6 players"):
        s.new_game("abcdefg")
    with pytest.raises(IllegalEvent, match="twice"):
        s.new_game(["a", "b", "a"])


def test_the_deal_passes_clockwise_among_the_players_still_in():
    state = s.new_game(PLAYERS, first_dealer="b")
    assert state.dealer == "b"
    state = s.apply(state, deal(a=0, b=1, c=1, d=6))
    assert state.dealer == "c"
    state = s.apply(state, deal(a=0, b=1, c=1, d=5))  # d is out: a deals next
    assert state.dealer == "a"
    with pytest.raises(IllegalEvent, match="first dealer x"):
        s.new_game(PLAYERS, first_dealer="x")


def test_apply_never_changes_the_state_it_was_given_and_the_state_is_json():
    state = s.new_game(PLAYERS)
    after = s.apply(state, DEALS[0])
    assert state.capitals == dict.fromkeys(PLAYERS, 10)
    assert state.pot == 0
    json.dumps(dataclasses.asdict(after))


# --- invariants ------------------------------------------------------------------------------


@st.composite
def games(draw):
    players = tuple("abcdef"[: draw(st.integers(3, 6))])
    capital = draw(st.integers(1, 12))
    real = draw(st.booleans())
    unit = draw(st.integers(1, 500)) if real else 0
    rules = s.Rules(capital=capital, real_money=real, unit_ore=unit)
    return players, rules, draw(st.lists(st.data(), min_size=1, max_size=40))


@settings(max_examples=150, deadline=None)
@given(games())
def test_capitals_and_pot_are_conserved_and_never_negative(game):
    players, rules, deals = game
    state = s.new_game(players, rules)
    whole = rules.capital * len(players)
    transfers = []
    for data in deals:
        if state.finished:
            break
        out_first = data.draw(st.sampled_from(state.active))
        eldest = s.eldest_hand(state)  # he led the first card (issue 25)
        cards = {
            p: 0 if p == out_first else data.draw(st.integers(0, 5 if p == eldest else 6))
            for p in state.active
        }
        before = dict(state.capitals)
        state = s.apply(state, deal(**cards))
        transfers.extend(state.transfers)
        assert sum(state.capitals.values()) + state.pot == whole
        assert min(state.capitals.values()) >= 0
        assert state.pot >= 0
        for player, held in cards.items():
            if not state.finished:
                assert state.capitals[player] == before[player] - min(held, before[player])
        assert set(state.active) == {p for p in players if state.capitals[p] > 0}
        nets = net_by_account(transfers)
        assert sum(nets.values()) == 0
        assert nets.get(POT, 0) == state.pot_ore == (state.pot * rules.unit_ore)
        if not rules.real_money:
            assert transfers == []
    assert state.finished == (len(state.active) == 1)
    if state.finished:
        assert state.capitals[state.winner] == whole
        assert [x.player for x in state.standings if x.placement == 1] == [state.winner]
        if rules.real_money:
            nets = net_by_account(transfers)
            assert nets[state.winner] == (whole - rules.capital) * rules.unit_ore
