"""Calculators people use at the table, without a game and without logging in.

One module per game (``scoring/calculators/<game>.py``). Each module offers:

- ``urlpatterns``: its pages, route names ``calc-<game>-<what>`` (mounted under ``calc/``);
- ``LINKS``: ``[(route name, lazy label), …]`` for the calculators page.

A game's pad hook (``scoring/games/<game>.py``, ``Pad.calculator``) names its calculator
module. Input errors come back as a message next to the form; nothing is stored.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from engine.cards import FULL_DECK, Suit


@functools.cache
def modules() -> tuple[ModuleType, ...]:
    """Every calculator module, in the order of the game registry: each game's pad hook names
    its calculator (``Pad.calculator``), if it has one."""
    from engine import registry  # noqa: PLC0415
    from scoring import games  # noqa: PLC0415

    names = [games.pad_for(key).calculator for key in registry.game_keys()]
    return tuple(import_module(name) for name in names if name)


def urlpatterns() -> list:
    return [pattern for module in modules() for pattern in getattr(module, "urlpatterns", [])]


def links() -> list[tuple[str, str]]:
    return [link for module in modules() for link in getattr(module, "LINKS", [])]


@dataclass(frozen=True)
class GridCard:
    code: str
    pretty: str
    red: bool
    checked: bool


def card_grid(selected: set[str]) -> list[tuple[str, list[GridCard]]]:
    """The 52 cards by suit, for a tap-to-pick grid; ``selected`` are ticked."""
    order = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    return [
        (
            suit.symbol,
            [
                GridCard(str(card), card.pretty, suit.is_red, str(card) in selected)
                for card in FULL_DECK
                if card.suit == suit
            ],
        )
        for suit in order
    ]
