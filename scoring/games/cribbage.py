"""The cribbage pad: the points a hand or crib can have with the starter cut, a card grid to
count by tapping, and the play by cards: a row of the 13 ranks (the suit does not matter while
pegging) and Go, with the count the engine keeps."""

from __future__ import annotations

from engine import cribbage
from engine.cards import parse_card
from scoring.card_grid import card_grid
from scoring.games import Pad, names_of, register

# The quick pegging chips: what a card laid can score (a go or last card 1, a pair or fifteen 2,
# a run 3…, 15 with a pair 4, 15 with a run 5, a pair royal 6, 15 with a pair royal 8, a double
# pair royal 12).
PEG_CHIPS = (1, 2, 3, 4, 5, 6, 8, 12)
POINTS = [n for n in range(cribbage.MAX_HAND + 1) if n not in cribbage.IMPOSSIBLE_HAND_TOTALS]


def pad_context(game, state: cribbage.State, seats: list) -> dict:
    return {
        "points_choices": points_choices(state),
        "card_grid": card_grid(set()),
        "play": play_context(state, seats),
        "peg_chips": PEG_CHIPS,
    }


def points_choices(state: cribbage.State) -> list[int]:
    """The totals the chips offer: only those the cut starter allows for what is being counted
    now, the hand or the crib (with K♦ cut no 29; with a five cut no 0), so a thumb cannot tap a
    total the engine would refuse."""
    if not state.starter:
        return POINTS
    crib = state.phase == "crib"
    return sorted(cribbage.possible_totals(parse_card(state.starter), crib=crib))


def play_context(state: cribbage.State, seats: list) -> dict | None:
    """The play by cards, while the engine takes it: whose turn, the count, which ranks fit."""
    if "play" not in state.expected:
        return None
    names = names_of(seats)
    fits = cribbage.playable_ranks(state)
    return {
        "player": state.to_play,
        "name": names.get(state.to_play, state.to_play),
        "count": state.count_total,
        "count_cards": state.count_cards,
        "ranks": [
            {"value": rank, "label": label, "fits": rank in fits}
            for rank, label in cribbage.RANK_LABELS.items()
        ],
        "go": cribbage.go_allowed(state),
        "played": [
            {"name": names.get(p, p), "cards": len(state.cards_played[p])} for p in state.players
        ],
        "started": any(state.cards_played.values()),
    }


PAD = Pad(
    "cribbage",
    template="scoring/pads/cribbage.html",
    css=None,
    context=pad_context,
    calculator="scoring.calculators.cribbage",
)
register(PAD)
