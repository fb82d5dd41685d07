"""The games the app knows, found in the engine package itself.

Design: a game is a module ``engine/<key>.py`` that declares itself with ``GAME``, an
``engine.base.Declaration`` (its key, name, player counts, event types and what it can do).
Nothing lists the games: on import this module looks at every module of the ``engine`` package
and registers those with a ``GAME``, in the order of their ``position`` (the Play page's order).
Everything else about a game is read from its module, so nothing here can drift from the rules
it describes. A game outside this package (the test suite's toy game, a club's own game) joins
through the public hook ``register(module)`` and leaves with ``unregister(key)``.

A game module is any module with the surface ``engine/base.py`` describes: ``GAME``, ``KEY``,
``NAME``, ``MIN_PLAYERS``, ``MAX_PLAYERS``, ``EVENT_TYPES``, ``Rules``, ``new_game`` and
``apply``; its ``GAME`` must say the same as those constants.
"""

from __future__ import annotations

import pkgutil
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

import engine
from engine.base import Declaration
from engine.errors import Text


def _found_in_the_engine_package() -> tuple[ModuleType, ...]:
    """Every module of this package that declares a game, by its declared position."""
    modules = []
    for found in pkgutil.iter_modules(engine.__path__):
        if found.ispkg or found.name.startswith("_"):
            continue
        module = import_module(f"engine.{found.name}")
        if isinstance(getattr(module, "GAME", None), Declaration):
            modules.append(module)
    return tuple(sorted(modules, key=lambda module: (module.GAME.position, module.GAME.key)))


_SURFACE = (
    "GAME",
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
    declaration: Declaration


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
    declared = module.GAME
    said = (module.KEY, module.NAME, module.MIN_PLAYERS, module.MAX_PLAYERS, module.EVENT_TYPES)
    if (
        declared.key,
        declared.name,
        declared.min_players,
        declared.max_players,
        declared.event_types,
    ) != said:
        raise ValueError(f"{module.__name__}: GAME does not say what its constants say")
    info = GameInfo(
        module.KEY, module, module.NAME, module.MIN_PLAYERS, module.MAX_PLAYERS, declared
    )
    _GAMES[info.key] = info
    return info


def unregister(key: str) -> None:
    """Forget a game registered with ``register`` (a test's toy game); built-in games stay."""
    if any(key == module.KEY for module in _BUILT_IN):
        raise ValueError(f"{key!r} is a built-in game")
    _GAMES.pop(key, None)


_BUILT_IN = _found_in_the_engine_package()
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
