"""Every game module offers the common surface that the recording layer relies on."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from types import ModuleType

import pytest

from engine import registry
from engine.errors import Text

GAMES = registry.all_games()


def test_the_registry_finds_every_game_module_in_the_declared_order():
    """No list of games is kept by hand: every module of the engine package that declares a
    game (read here from the files, not by importing them) is registered, Play's order being
    the declared positions."""
    engine_dir = Path(registry.__file__).parent
    declared = sorted(
        path.stem for path in engine_dir.glob("*.py") if "\nGAME = Declaration(" in path.read_text()
    )
    built_in = [info for info in GAMES if info.module.__name__.startswith("engine.")]
    assert sorted(info.key for info in built_in) == declared
    assert len(declared) >= 14
    positions = [(info.declaration.position, info.key) for info in built_in]
    assert positions == sorted(positions)


@pytest.mark.parametrize("info", GAMES, ids=lambda info: info.key)
def test_what_a_game_declares_it_can_do_is_what_its_new_game_takes(info):
    """The app reads a game's capabilities from its declaration, never from its functions'
    signatures; this keeps the two from drifting."""
    takes = inspect.signature(info.module.new_game).parameters
    declared = info.declaration
    assert declared.plays_from_pot == ("pot_ore" in takes)
    assert declared.keeps_betar == ("betar" in takes)
    assert declared.draws_first_dealer == ("first_dealer" in takes)
    assert (declared.key, declared.name, declared.event_types) == (
        info.module.KEY,
        info.module.NAME,
        info.module.EVENT_TYPES,
    )


def test_a_declaration_that_contradicts_its_module_is_refused():
    impostor = ModuleType("impostor")
    impostor.__dict__.update({**vars(registry.get("whist").module), "KEY": "not_whist"})
    with pytest.raises(ValueError, match="does not say"):
        registry.register(impostor)
    assert "not_whist" not in registry.game_keys()


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
