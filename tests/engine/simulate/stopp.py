"""Stopp at card level (populara_kortspel.sv.txt, "Stopp regler"): the 52-card deck shuffled, six
cards to each player still in, the rest laid aside; eldest hand (the dealer's left) leads any
card, and in turn each player still holding cards must beat the pile's top card with a higher
card of its suit if he can (a random one of those), else says "stopp". When everyone else has
said stopp, the last to play turns the pile away and leads again. A player who plays his last
card is out of the deal; if nobody beats that card the deal ends — and if the last two both go
out, nobody holds a card (ST3).

The pad records the cards each player still in holds at the end (one ``deal`` event); the
simulator also counts what each pays (a unit a card, at most his capital, ST1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import stopp as s
from engine.base import clockwise, left_of
from engine.cards import ACE, FULL_DECK, Card


def high(card: Card) -> int:
    """Stopp ranks the ace high (the text's example: nobody has the ace of hearts to beat the
    king)."""
    return 14 if card.rank == ACE else card.rank


@dataclass
class Deal:
    cards: dict[str, int]  # cards left per player still in
    paid: dict[str, int]  # the simulator's own count of the payments
    event: dict


def play_deal(rnd: random.Random, players, active, dealer) -> dict[str, int]:
    deck = list(FULL_DECK)
    rnd.shuffle(deck)
    order = clockwise(players, left_of(players, dealer), active)  # eldest hand first
    hands = {p: [deck.pop() for _ in range(s.HAND)] for p in order}
    i = 0  # whose turn: order[i]
    leader = order[0]
    while True:
        # ``leader`` leads any card.
        card = rnd.choice(hands[leader])
        hands[leader].remove(card)
        top, last = card, leader
        i = order.index(leader)
        while True:
            i = (i + 1) % len(order)
            player = order[i]
            if player == last:
                break  # everyone else said stopp
            if not hands[player]:
                continue  # out of the deal: no turn
            beats = [c for c in hands[player] if c.suit == top.suit and high(c) > high(top)]
            if not beats:
                continue
            card = rnd.choice(beats)
            hands[player].remove(card)
            top, last = card, player
        if not hands[last]:
            return {p: len(hands[p]) for p in order}  # nobody beat his last card
        leader = last


def simulate(rnd: random.Random, state: s.State) -> Deal:
    cards = play_deal(rnd, state.players, state.active, state.dealer)
    paid = {p: min(n, state.capitals[p]) for p, n in cards.items() if n and state.capitals[p]}
    return Deal(cards, paid, {"type": "deal", "cards": cards})


def producible(cards: dict[str, int], active, eldest: str) -> bool:
    """Whether a deal among ``active`` can end with these counts: everyone still in is counted
    (and nobody else), 0–6 each, someone went out, and eldest hand, who led the first card,
    holds at most five. (Every such count is reached: eldest hand leads cards nobody can beat,
    the players who go out lead and win their piles the same way, the others never play.)"""
    if set(cards) != set(active):
        return False
    if any(not 0 <= n <= s.HAND for n in cards.values()):
        return False
    return 0 in cards.values() and cards[eldest] < s.HAND
