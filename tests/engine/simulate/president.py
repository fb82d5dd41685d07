"""President / Trouduc at card level (populara_kortspel.sv.txt, the section on the game the app
calls President): the deck (Trouduc: with a joker) dealt one at a time, the first deal from the
dealer's left, later from the president; from the second deal the last gives his three highest
cards to the president for his three lowest (Trouduc: one, never the joker). The first leader is
eldest hand, later the president.

A lead is one to four cards of one rank; in turn every other player still holding cards passes
(always allowed, "även om man passat innan, får man komma tillbaka in") or lays as many cards of
a higher rank. When everyone else has passed, the cards are turned away and the last to lay leads
again — or, if he went out with them, the next player still in on his left. Ranks: President 2
lowest … ace highest; Trouduc joker, 2, ace, king … 3 (the joker is played here only as the
highest single card, a legal choice among those the text allows).

The pad records the order of going out (``out`` taps or a whole ``deal``); the simulator counts
the placement points itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import president as pr
from engine.base import clockwise, left_of
from engine.cards import ACE, FULL_DECK, JOKER, Card


def strength(card: Card, trouduc: bool) -> int:
    if trouduc:
        if card.rank == JOKER:
            return 100
        return {2: 15, ACE: 14}.get(card.rank, card.rank)
    return 14 if card.rank == ACE else card.rank


@dataclass
class Deal:
    order: tuple[str, ...]
    points: dict[str, int]
    events: list[dict]


def play_deal(rnd: random.Random, state: pr.State) -> tuple[str, ...]:
    players, trouduc = state.players, state.rules.trouduc
    deck = list(FULL_DECK) + ([Card(JOKER, None)] if trouduc else [])
    rnd.shuffle(deck)
    first = state.president or left_of(players, state.dealer)
    order = clockwise(players, first, players)
    hands: dict[str, list[Card]] = {p: [] for p in order}
    for i, card in enumerate(deck):
        hands[order[i % len(order)]].append(card)

    def key(card: Card) -> int:
        return strength(card, trouduc)

    if state.president is not None:
        assert state.last is not None
        swap = 1 if trouduc else 3
        giving = sorted((c for c in hands[state.last] if not c.is_joker), key=key)[-swap:]
        taking = sorted(hands[state.president], key=key)[:swap]
        for card in giving:
            hands[state.last].remove(card)
            hands[state.president].append(card)
        for card in taking:
            hands[state.president].remove(card)
            hands[state.last].append(card)

    out: list[str] = []
    leader = first
    while len(out) < len(players) - 1:
        # The leader lays one to four cards of a rank (the joker alone).
        rank = rnd.choice(sorted({key(c) for c in hands[leader]}))
        group = [c for c in hands[leader] if key(c) == rank]
        count = 1 if rank == 100 else rnd.randint(1, len(group))
        top, last = rank, leader
        for card in group[:count]:
            hands[leader].remove(card)
        if not hands[leader]:
            out.append(leader)
            if len(out) == len(players) - 1:
                break
        turn = leader
        while True:
            turn = left_of(players, turn)
            if turn == last:
                break  # everyone else passed
            if turn in out:
                continue
            higher = {}
            for card in hands[turn]:
                if key(card) > top:
                    higher.setdefault(key(card), []).append(card)
            options = [r for r, cards in higher.items() if len(cards) >= count]
            if count > 1:
                options = [r for r in options if r != 100]
            if not options or rnd.random() < 0.25:
                continue  # pass
            top = rnd.choice(options)
            for card in higher[top][:count]:
                hands[turn].remove(card)
            last = turn
            if not hands[turn]:
                out.append(turn)
            if len(out) == len(players) - 1:
                break
        if len(out) == len(players) - 1:
            break
        still = [p for p in players if p not in out]
        leader = last if last in still else clockwise(players, left_of(players, last), still)[0]
    return (*out, *(p for p in players if p not in out))


def simulate(rnd: random.Random, state: pr.State) -> Deal:
    order = play_deal(rnd, state)
    points = dict(zip(order, pr.placement_points(len(order), state.rules.trouduc), strict=True))
    if rnd.random() < 0.5:
        events = [{"type": "out", "player": p} for p in order[:-1]]
    else:
        events = [{"type": "deal", "order": list(order[: len(order) - rnd.randint(0, 1)])}]
    return Deal(order, points, events)
