"""Whist at card level (populara_kortspel.sv.txt, "Whist regler"): the 52-card deck shuffled, 13
cards to each of the four players, the dealer's last card turned up for trumps, and 13 random
legal tricks: förhand (left of the dealer) leads, everyone follows suit if he can (else plays
any card, a trump or not), the highest trump — else the highest card of the suit led — wins
and leads the next.

The simulator counts the tricks of each side (à la guerre each player) and the honours each
held (A K Q J of trumps; à la guerre also the 10), and records the deal as the pad does:
partners tap the tricks of one side (the side that took seven or more, or either) and the
honours split ("3-1"); à la guerre the tricks of each player (one may be left out) and the
honours of each player (the last may be left out).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import permutations

from engine import whist as w
from engine.cards import ACE, FULL_DECK, Card

PLAYERS = ("a", "b", "c", "d")


def strength(card: Card) -> int:
    """Ace high: 2 … 13 for 2 … K, 14 for the ace."""
    return 14 if card.rank == ACE else card.rank


def honour_ranks(variant: str) -> tuple[int, ...]:
    return (ACE, 13, 12, 11, 10) if variant == "guerre" else (ACE, 13, 12, 11)


@dataclass
class Deal:
    hands: dict[str, list[Card]]  # as dealt
    trump: Card  # the dealer's turned-up card
    tricks: tuple[int, ...]  # per side (à la guerre per seat), the simulator's count
    honours: tuple[int, ...]  # per side (per seat): how many honours each held
    event: dict


def play(rnd: random.Random, dealer: int = 0) -> tuple[dict, Card, list[int]]:
    """Deal and play one deal: the hands, the turn-up and the tricks per seat."""
    deck = list(FULL_DECK)
    rnd.shuffle(deck)
    # Dealt one at a time from the dealer's left; the dealer's last card is turned up.
    hands = {seat: [] for seat in range(4)}
    for index, card in enumerate(deck):
        hands[(dealer + 1 + index) % 4].append(card)
    trump = hands[dealer][-1]
    held = {seat: list(cards) for seat, cards in hands.items()}
    taken = [0, 0, 0, 0]
    leader = (dealer + 1) % 4
    for _trick in range(13):
        played: list[tuple[int, Card]] = []
        for offset in range(4):
            seat = (leader + offset) % 4
            cards = held[seat]
            if played:
                led = played[0][1].suit
                follow = [c for c in cards if c.suit == led]
                choices = follow or cards
            else:
                choices = cards
            card = rnd.choice(choices)
            cards.remove(card)
            played.append((seat, card))
        led = played[0][1].suit
        trumps = [(s, c) for s, c in played if c.suit == trump.suit]
        pool = trumps or [(s, c) for s, c in played if c.suit == led]
        leader = max(pool, key=lambda sc: strength(sc[1]))[0]
        taken[leader] += 1
    return hands, trump, taken


def simulate(rnd: random.Random, variant: str, honours: bool = True, dealer: int = 0) -> Deal:
    hands, trump, taken = play(rnd, dealer)
    partnership = variant != "guerre"
    ranks = honour_ranks(variant)
    per_seat = [
        sum(1 for c in hands[s] if c.suit == trump.suit and c.rank in ranks) for s in range(4)
    ]
    if partnership:
        tricks = (taken[0] + taken[2], taken[1] + taken[3])
        held = (per_seat[0] + per_seat[2], per_seat[1] + per_seat[3])
        side = rnd.choice([s for s in (0, 1) if tricks[s] >= 7] if rnd.random() < 0.8 else [0, 1])
        event = {"type": "deal", "tricks": {str(side): tricks[side]}}
        if honours and variant != "american":
            event["honours"] = "-".join(map(str, held)) if rnd.random() < 0.8 else list(held)
    else:
        tricks = tuple(taken)
        held = tuple(per_seat)
        left_out = rnd.choice([None, *range(4)])
        event = {
            "type": "deal",
            "tricks": {PLAYERS[s]: tricks[s] for s in range(4) if s != left_out},
        }
        if honours:
            if rnd.random() < 0.5:
                event["honours"] = "-".join(map(str, held))
            else:
                out = rnd.choice([None, 3])
                event["honours"] = {PLAYERS[s]: held[s] for s in range(4) if s != out}
    return Deal(hands, trump, tricks, held, event)


def possible(split: tuple[int, ...], tricks: tuple[int, ...], partnership: bool) -> bool:
    """Whether some deal has this honours split with these tricks — an exhaustive search written
    apart from the engine's: every way to give the honours to their holders, every way the
    honours may share tricks (numbered in order of first use), one card a trick per player
    (two per side); a trick with honours goes to the holder of the highest."""
    if sum(tricks) != 13 or any(not 0 <= t <= 13 for t in tricks):
        return False
    return any(
        all(a <= b for a, b in zip(wins, tricks, strict=True))
        for wins in _wins(tuple(split), partnership)
    )


@cache
def _wins(split: tuple[int, ...], partnership: bool) -> frozenset[tuple[int, ...]]:
    cards = sum(split)
    owners = [side for side, count in enumerate(split) for _n in range(count)]
    cap = 2 if partnership else 1
    found = set()
    for order in set(permutations(owners)):  # order[i]: the holder of the i-th highest honour
        for slots in _slots(cards):
            wins = [0] * len(split)
            ok = True
            for trick in set(slots):
                members = [i for i in range(cards) if slots[i] == trick]
                if any(sum(order[i] == s for i in members) > cap for s in set(order)):
                    ok = False
                    break
                wins[order[min(members)]] += 1
            if ok:
                found.add(tuple(wins))
    return frozenset(found)


def _slots(cards: int, head: tuple[int, ...] = ()):
    """Every way to put ``cards`` honours in tricks, the tricks numbered as first used."""
    if len(head) == cards:
        yield head
        return
    for trick in range(max(head, default=-1) + 2):
        yield from _slots(cards, (*head, trick))


def rules_for(rnd: random.Random) -> w.Rules:
    variant = rnd.choice(w.VARIANTS)
    return w.Rules(variant=variant, honours=rnd.random() < 0.85)
