"""Every event type declares its payload (issue 14, item 1): ``engine.base.dispatch`` refuses an
unknown type with one message, and an unknown key, a missing key or a value of the wrong kind
with a message naming the key — checked here for the shared kinds, and for every game on the
real events its engine tests play (the property test's seeds)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import registry
from engine.base import (
    CardName,
    CardNames,
    Choice,
    Empty,
    EventType,
    Flag,
    OneOf,
    PerPlayer,
    Player,
    Players,
    Whole,
    dispatch,
    may,
    need,
)
from engine.errors import IllegalEvent

SEEDS = json.loads((Path(__file__).parent / "property_seeds.json").read_text(encoding="utf-8"))
GAMES = [info.key for info in registry.all_games()]
TABLE = ("A", "B", "C")


# --- the kinds -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "good", "bad"),
    [
        (Player(), ["A", "C"], ["D", "", None, 1, ["A"]]),
        (Players(least=1), [["A"], ["C", "A"]], [[], ["A", "A"], ["D"], "A", [1]]),
        (Whole(0, 9), [0, 9, 5], [-1, 10, True, False, 1.0, "3", None]),
        (Flag(), [True, False], [0, 1, "true", None]),
        (Choice(("pass", "show")), ["pass", "show"], ["Pass", "", None, 0]),
        (CardName(), ["5h", "hj kn", "joker"], ["", "   ", 5, ["5h"], "x" * 25]),
        (CardNames(most=3), [[], ["5h", "6h", "7h"]], [["5h"] * 4, "5h", [5], [""]]),
        (PerPlayer(Whole(0, 5)), [{}, {"A": 1}, {"A": 0, "C": 5}], [{"D": 1}, {"A": 6}, [1]]),
        (PerPlayer(Whole(0, 5), every=True), [{"A": 1, "B": 2, "C": 0}], [{"A": 1, "B": 2}]),
        (OneOf(Whole(0, 3), Empty()), [0, 3, None], [4, "0", []]),
    ],
)
def test_a_kind_accepts_its_values_and_nothing_else(kind, good, bad):
    for value in good:
        assert kind.accepts(value, TABLE), value
    for value in bad:
        assert not kind.accepts(value, TABLE), value


# --- dispatch on a small table ---------------------------------------------------------------


class _State:
    players = TABLE


EVENTS = {
    "score": EventType(
        lambda state, event: ("scored", event["player"], event["points"]),
        {"player": need(Player()), "points": need(Whole(0, 9)), "note": may(CardName())},
    ),
    "end": EventType(lambda state, event: "ended"),
}


def _refusal(event) -> str:
    with pytest.raises(IllegalEvent) as refused:
        dispatch(_State(), event, EVENTS, game="Toy")
    return str(refused.value)


def test_a_declared_event_reaches_its_handler():
    assert dispatch(_State(), {"type": "score", "player": "B", "points": 3}, EVENTS, "Toy") == (
        "scored",
        "B",
        3,
    )
    assert dispatch(_State(), {"type": "end"}, EVENTS, "Toy") == "ended"


def test_an_optional_key_given_as_null_counts_as_not_given():
    event = {"type": "score", "player": "B", "points": 3, "note": None}
    assert dispatch(_State(), event, EVENTS, "Toy") == ("scored", "B", 3)


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ({"type": "scor"}, ["unknown event 'scor'", "Toy records score, end"]),
        ({"type": None}, ["unknown event None"]),
        ({}, ["unknown event None"]),
        ({"type": "score", "player": "B", "point": 3}, ["score takes no 'point'", "points"]),
        ({"type": "end", "player": "B"}, ["end takes no 'player'", "nothing but its type"]),
        ({"type": "score", "player": "B"}, ["score needs points"]),
        ({"type": "score", "points": 3, "player": None}, ["score needs player"]),
        ({"type": "score", "player": "D", "points": 3}, ["player must be a player", "'D'"]),
        ({"type": "score", "player": "B", "points": 10}, ["points must be a whole number from 0"]),
        ({"type": "score", "player": "B", "points": True}, ["points must be", "True"]),
    ],
)
def test_a_malformed_event_is_refused_naming_what_is_wrong(event, words):
    message = _refusal(event)
    for word in words:
        assert word in message, message


def test_a_value_in_a_refusal_is_cut_short():
    message = _refusal({"type": "score", "player": "x" * 500, "points": 1})
    assert len(message) < 200, message


def test_an_event_that_is_not_a_mapping_is_refused():
    assert "an event is a mapping" in _refusal(["score"])


def test_per_player_values_are_refused_naming_the_player():
    events = {"deal": EventType(lambda s, e: "ok", {"tricks": need(PerPlayer(Whole(0, 9), True))})}
    for tricks, words in [
        ({"A": 1, "B": 2}, ["tricks: C is missing"]),
        ({"A": 1, "B": 2, "C": 10}, ["tricks: C must be a whole number"]),
        ({"A": 1, "B": 2, "C": 3, "Q": 0}, ["tricks: 'Q' is not a player"]),
    ]:
        with pytest.raises(IllegalEvent) as refused:
            dispatch(_State(), {"type": "deal", "tricks": tricks}, events, "Toy")
        for word in words:
            assert word in str(refused.value), str(refused.value)


# --- every game ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", GAMES)
def test_every_game_derives_its_event_types_from_its_declared_events(key):
    module = registry.get(key).module
    assert isinstance(module.EVENTS, dict)
    assert tuple(module.EVENTS) == module.EVENT_TYPES
    for name, event_type in module.EVENTS.items():
        assert isinstance(event_type, EventType), name


def _accepted_events(key: str):
    """(state before, event) for every seed event its engine accepts, seed by seed."""
    module = registry.get(key).module
    for seed in SEEDS[key]:
        state = module.new_game(
            seed["players"], module.Rules(**seed["rules"]), **copy.deepcopy(seed["setup"])
        )
        for event in seed["events"]:
            yield module, state, event
            state = module.apply(state, copy.deepcopy(event))


@pytest.mark.parametrize("key", GAMES)
def test_every_game_refuses_a_key_it_does_not_take_and_one_it_needs(key):
    checked = 0
    for module, state, event in _accepted_events(key):
        with pytest.raises(IllegalEvent, match="takes no 'zz'"):
            module.apply(state, {**event, "zz": 1})
        payload = module.EVENTS[event["type"]].payload
        for name, field in payload.items():
            if field.required and name in event:
                without = {k: v for k, v in event.items() if k != name}
                with pytest.raises(IllegalEvent, match=f"needs {name}"):
                    module.apply(state, without)
        checked += 1
    assert checked, "no seed events"
