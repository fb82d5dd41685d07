"""The games the app knows, built from the game modules themselves.

Design: the one list of games is ``_BUILT_IN`` below — the engine modules, imported by name, in
the order the club's Play page lists them. Everything else about a game (its key, its names,
its player counts, its event types) is read from the module, so nothing here can drift from
the rules it describes. A game outside this package (the test suite's toy game, a club's own
game) joins through the public hook ``register(module)`` and leaves with ``unregister(key)``.

A game module is any module with the surface ``engine/base.py`` describes: ``KEY``, ``NAME``,
``MIN_PLAYERS``, ``MAX_PLAYERS``, ``EVENT_TYPES``, ``Rules``, ``new_game`` and ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from engine import (
    cribbage,
    fantan,
    femhundra,
    fyrtioett,
    kasino,
    kille,
    kille_elimination,
    nittionio,
    polskt_pass,
    president,
    stopp,
    tvamanswhist,
    vandatta,
    whist,
)
from engine.errors import Text

_BUILT_IN = (
    cribbage,
    kille,
    kille_elimination,
    polskt_pass,
    whist,
    fyrtioett,
    nittionio,
    femhundra,
    vandatta,
    stopp,
    president,
    kasino,
    tvamanswhist,
    fantan,
)

_SURFACE = (
    "KEY",
    "NAME",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "EVENT_TYPES",
    "Rules",
    "new_game",
    "apply",
)


@dataclass(frozen=True)
class GameInfo:
    key: str
    module: ModuleType
    name: Text  # English, marked for translation: the web layer shows gettext(name)
    min_players: int
    max_players: int


_GAMES: dict[str, GameInfo] = {}


def register(module: ModuleType) -> GameInfo:
    """Make a game module known (the public hook); refuses a module without the surface or a
    key already taken by another module."""
    missing = [name for name in _SURFACE if not hasattr(module, name)]
    if missing:
        raise TypeError(f"{module.__name__} is not a game module: no {', '.join(missing)}")
    known = _GAMES.get(module.KEY)
    if known is not None and known.module is not module:
        raise ValueError(f"the game key {module.KEY!r} is taken by {known.module.__name__}")
    info = GameInfo(module.KEY, module, module.NAME, module.MIN_PLAYERS, module.MAX_PLAYERS)
    _GAMES[info.key] = info
    return info


def unregister(key: str) -> None:
    """Forget a game registered with ``register`` (a test's toy game); built-in games stay."""
    if any(key == module.KEY for module in _BUILT_IN):
        raise ValueError(f"{key!r} is a built-in game")
    _GAMES.pop(key, None)


for _module in _BUILT_IN:
    register(_module)


def all_games() -> list[GameInfo]:
    """Every known game, built-in first in the Play page's order, then registered ones."""
    return list(_GAMES.values())


def game_keys() -> tuple[str, ...]:
    return tuple(_GAMES)


def get(key: str) -> GameInfo:
    info = _GAMES.get(key) if isinstance(key, str) else None
    if info is None:
        raise KeyError(f"no game {key!r}")
    return info


def display_name(key: str) -> str:
    """A game's name, marked for translation (the web layer shows ``gettext`` of it); an
    unknown key (an old row) as itself."""
    info = _GAMES.get(key)
    return info.name if info else key
