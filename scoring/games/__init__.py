"""Per-game hooks for the table pages, one optional module per game (``scoring/games/<key>.py``).

A game's module may define:

- ``pad_context(game, state) -> dict``: what its pad template needs beyond the snapshot
  (``state`` is ``game.snapshot``, a dict), e.g. the choices for a points grid;
- ``start_setup(club) -> dict``: engine arguments fixed when a game starts besides players,
  rules and first dealer (e.g. the outstanding betar of the club's Polskt pass), passed to
  ``new_game`` as keywords and stored in ``Game.setup`` so that replays never change.

A game without a module gets nothing extra. Keeping these here means a game's pad never touches
``scoring/views.py``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


def module_for(game_key: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{__name__}.{game_key}")
    except ModuleNotFoundError as error:
        if error.name == f"{__name__}.{game_key}":
            return None
        raise


def pad_context(game, state: dict) -> dict[str, Any]:
    module = module_for(game.game_key)
    hook = getattr(module, "pad_context", None)
    return hook(game, state) if hook else {}


def start_setup(club, game_key: str) -> dict[str, Any]:
    module = module_for(game_key)
    hook = getattr(module, "start_setup", None)
    return hook(club) if hook else {}
