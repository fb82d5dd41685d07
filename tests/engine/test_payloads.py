"""Every event type declares its payload (issue 14, item 1): ``engine.base.dispatch`` refuses an
unknown type with one message, and an unknown key, a missing key or a value of the wrong kind
with a message naming what is wrong — checked here for the shared kinds, and for every game on
the real events its engine tests play (the property test's seeds).

The refusal is read at the table, so it names the event and the field in the reader's words,
never by a payload key or an event type (issue 25): every declaration carries ``words``, and
for every game every event and field is refused once each way and its English message read."""

from __future__ import annotations

import ast
import copy
import json
import re
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
from engine.errors import EngineError, IllegalEvent, Line, Text, _

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
        _("a score"),
        {
            "player": need(Player(), _("the player who scores")),
            "points": need(Whole(0, 9), _("the points scored")),
            "note": may(CardName(), _("the card that scored")),
        },
    ),
    "end": EventType(lambda state, event: "ended", _("the end of the game")),
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
        (
            {"type": "scor"},
            ["Toy records nothing called 'scor'; it records a score, the end of the game"],
        ),
        ({"type": None}, ["an event needs a type; Toy records a score, the end of the game"]),
        ({}, ["an event needs a type"]),
        (
            {"type": "score", "player": "B", "point": 3},
            [
                "a score records nothing called 'point'; it records the player who scores, the "
                "points scored, the card that scored"
            ],
        ),
        (
            {"type": "end", "player": "B"},
            [
                "the end of the game records nothing called 'player'; it records only that it "
                "happened"
            ],
        ),
        ({"type": "score", "player": "B"}, ["a score needs the points scored"]),
        ({"type": "score", "points": 3, "player": None}, ["a score needs the player who scores"]),
        (
            {"type": "score", "player": "D", "points": 3},
            ["a score: the player who scores must be a player at the table, not 'D'"],
        ),
        (
            {"type": "score", "player": "B", "points": 10},
            ["a score: the points scored must be a whole number from 0 to 9, not 10"],
        ),
        ({"type": "score", "player": "B", "points": True}, ["scored must be", "True"]),
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
    events = {
        "deal": EventType(
            lambda s, e: "ok",
            _("a deal"),
            {"tricks": need(PerPlayer(Whole(0, 9), True), _("the tricks taken"))},
        )
    }
    for tricks, words in [
        ({"A": 1, "B": 2}, ["a deal: the tricks taken: C is missing"]),
        ({"A": 1, "B": 2, "C": 10}, ["a deal: the tricks taken: C must be a whole number"]),
        ({"A": 1, "B": 2, "C": 3, "Q": 0}, ["a deal: the tricks taken: 'Q' is not a player"]),
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
        with pytest.raises(IllegalEvent, match="records nothing called 'zz'"):
            module.apply(state, {**event, "zz": 1})
        declared = module.EVENTS[event["type"]]
        for name, field in declared.payload.items():
            if field.required and name in event:
                without = {k: v for k, v in event.items() if k != name}
                with pytest.raises(IllegalEvent) as refused:
                    module.apply(state, without)
                assert str(refused.value) == f"{declared.words} needs {field.words}"
        checked += 1
    assert checked, "no seed events"


# --- in the reader's words (issue 25) ----------------------------------------------------------

SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")  # an identifier, never a word of a message
PO = Path(__file__).resolve().parents[2] / "locale/sv/LC_MESSAGES/django.po"


def _declarations(module):
    """(event type, its declaration, key or None, what is declared) for every event and field."""
    for name, event_type in module.EVENTS.items():
        yield name, event_type, None, event_type
        for key, field in event_type.payload.items():
            yield name, event_type, key, field


@pytest.mark.parametrize("key", GAMES)
def test_every_event_and_every_field_says_what_it_is_in_words(key):
    module = registry.get(key).module
    for name, _event_type, field_key, declared in _declarations(module):
        words = declared.words
        assert isinstance(words, Text | Line), (name, field_key)
        assert words.strip(), (name, field_key)
        assert not SNAKE.search(words), (name, field_key, words)
        assert words not in (name, field_key), (name, field_key)
    # Two events, or two fields of one event, said alike could not be told apart in a refusal.
    said = [str(event_type.words) for event_type in module.EVENTS.values()]
    assert len(set(said)) == len(said), said
    for name, event_type in module.EVENTS.items():
        fields = [str(field.words) for field in event_type.payload.values()]
        assert len(set(fields)) == len(fields), (name, fields)


def test_a_declaration_without_words_cannot_be_made():
    with pytest.raises(TypeError):
        need(Player())  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        may(Player(), "the player")  # not marked for translation
    with pytest.raises(TypeError):
        need(Player(), _(" "))
    with pytest.raises(TypeError):
        EventType(lambda state, event: state)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        EventType(lambda state, event: state, _(""))


def _po_translations() -> dict[str, str]:
    """msgid → msgstr of the Swedish catalogue (its plain entries; enough for single phrases)."""
    found: dict[str, str] = {}
    entry: dict[str, str] = {}
    part = ""
    for line in [*PO.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith(("msgid ", "msgstr ")):
            part, _space, text = line.partition(" ")
            entry[part] = ast.literal_eval(text)
        elif line.startswith('"') and part:
            entry[part] += ast.literal_eval(line)
        elif not line.strip():
            if "msgid" in entry and "msgstr" in entry:
                found[entry["msgid"]] = entry["msgstr"]
            entry, part = {}, ""
    return found


@pytest.mark.parametrize("key", GAMES)
def test_every_event_and_every_field_has_its_words_in_swedish(key):
    swedish = _po_translations()
    module = registry.get(key).module
    for name, _event_type, field_key, declared in _declarations(module):
        assert swedish.get(str(declared.words)), (name, field_key, declared.words)


def _bad_values(players):
    """Values off a field's shape, each sent where the field's kind refuses it: a list of lists
    (no kind takes one), a player with a list, someone not at the table, and one player only
    (for a value every player needs)."""
    return [[[[]]], {players[0]: [[]]}, {"zz": 0}, {players[0]: 0}]


def _good_value(kind, players):
    """A value of ``kind`` (for the other fields a refusal must get past)."""
    candidates = [
        players[0],
        list(players),
        0,
        1,
        True,
        "5h",
        dict.fromkeys(players, 0),
        dict.fromkeys(players, 1),
        *getattr(kind, "values", ()),
    ]
    for value in candidates:
        if kind.accepts(value, players):
            return copy.deepcopy(value)
    raise AssertionError(f"no value of {kind} to give")


def _masked(value) -> str:
    """A refusal's English text with every phrase marked for translation (the declarations'
    words, the kinds' descriptions) left out: what remains is the template's own text and the
    values put in it, where no key or type of the event may stand."""
    if isinstance(value, EngineError | Line):
        params = {name: _masked(item) for name, item in value.params.items()}
        return value.template.format(**params) if params else value.template
    if isinstance(value, Text):
        return "…"
    return str(value)


def _shape_refusals(module, state):
    """(event, the key or type sent that the game does not know, the keys the refusal is about,
    the refusal) for every way a payload can be off its declaration, in every event, and for an
    event type the game does not know."""
    players = state.players
    for name, event_type in module.EVENTS.items():
        needed = {
            key: _good_value(field.kind, players)
            for key, field in event_type.payload.items()
            if field.required
        }
        cases = [({"type": name, **needed, "zz": 1}, "zz", set(event_type.payload))]
        for key, field in event_type.payload.items():
            if field.required:
                without = {k: v for k, v in needed.items() if k != key}
                cases.append(({"type": name, **without}, None, {key}))
            for bad in _bad_values(players):
                if not field.kind.accepts(bad, players):
                    cases.append(({"type": name, **needed, key: bad}, None, {key}))
        for event, sent, about in cases:
            with pytest.raises(IllegalEvent) as refused:
                module.apply(state, copy.deepcopy(event))
            yield event, sent, about, refused.value
    with pytest.raises(IllegalEvent) as refused:
        module.apply(state, {"type": "zz"})
    yield {"type": "zz"}, "zz", set(), refused.value


@pytest.mark.parametrize("key", GAMES)
def test_a_payload_off_its_declaration_is_refused_in_words_never_by_key_or_type(key):
    module = registry.get(key).module
    seed = SEEDS[key][0]
    state = module.new_game(
        seed["players"], module.Rules(**seed["rules"]), **copy.deepcopy(seed["setup"])
    )
    checked = 0
    for event, sent, about, refusal in _shape_refusals(module, state):
        english, masked = str(refusal), _masked(refusal)
        where = f"{event!r}: {english}"
        declared = module.EVENTS.get(event["type"])
        # Said in words: the event, and the field at fault (or the fields it records) …
        said = [declared] if declared else list(module.EVENTS.values())
        said += [declared.payload[key] for key in about] if declared else []
        for declaration in said:
            assert str(declaration.words) in english, where
        # … and never by its type or key: only what the client sent may be quoted.
        for word in {event["type"], *about} - {sent}:
            assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", masked), where
        assert not SNAKE.search(english), where
        checked += 1
    assert checked > 2 * len(module.EVENTS)
