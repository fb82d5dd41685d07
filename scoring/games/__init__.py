"""Per-game hooks for the table pages, one optional module per game (``scoring/games/<key>.py``).

A game's module may define:

- ``pad_context(game, state, seats) -> dict``: what its pad template needs beyond the snapshot
  (``state`` is ``game.snapshot``, a dict; ``seats`` the game's seats in order, as the view
  already loaded them, so a hook runs no query of its own for names), e.g. the choices for a
  points grid;
- ``start_setup(club) -> dict``: engine arguments fixed when a game starts besides players,
  rules and first dealer (e.g. the outstanding betar of the club's Polskt pass), passed to
  ``new_game`` as keywords and stored in ``Game.setup`` so that replays never change.

A game without a module gets nothing extra. Keeping these here means a game's pad never touches
``scoring/views.py``. The helpers below are shared by the hooks.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterable
from types import ModuleType
from typing import Any


def module_for(game_key: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{__name__}.{game_key}")
    except ModuleNotFoundError as error:
        if error.name == f"{__name__}.{game_key}":
            return None
        raise


def pad_context(game, state: dict, seats: list) -> dict[str, Any]:
    module = module_for(game.game_key)
    hook = getattr(module, "pad_context", None)
    return hook(game, state, seats) if hook else {}


def start_setup(club, game_key: str) -> dict[str, Any]:
    """What a new game of this club starts from besides players, rules and first dealer: the
    club's pot carried over (for a game whose ``new_game`` takes ``pot_ore``), then the game's
    own hook (Polskt pass: the outstanding betar)."""
    from club.models import Account  # noqa: PLC0415
    from engine import registry  # noqa: PLC0415

    setup: dict[str, Any] = {}
    if "pot_ore" in inspect.signature(registry.get(game_key).module.new_game).parameters:
        pot = Account.objects.filter(club=club, key=f"pot:{game_key}").first()
        setup["pot_ore"] = pot.balance_ore if pot else 0
    hook = getattr(module_for(game_key), "start_setup", None)
    return setup | (hook(club) if hook else {})


def names_of(seats: Iterable) -> dict[str, str]:
    """Each seat's player name by seat key (``s0`` → ``Anna Berg``)."""
    return {seat.key: seat.name for seat in seats}


def short_names(names: dict[str, str]) -> dict[str, str]:
    """First names, unless two players share one: then the full names."""
    first = {key: name.split()[0] if name.split() else name for key, name in names.items()}
    taken = list(first.values())
    return {key: first[key] if taken.count(first[key]) == 1 else names[key] for key in names}
