"""Fyrtioett at card level (populara_kortspel.sv.txt, "Fyrtioett regler"): the 52-card deck
shuffled, 13 cards to each player, bids in turn counter-clockwise from förhand (right of the
dealer) — each a guess from the hand (its aces, kings and hearts, give or take one); if the bids
are worth less than 11 the cards are thrown in (the last bidder may throw in rather than bid),
else 13 random legal tricks with hearts as permanent trumps: förhand leads, play goes
counter-clockwise, everyone follows suit if he can (else discards or trumps as he likes), the
highest heart — else the highest card of the suit led — wins and leads the next.

The simulator counts each player's tricks and records the deal as the pad does: every bid and
every player's tricks, or a throw-in with the bids made before it (now and then without them,
or with the pad's blank trick row).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import fyrtioett as f
from engine.cards import ACE, FULL_DECK, Card, Suit

PLAYERS = ("a", "b", "c", "d")


def strength(card: Card) -> int:
    return 14 if card.rank == ACE else card.rank


@dataclass
class Deal:
    hands: dict[str, list[Card]]
    bids: dict[str, int]  # in bidding order
    tricks: dict[str, int]  # empty when thrown in
    event: dict


def _guess(rnd: random.Random, hand: list[Card], low: int) -> int:
    sure = sum(1 for c in hand if c.rank in (ACE, 13)) + sum(1 for c in hand if c.suit == "H") // 3
    return max(low, min(13, sure + rnd.choice((-1, 0, 0, 1, 2))))


def simulate(rnd: random.Random, state: f.State) -> Deal:
    deck = list(FULL_DECK)
    rnd.shuffle(deck)
    order = state.bidding_order  # förhand first, counter-clockwise, the dealer last
    hands = {p: sorted(deck[13 * i : 13 * (i + 1)]) for i, p in enumerate(order)}
    bids: dict[str, int] = {}
    for number, player in enumerate(order):
        bid = _guess(rnd, hands[player], state.rules.min_bid)
        last = number == len(order) - 1
        if last and f.bids_worth([*bids.values(), bid]) < f.MIN_WORTH and rnd.random() < 0.5:
            break  # the last bidder throws in rather than bid
        bids[player] = bid
    if len(bids) < 4 or f.bids_worth(bids.values()) < f.MIN_WORTH:
        event: dict = {"type": "throw_in"}
        if rnd.random() < 0.8:
            event["bids"] = dict(bids)
        if rnd.random() < 0.2:
            event["tricks"] = dict.fromkeys(PLAYERS, 0)  # the pad's blank row
        return Deal(hands, bids, {}, event)
    held = {p: list(cards) for p, cards in hands.items()}
    tricks = dict.fromkeys(PLAYERS, 0)
    leader = order[0]
    for _trick in range(13):
        seats = order[order.index(leader) :] + order[: order.index(leader)]
        played: list[tuple[str, Card]] = []
        for player in seats:
            cards = held[player]
            follow = [c for c in cards if played and c.suit == played[0][1].suit]
            card = rnd.choice(follow or cards)
            cards.remove(card)
            played.append((player, card))
        trumps = [pc for pc in played if pc[1].suit == Suit.HEARTS]
        pool = trumps or [pc for pc in played if pc[1].suit == played[0][1].suit]
        leader = max(pool, key=lambda pc: strength(pc[1]))[0]
        tricks[leader] += 1
    event = {"type": "deal", "bids": dict(bids), "tricks": dict(tricks)}
    return Deal(hands, bids, tricks, event)
