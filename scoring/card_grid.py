"""The 52 cards laid out by suit for a tap-to-pick grid: a widget the cribbage pad and the
cribbage calculators both show (``templates/scoring/_card_grid.html`` and
``_card_buttons.html``). It stands on the engine's cards only, so pads and calculators import
it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import FULL_DECK, Suit


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
