"""The cribbage pad: the points a hand or crib can have, and a card grid to count by tapping."""

from __future__ import annotations

from engine import cribbage
from scoring.calculators import card_grid

POINTS = [n for n in range(cribbage.MAX_HAND + 1) if n not in cribbage.IMPOSSIBLE_HAND_TOTALS]


def pad_context(game, state: dict, seats: list) -> dict:
    return {"points_choices": POINTS, "card_grid": card_grid(set())}
