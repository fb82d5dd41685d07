"""Nittionio at card level (populara_kortspel.sv.txt, "Nittionio regler"): the 37-card deck (A–6
and a joker; the revised game's 36, no joker) shuffled, 12 cards to each of the three players
and the last card turned up for trumps (a nine or the joker: no trump; the revised game's trump
follows the successes of the deal before); the joker in a hand acts as the turned-up card. Each
player lays three random cards of his hand as bid cards (♦ 0, ♠ 1, ♥ 2, ♣ 3), the premium
calls go clockwise from förhand (N5: one premium, a show outranks a declaration), and nine
random legal tricks are played: förhand leads, everyone follows suit if he can (else discards or
trumps as he likes), the highest trump — else the highest card of the suit led — wins and leads.

The simulator counts each player's tricks and records the deal as the pad does — a bid as a
number, a missed one as missed (now and then as the number anyway) — and now and then as the
API may: the bid cards as suits or as cards, with the turn-up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine import nittionio as n
from engine.cards import ACE, JOKER, Card, Suit, stripped_deck

VALUES = n.BID_SUIT_VALUES


def strength(card: Card) -> int:
    return 14 if card.rank == ACE else card.rank


@dataclass
class Deal:
    hands: dict[str, list[Card]]  # the 12 cards dealt
    laid: dict[str, list[Card]]  # the bid cards
    turn_up: Card | None
    bids: dict[str, int]
    tricks: dict[str, int]
    premium: tuple[str, str] | None
    event: dict


def _calls(rnd: random.Random, state: n.State) -> tuple[dict[str, str], tuple[str, str] | None]:
    calls: dict[str, str] = {}
    premium = None
    for player in state.calling_order:
        if not state.rules.premiums:
            break
        roll = rnd.random()
        if premium is None and roll < 0.12:
            call = "declare" if roll < 0.08 else "show"
        elif premium is not None and premium[1] == "declare" and roll < 0.05:
            call = "show"
        else:
            call = "pass"
        if call != "pass":
            premium = (player, call)
        if call != "pass" or rnd.random() < 0.3:
            calls[player] = call
    return calls, premium


def simulate(rnd: random.Random, state: n.State) -> Deal:
    joker = state.rules.joker
    deck = list(stripped_deck(36, jokers=1 if joker else 0))
    rnd.shuffle(deck)
    order = state.calling_order  # förhand (left of the dealer) first, clockwise
    hands = {p: deck[12 * i : 12 * (i + 1)] for i, p in enumerate(order)}
    turn_up = deck[36] if joker else None

    def acting(card: Card) -> Card:  # the joker acts as the turned-up card
        return turn_up if card.rank == JOKER and turn_up is not None else card

    if joker:
        assert turn_up is not None
        no_trump = turn_up.rank in (JOKER, 9)
        trump = None if no_trump else turn_up.suit
    else:
        trump = None if state.trump == n.NO_TRUMP else Suit(state.trump)
    laid = {p: rnd.sample(hands[p], 3) for p in order}
    bids = {p: sum(VALUES[acting(c).suit] for c in laid[p]) for p in order}
    calls, premium = _calls(rnd, state)
    held = {p: [c for c in hands[p] if c not in laid[p]] for p in order}
    tricks = dict.fromkeys(order, 0)
    leader = order[0]
    for _trick in range(9):
        seats = order[order.index(leader) :] + order[: order.index(leader)]
        played: list[tuple[str, Card]] = []
        for player in seats:
            cards = held[player]
            led = acting(played[0][1]).suit if played else None
            follow = [c for c in cards if acting(c).suit == led]
            card = rnd.choice(follow or cards)
            cards.remove(card)
            played.append((player, card))
        led = acting(played[0][1]).suit
        trumps = [pc for pc in played if trump is not None and acting(pc[1]).suit == trump]
        pool = trumps or [pc for pc in played if acting(pc[1]).suit == led]
        leader = max(pool, key=lambda pc: strength(acting(pc[1])))[0]
        tricks[leader] += 1
    event: dict = {"type": "deal", "bids": {}, "tricks": dict(tricks)}
    if calls:
        event["calls"] = calls
    with_turn_up = joker and rnd.random() < 0.5
    for player in order:
        shown = bids[player] == tricks[player] or (premium and premium[0] == player)
        if not shown and rnd.random() < 0.6:
            event["bids"][player] = rnd.choice([None, "bet", "x", "-"])
            continue
        form = rnd.random()
        if form < 0.7:
            event["bids"][player] = bids[player]
        elif form < 0.85:
            event["bids"][player] = [acting(c).suit.value for c in laid[player]]
        else:
            event["bids"][player] = [str(c) for c in laid[player]]
            with_turn_up = with_turn_up or any(c.rank == JOKER for c in laid[player])
    if with_turn_up:
        event["turn_up"] = str(turn_up)
    return Deal(hands, laid, turn_up, bids, tricks, premium, event)
