"""The engine's refusals reach the phone in the user's language, values filled in."""

from __future__ import annotations

from django.utils import translation

from engine import cribbage
from engine.cards import parse_card
from engine.errors import CardError, IllegalEvent, RulesError
from scoring.messages import engine_message


def refusal(fn, *args) -> IllegalEvent | CardError:
    try:
        fn(*args)
    except (IllegalEvent, CardError) as error:
        return error
    raise AssertionError("no refusal")


def test_a_refusal_is_english_in_the_engine_and_swedish_on_a_swedish_page():
    state = cribbage.apply(cribbage.new_game(["s0", "s1"]), {"type": "starter", "card": "5D"})
    error = refusal(cribbage.apply, state, {"type": "show", "player": "s1", "points": 19})
    assert str(error) == "no hand or crib can score 19 (19, 25, 26 and 27 are impossible)"
    with translation.override("sv"):
        assert engine_message(error) == (
            "Ingen hand eller krubba kan ge 19 poäng (19, 25, 26 och 27 är omöjliga)"
        )
    with translation.override("en"):
        assert (
            engine_message(error)
            == "No hand or crib can score 19 (19, 25, 26 and 27 are impossible)"
        )
        assert engine_message(error, sentence=False) == str(error)


def test_a_marked_value_inside_a_message_is_translated_too():
    error = refusal(parse_card, "5x")
    with translation.override("sv"):
        swedish = engine_message(error)
    assert "'5x'" in swedish
    assert "write a rank" in str(error)
    assert "write a rank" not in swedish


def test_a_plain_message_is_shown_as_it_is():
    assert engine_message(IllegalEvent("S1 is confused")) == "S1 is confused"


def test_a_stake_above_the_engines_bound_is_refused_in_swedish():
    try:
        cribbage.Rules(stake_ore=100_000_001)
    except RulesError as error:
        refused = error
    else:
        raise AssertionError("no refusal")
    with translation.override("sv"):
        assert engine_message(refused) == (
            "Ett belopp i reglerna får vara högst 1000000 kr, inte 1000000,01 kr"
        )
