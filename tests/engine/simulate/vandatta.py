"""Vändåtta at card level (populara_kortspel.sv.txt, "Vändåtta regler"): one deck (two from five
players) shuffled, seven cards each, the talon's top card turned up, and random legal turns to
the end of the deal:

- a card on the pile matches the top card's suit (an eight's called suit) or rank; several cards
  of one rank go together, the lowest of them matching; an eight goes on anything but an eight or
  an ace and calls a suit; an ace only on its suit or an ace, and everyone else then draws a card
  and the ace's player plays again (a turned-up ace: everyone draws first);
- who cannot or will not play draws, up to three cards, playing as soon as he can and wants
  (after the third he must play if he can, else the turn passes); an empty talon is made anew
  from the pile under its top card;
- nobody goes out on an ace or an eight; the first to play his last card wins the deal.

The deal is recorded as the pad records it — the losers' hands by category (eights, aces, tens
and court cards, number cards and, with face value, their worth), either as one ``deal`` event or
``out`` then one ``hand`` per loser, now and then minus points entered directly — and the
simulator counts each loser's minus points itself.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import cache

from engine import vandatta as v
from engine.base import clockwise, left_of
from engine.cards import ACE, FULL_DECK, Card, Suit

EIGHT = 8
MAX_TURNS = 4000  # a deal where nobody can move for this long is dealt again


def category(card: Card) -> str:
    if card.rank == EIGHT:
        return "eights"
    if card.rank == ACE:
        return "aces"
    return "courts" if card.rank >= 10 else "numbers"


def card_penalty(card: Card, face_value: bool) -> int:
    kind = category(card)
    return card.rank if kind == "numbers" and face_value else v.VALUES[kind]


@dataclass
class Deal:
    winner: str
    hands: dict[str, list[Card]]  # the losers' cards at the end
    penalties: dict[str, int]  # the simulator's own count, ≤ 0
    events: list[dict]
    turns: int


def _fits(card: Card, top: Card, suit: Suit) -> bool:
    if card.rank == EIGHT:
        return top.rank not in (EIGHT, ACE)
    return card.suit == suit or card.rank == top.rank


def _moves(hand: list[Card], top: Card, suit: Suit) -> list[list[Card]]:
    """Every legal play from ``hand``: one card, or several of a rank (not aces or eights) with
    the first one fitting — never the last card(s) if they are aces or eights."""
    moves = []
    for card in hand:
        if not _fits(card, top, suit):
            continue
        moves.append([card])
        if card.rank not in (ACE, EIGHT):
            same = [c for c in hand if c.rank == card.rank and c != card]
            for k in range(1, len(same) + 1):
                moves.append([card, *same[:k]])
    return [m for m in moves if len(m) < len(hand) or m[-1].rank not in (ACE, EIGHT)]


def play_deal(rnd: random.Random, players: tuple[str, ...], active: tuple[str, ...], dealer: str):
    """Play one deal among ``active`` (dealt from the dealer's left); ``None`` if it stalls."""
    decks = v.decks_for(len(players))
    talon = list(FULL_DECK) * decks
    rnd.shuffle(talon)
    order = clockwise(players, left_of(players, dealer), active)
    hands = {p: [talon.pop() for _ in range(7)] for p in order}
    pile = [talon.pop()]
    suit = pile[-1].suit

    def draw(player: str) -> bool:
        nonlocal talon
        if not talon and len(pile) > 1:
            talon = pile[:-1]
            del pile[:-1]
            rnd.shuffle(talon)
        if not talon:
            return False
        hands[player].append(talon.pop())
        return True

    if pile[-1].rank == ACE:
        for p in order:
            draw(p)
    turn = 0
    i = 0
    while turn < MAX_TURNS:
        turn += 1
        player = order[i % len(order)]
        hand = hands[player]
        drawn = 0
        move = None
        while True:
            moves = _moves(hand, pile[-1], suit)
            if moves and (drawn == 3 or rnd.random() < 0.85):
                move = rnd.choice(moves)
                break
            if drawn == 3 or not draw(player):
                if moves:
                    move = rnd.choice(moves)  # he must play if he can
                break
            drawn += 1
        if move is None:
            i += 1
            continue
        for card in move:
            hand.remove(card)
        pile.extend(move)
        top = pile[-1]
        suit = rnd.choice(list(Suit)) if top.rank == EIGHT else top.suit
        if not hand:
            losers = {p: hands[p] for p in order if p != player}
            return player, losers, turn
        if top.rank == ACE:
            for other in clockwise(players, left_of(players, player), active):
                if other != player:
                    draw(other)
            continue  # the ace's player plays again
        i += 1
    return None


def counts(cards: list[Card], face_value: bool) -> dict[str, int]:
    kinds = Counter(category(c) for c in cards)
    hand = {k: kinds[k] for k in v.CATEGORIES}
    if face_value:
        hand["pips"] = sum(c.rank for c in cards if category(c) == "numbers")
    return hand


def events_for(
    rnd: random.Random,
    winner: str,
    hands: dict[str, dict[str, int]],
    face_value: bool,
    penalties: dict[str, int] | None = None,
    partial: bool = True,
) -> list[dict]:
    """The pad's events for a deal's hands (category counts per loser, clockwise from the
    winner's left): one ``deal`` or ``out`` + ``hand`` each; ``penalties`` entered directly
    for the players it names."""
    penalties = penalties or {}
    recorded: dict[str, dict[str, int]] = {}
    for player, hand in hands.items():
        if player in penalties:
            recorded[player] = {"penalty": penalties[player]}
            continue
        shown = {k: n for k, n in hand.items() if n}
        if partial and face_value and shown.get("pips") and rnd.random() < 0.3:
            shown.pop("numbers", None)  # the pad may give only the worth
        recorded[player] = shown
    if rnd.random() < 0.5:
        event: dict = {"type": "deal", "winner": winner}
        for player, hand in recorded.items():
            for key, n in hand.items():
                event.setdefault(key, {})[player] = n
        return [event]
    return [{"type": "out", "player": winner}] + [
        {"type": "hand", "player": p, **hand} for p, hand in recorded.items()
    ]


def simulate(rnd: random.Random, state: v.State) -> Deal:
    """A legal deal for the game ``state`` is at, with its events and minus points."""
    face = state.rules.face_value
    while True:
        played = play_deal(rnd, state.players, state.active, state.dealer)
        if played is not None:
            break
    winner, cards, turns = played
    penalties = {p: -sum(card_penalty(c, face) for c in hand) for p, hand in cards.items()}
    hands = {p: counts(hand, face) for p, hand in cards.items()}
    direct = {p: penalties[p] for p in hands if rnd.random() < 0.1}
    events = events_for(rnd, winner, hands, face, direct)
    return Deal(winner, cards, penalties, events, turns)


# --- what a table can produce, decided from the categories the pad records --------------------


def producible(winner: str, hands: dict[str, dict[str, int]], decks: int, face_value: bool) -> bool:
    """Whether some deal of the decks ends with these losers' hands (category counts; ``pips``
    with face value, ``numbers`` then possibly absent; ``penalty`` for minus points entered).

    Derived from the rules, independently of the engine: each loser holds a card, the winner
    none; the hands together hold no more of a category than the decks, at most all but two
    cards (the winner's last card lies on the pile on another) and not every ten, court and
    number card (the last card is never an ace or an eight); face-value worths split exactly
    into the decks' number cards; minus points entered are what some hand costs (checked
    alone, as the engine's "unknown" cards are)."""
    if winner in hands and any(hands[winner].values()):
        return False
    total = Counter()
    needs = []
    for player, hand in hands.items():
        if player == winner:
            continue
        if hand.get("penalty"):
            if any(hand.get(k) for k in (*v.CATEGORIES, "pips")):
                return False
            if abs(hand["penalty"]) not in v.hand_penalties(decks, face_value):
                return False
            total["unknown"] += 1
            continue
        if not any(hand.get(k) for k in (*v.CATEGORIES, "pips")):
            return False
        for k in ("eights", "aces", "courts"):
            total[k] += hand.get(k, 0)
        if face_value:
            if hand.get("numbers") and not hand.get("pips"):
                return False
            if hand.get("pips"):
                needs.append((hand.get("numbers") or None, hand["pips"]))
            elif hand.get("numbers"):
                return False
        else:
            if hand.get("pips"):
                return False
            total["numbers"] += hand.get("numbers", 0)
    if face_value:
        _budget[0] = SEARCH_BUDGET
        split = _split(tuple(needs), tuple([4 * decks] * len(v.NUMBER_RANKS)))
        if split is None:
            return False
        total["numbers"] += split
    if any(total[k] > v.PER_DECK[k] * decks for k in v.CATEGORIES):
        return False
    if sum(total.values()) > v.DECK * decks - 2:
        return False
    return (
        total["courts"] + total["numbers"] < (v.PER_DECK["courts"] + v.PER_DECK["numbers"]) * decks
    )


class Undecided(Exception):
    """The exhaustive search for the number cards' split ran out of its budget."""


SEARCH_BUDGET = 400
_budget = [SEARCH_BUDGET]


@cache
def _split(needs: tuple, supply: tuple) -> int | None:
    """The fewest number cards that give each need (count or None, worth) its own cards out of
    ``supply`` (per rank 2–7, 9); None if no way."""
    if not needs:
        return 0
    _budget[0] -= 1
    if _budget[0] < 0:
        raise Undecided
    (count, worth), rest = needs[0], needs[1:]
    best = None
    for taken in _hands(count, worth, supply):
        left = tuple(s - t for s, t in zip(supply, taken, strict=True))
        more = _split(rest, left)
        if more is not None and (best is None or sum(taken) + more < best):
            best = sum(taken) + more
            if count is not None and all(c is not None for c, _w in rest):
                break  # every count is fixed: the first way is as few as any
    return best


@cache
def _hands(count: int | None, worth: int, supply: tuple) -> list[tuple[int, ...]]:
    """Every way (per-rank counts) to take number cards worth ``worth`` (``count`` of them if
    given) from ``supply``, highest ranks first so a search meets the small hands early."""
    ranks = v.NUMBER_RANKS
    out = []
    # the most the ranks from i on can be worth
    most = [sum(r * n for r, n in zip(ranks[i:], supply[i:], strict=True)) for i in range(8)]

    def walk(i: int, left: int, cards: int, taken: list[int]) -> None:
        if left == 0 and (count is None or cards == count):
            out.append(tuple(taken) + (0,) * (len(ranks) - i))
            return
        if i == len(ranks) or left > most[i] or (count is not None and cards >= count):
            return
        rank = ranks[i]
        if count is not None:
            need = count - cards
            if not rank * need <= left <= ranks[-1] * need:
                return
        for k in range(min(supply[i], left // rank), -1, -1):
            walk(i + 1, left - k * rank, cards + k, [*taken, k])

    walk(0, worth, 0, [])
    return sorted(out, key=sum)
