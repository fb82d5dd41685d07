"""The cribbage pad: the points a hand or crib can have with the starter cut, and a card grid
to count by tapping."""

from __future__ import annotations

from engine import cribbage
from engine.cards import parse_card
from scoring.calculators import card_grid

POINTS = [n for n in range(cribbage.MAX_HAND + 1) if n not in cribbage.IMPOSSIBLE_HAND_TOTALS]


def pad_context(game, state: dict, seats: list) -> dict:
    return {"points_choices": points_choices(state), "card_grid": card_grid(set())}


def points_choices(state: dict) -> list[int]:
    """The totals the chips offer: only those the cut starter allows for what is being counted
    now, the hand or the crib (with K♦ cut no 29; with a five cut no 0), so a thumb cannot tap a
    total the engine would refuse."""
    if not state.get("starter"):
        return POINTS
    crib = state.get("phase") == "crib"
    return sorted(cribbage.possible_totals(parse_card(state["starter"]), crib=crib))
