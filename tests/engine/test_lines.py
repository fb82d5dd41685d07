"""What an event did is told as ``Line`` objects (issue 15): an English template and its
parameters, so that the history, the ledger's memos and the statements can be rendered in the
reader's language with the players' names. Checked on the streams the engine tests play (the
property test's seeds), and the game's names and option labels are marked for translation."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from pathlib import Path

import pytest

from engine import registry
from engine.errors import Line, Text

SEEDS = json.loads((Path(__file__).parent / "property_seeds.json").read_text(encoding="utf-8"))
GAMES = [info.key for info in registry.all_games()]
SWEDISH = re.compile(r"[åäöÅÄÖ]|\b(och|ger|vinner|betalar|potten|kvar|giv|Giv|spelare|stick)\b")


def _logs(key: str):
    module = registry.get(key).module
    for seed in SEEDS[key]:
        state = module.new_game(
            seed["players"], module.Rules(**seed["rules"]), **copy.deepcopy(seed["setup"])
        )
        for event in seed["events"]:
            state = module.apply(state, copy.deepcopy(event))
            yield from state.log


@pytest.mark.parametrize("key", GAMES)
def test_every_log_line_is_a_translatable_line_in_english(key):
    lines = list(_logs(key))
    assert lines
    for line in lines:
        assert isinstance(line, Line), repr(line)
        assert not SWEDISH.search(line.template), line.template
        json.dumps(line.as_json())


@pytest.mark.parametrize("key", GAMES)
def test_the_name_and_the_option_labels_are_marked_for_translation(key):
    module = registry.get(key).module
    assert isinstance(module.NAME, Text)
    labels = getattr(module.Rules, "LABELS", {})
    names = {f.name for f in dataclasses.fields(module.Rules)}
    assert set(labels) <= names
    for label in labels.values():
        assert isinstance(label, Text), label
    for field, by_value in getattr(module.Rules, "CHOICE_LABELS", {}).items():
        assert field in names
        for label in by_value.values():
            assert isinstance(label, Text), label
