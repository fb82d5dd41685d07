"""Fan tan at card level (populara_kortspel.sv.txt, "Fan tan regler"): the 52 cards dealt one at
a time from the dealer's left, and random legal turns — a card that fits the layout when there is
one (a player passes only when he cannot play):

- fan tan: eldest hand lays a seven, or the nearest player in turn who has one (the players
  before him are passed over); then a seven starts its suit, and a suit is built down from its
  seven to the ace and up to the king, one card a turn;
- free fan tan: eldest hand lays any card; a suit is started by any of its cards and built
  upwards round the corner (king, ace, two …), and a turn may lay a run of the suit.

The first to lay his last card wins; with ``play_on`` the others play on for the places. The
simulator emits what the pad records — the passes while playing for chips (only before anyone is
out), each ``out``, and the cards left when the first goes out (with chips or without
``play_on``) — and counts the chips and the placement points itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import fantan as f
from engine.base import clockwise, left_of
from engine.cards import FULL_DECK, KING, Card, Suit

SEVEN = 7


@dataclass
class Deal:
    events: list[dict]
    order: tuple[str, ...]  # as the engine will rank them
    cards_left: dict[str, int]  # when the first went out (players still in)
    passes: dict[str, int]  # recorded passes (before the first out)
    sizes: dict[str, int]
    chips: dict[str, int]  # net chips per player (with chips)
    points: dict[str, int]


def _next_up(rank: int) -> int:
    return 1 if rank == KING else rank + 1


def _moves(hand: list[Card], layout: dict, variant: str, first: bool) -> list[list[Card]]:
    """The legal plays: a list of cards laid in one turn (free fan tan: a run of one suit)."""
    moves = []
    if variant == "fantan":
        for card in hand:
            span = layout.get(card.suit)
            if span is None:
                if card.rank == SEVEN:
                    moves.append([card])
            elif card.rank in (span[0] - 1, span[1] + 1):
                moves.append([card])
        return moves
    for card in hand:
        top = layout.get(card.suit)
        if first or top is None or card.rank == _next_up(top[1]):
            if top is not None and top[0] >= 13:
                continue
            run = [card]
            laid = 0 if top is None else top[0]
            while laid + len(run) < 13:
                following = Card(_next_up(run[-1].rank), card.suit)
                if following not in hand:
                    break
                run.append(following)
            for k in range(1, len(run) + 1):
                moves.append(run[:k])
    return moves


def _lay(layout: dict, cards: list[Card], variant: str) -> None:
    for card in cards:
        span = layout.get(card.suit)
        if variant == "fantan":
            layout[card.suit] = (
                (card.rank, card.rank)
                if span is None
                else (min(span[0], card.rank), max(span[1], card.rank))
            )
        else:
            layout[card.suit] = (1, card.rank) if span is None else (span[0] + 1, card.rank)


def simulate(rnd: random.Random, state: f.State) -> Deal:
    """A legal deal for the game ``state`` is at, with the pad's events."""
    rules = state.rules
    players = state.players
    deck = list(FULL_DECK)
    rnd.shuffle(deck)
    order = clockwise(players, left_of(players, state.dealer), players)  # eldest hand first
    hands: dict[str, list[Card]] = {p: [] for p in order}
    for i, card in enumerate(deck):
        hands[order[i % len(order)]].append(card)
    sizes = {p: len(h) for p, h in hands.items()}
    assert sizes == f.hand_sizes(state)
    chips = bool(rules.chip_ore)
    needs_count = chips or not rules.play_on
    layout: dict[Suit, tuple[int, int]] = {}
    events: list[dict] = []
    passes = dict.fromkeys(players, 0)
    out: list[str] = []
    cards_left: dict[str, int] = {}
    i = 0
    if rules.variant == "fantan":
        while not any(c.rank == SEVEN for c in hands[order[i]]):
            i += 1  # passed over: he has no seven to start with
    first = True
    while True:
        player = order[i % len(order)]
        i += 1
        if player in out:
            continue
        moves = _moves(hands[player], layout, rules.variant, first)
        if not moves:
            if chips and not out:
                passes[player] += 1
                events.append({"type": "pass", "player": player})
            continue
        move = rnd.choice(moves)
        first = False
        for card in move:
            hands[player].remove(card)
        _lay(layout, move, rules.variant)
        if hands[player]:
            continue
        out.append(player)
        events.append({"type": "out", "player": player})
        if len(out) == 1:
            cards_left = {p: len(hands[p]) for p in order if p != player}
            if needs_count:
                events.append({"type": "cards_left", "cards": dict(cards_left)})
            if not rules.play_on:
                break
        if len(out) == len(players) - 1:
            break  # the last one is known
    n = len(players)
    if rules.play_on:
        ranked = (*out, *(p for p in players if p not in out))
        points = {p: n - 1 - k for k, p in enumerate(ranked)}
    else:
        held = {**cards_left, out[0]: 0}
        ranked = (out[0], *sorted(cards_left, key=lambda p: cards_left[p]))
        points = {p: sum(held[q] > held[p] for q in players) for p in players}
    net = {}
    if chips:
        pot = sum(passes.values())
        for p in players:
            paid = 1 + cards_left.get(p, 0)
            net[p] = -passes[p] - paid
            pot += paid
        net[out[0]] += pot
    return Deal(events, ranked, cards_left, passes, sizes, net, points)


def turns_fit(variant: str, winner: str, passes, cards_left, sizes) -> bool:
    """The turns of one deal go round (worked out from the rules, apart from the engine): a turn
    is a pass or one card (free fan tan: a run), the winner went out on his last turn, and every
    other player had as many turns as he or one fewer."""

    def span(p):
        played = sizes[p] - cards_left.get(p, 0)
        if variant == "fantan":
            return passes[p] + played, passes[p] + played
        return passes[p] + min(played, 1), passes[p] + played

    low, high = span(winner)
    if variant == "free":
        low = passes[winner] + 1
    for t in range(low, high + 1):
        if all(span(p)[0] <= t and span(p)[1] >= t - 1 for p in cards_left):
            return True
    return False
