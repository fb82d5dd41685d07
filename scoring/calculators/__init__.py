"""Calculators people use at the table, without a game and without logging in.

One module per game (``scoring/calculators/<game>.py``). Each module offers:

- ``urlpatterns``: its pages, route names ``calc-<game>-<what>`` (mounted under ``calc/``);
- ``LINKS``: ``[(route name, lazy label), …]`` for the calculators page.

A game's pad hook (``scoring/games/<game>.py``, ``Pad.calculator``) names its calculator
module. Input errors come back as a message next to the form; nothing is stored.
"""

from __future__ import annotations

import functools
from importlib import import_module
from types import ModuleType

from engine import registry
from scoring import games


@functools.cache
def modules() -> tuple[ModuleType, ...]:
    """Every calculator module, in the order of the game registry: each game's pad hook names
    its calculator (``Pad.calculator``), if it has one."""
    names = [games.pad_for(key).calculator for key in registry.game_keys()]
    return tuple(import_module(name) for name in names if name)


def urlpatterns() -> list:
    return [pattern for module in modules() for pattern in getattr(module, "urlpatterns", [])]


def links() -> list[tuple[str, str]]:
    return [link for module in modules() for link in getattr(module, "LINKS", [])]
