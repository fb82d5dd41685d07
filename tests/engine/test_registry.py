"""Every game module offers the common surface that the recording layer relies on."""

from __future__ import annotations

import dataclasses

import pytest

from engine import registry
from engine.errors import Text

GAMES = registry.all_games()


def test_the_registry_lists_the_fourteen_club_games_in_the_play_page_order():
    assert [info.key for info in GAMES] == [
        "cribbage", "kille", "kille_elimination", "polskt_pass", "whist", "fyrtioett",
        "nittionio", "femhundra", "vandatta", "stopp", "president", "kasino", "tvamanswhist",
        "fantan",
    ]  # fmt: skip


@pytest.mark.parametrize("info", GAMES, ids=lambda info: info.key)
def test_a_game_module_offers_the_common_surface(info):
    module = info.module
    assert info.key == module.KEY
    assert isinstance(module.NAME, Text)
    assert 2 <= module.MIN_PLAYERS <= module.MAX_PLAYERS <= 8
    assert module.EVENT_TYPES
    rules = module.Rules()
    assert dataclasses.is_dataclass(rules)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(rules, dataclasses.fields(rules)[0].name, None)


@pytest.mark.parametrize("info", GAMES, ids=lambda info: info.key)
def test_a_new_game_moves_no_money_and_is_open(info):
    players = [f"s{n}" for n in range(info.min_players)]
    state = info.module.new_game(players, info.module.Rules())
    assert tuple(state.players) == tuple(players)
    assert state.transfers == ()
    assert not state.finished
    assert state.standings == ()
    assert state.expected
