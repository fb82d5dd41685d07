"""The cribbage pad: the points a hand or crib can have with the starter cut, a card grid to
count by tapping, and the play by cards: a row of the 13 ranks (the suit does not matter while
pegging) and Go, with the count the engine keeps."""

from __future__ import annotations

import itertools
import random

from engine import cribbage
from engine.cards import parse_card
from scoring.card_grid import card_grid
from scoring.demo import Demo, Queue, Table
from scoring.evening_status import by_field
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


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------

STAKE = {"stake_ore": 500}  # a small stake: 5 kr a game, 10 for a skunk, 15 for a double


class DemoPlay(Queue):
    """Real cards, the pegging played out, hands and crib counted by the engine."""

    careless: dict[str, float] | None = None

    def plan(self, state) -> list[dict]:
        rng = self.rng
        deck = list(range(52))
        rng.shuffle(deck)
        order = cribbage.show_order(state)  # the dealer's left first, the dealer last
        hands: dict[str, list[int]] = {}
        crib: list[int] = []
        deal_size = 6 if len(order) == 2 else 5
        if not self.careless:  # how often each player throws without thinking
            self.careless = {p: rng.choice((0.05, 0.1, 0.6)) for p in state.players}
        for player in order:
            dealt = [deck.pop() for _ in range(deal_size)]
            hands[player] = _keep(dealt, deck, rng, self.careless[player])
            crib += [c for c in dealt if c not in hands[player]]
        while len(crib) < 4:
            crib.append(deck.pop())
        starter = deck.pop()
        events: list[dict] = [{"type": "starter", "card": _card(starter)}]
        for player, points in _pegging(order, hands, rng):
            events.append({"type": "peg", "player": player, "points": points})
        for player in order:
            events.append({"type": "show", "player": player, "cards": _cards(hands[player])})
        events.append({"type": "crib", "cards": _cards(crib)})
        return events


def _card(number: int) -> str:
    return str(cribbage.number_card(number))


def _cards(numbers) -> list[str]:
    return [_card(n) for n in numbers]


def _keep(dealt: list[int], unseen: list[int], rng: random.Random, careless: float) -> list[int]:
    """The four cards a club player keeps: the best average over a few possible starters, but
    now and then a careless throw (which is how skunks happen)."""
    if rng.random() < careless:
        return rng.sample(dealt, 4)
    starters = rng.sample(unseen, 8)
    best = max(
        itertools.combinations(dealt, 4),
        key=lambda keep: sum(cribbage.hand_points(keep, s) for s in starters) + rng.random(),
    )
    return list(best)


def _pegging(order: list[str], hands: dict[str, list[int]], rng: random.Random):
    """The play, card by card: (player, points) for every play or go that scores."""
    held = {p: [cribbage.number_card(n) for n in hands[p]] for p in order}
    scores: list[tuple[str, int]] = []
    pile: list = []
    last: str | None = None
    turn = order[0]

    def count() -> int:
        return sum(min(c.rank, 10) for c in pile)

    def can_play(player: str) -> list:
        return [c for c in held[player] if count() + min(c.rank, 10) <= 31]

    def after(player: str) -> str:
        return order[(order.index(player) + 1) % len(order)]

    while any(held.values()):
        if not any(can_play(p) for p in order):
            scores.append((last, 1))  # go: the last to play takes one
            pile, turn = [], after(last)
            continue
        playable = can_play(turn)
        if playable:
            card = max(playable, key=lambda c: (cribbage.peg_points(pile, c).points, rng.random()))
            peg = cribbage.peg_points(pile, card)
            held[turn].remove(card)
            pile.append(card)
            last = turn
            if peg.points:
                scores.append((turn, peg.points))
            if peg.count == 31:
                pile = []
        turn = after(turn)
    if pile:
        scores.append((last, 1))  # the last card
    return scores


DEMO = Demo(
    DemoPlay,
    (
        Table(evening=0, number=0, players=2, start=0, hours=1, rules=STAKE),
        Table(evening=0, number=4, players=2, start=2.5, hours=1, rules=STAKE, host=True),
        Table(evening=1, number=0, players=2, start=0, hours=1, rules=STAKE),
        Table(evening=1, number=4, players=2, start=2.5, hours=1, rules=STAKE),
        Table(evening=2, number=0, players=2, start=0, hours=1, rules=STAKE),
        Table(evening=2, number=5, players=2, start=2.5, hours=1, rules=STAKE, host=True),
    ),
)


PAD = Pad(
    "cribbage",
    template="scoring/pads/cribbage.html",
    css=None,
    context=pad_context,
    calculator="scoring.calculators.cribbage",
    demo=DEMO,
    evening_status=by_field("scores"),
)
register(PAD)
