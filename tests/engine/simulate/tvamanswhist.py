"""Tvåmanswhist played with real cards (populara_kortspel.sv.txt, "Tvåmanswhist regler").

The dealer gives 13 cards each; the other 26 are the stock, its top card turned up for trumps.
Förhand (the dealer's opponent) leads the first trick; the winner of a trick leads the next.
While the stock lasts the trick winner takes the turned-up card and the loser the next one
unseen, and the new top card is turned up; after 13 tricks the stock is gone and the last 13 are
played with the cards in hand. The follower must follow suit if he can (otherwise any card, a
trump or not); the highest trump wins, else the highest card of the suit led (aces high).

The text's variant is played too: the first card of the stock is turned up and put at the bottom
(it shows trumps all along and is the last card drawn), the first 13 tricks are played without
trumps and without having to follow suit, the last 13 as usual.

``play_deal`` plays one deal with random legal choices (each player with a random style for
each half: playing to win, to duck, or at random) and counts each player's tricks of each half
and who took the last trick; ``event`` is what the pad sends for a club's counting.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.cards import ACE, FULL_DECK, Card, Suit

HALF = 13


def high(card: Card) -> int:
    return 14 if card.rank == ACE else card.rank


@dataclass
class Deal:
    players: tuple[str, str]
    dealer: str
    trumps: Suit
    loose: bool
    early: dict[str, int] = field(default_factory=dict)
    late: dict[str, int] = field(default_factory=dict)
    last: str = ""
    played: list[Card] = field(default_factory=list)

    @property
    def first(self) -> str:
        return self.players[0]

    def counted(self, counting: str) -> dict[str, int]:
        if counting == "13":
            return dict(self.late)
        if counting == "26":
            return {p: self.early[p] + self.late[p] for p in self.players}
        return {p: self.early[p] + 2 * self.late[p] for p in self.players}

    def winner(self, counting: str) -> str:
        counted = self.counted(counting)
        a, b = self.players
        if counted[a] == counted[b]:
            return self.last  # TW2: 13–13 in the 26 count
        return a if counted[a] > counted[b] else b

    def event(self, counting: str) -> dict:
        """What the pad sends: the first player's tricks (the 13 or 26 count; at 13–13 in the 26
        count also who took the last trick), or his early and late tricks (the points count)."""
        if counting == "points":
            return {
                "type": "deal",
                "early": {self.first: self.early[self.first]},
                "late": {self.first: self.late[self.first]},
            }
        counted = self.counted(counting)
        event = {"type": "deal", "tricks": {self.first: counted[self.first]}}
        if counting == "26" and counted[self.first] == HALF:
            event["last"] = self.last
        return event


def _choose(r: random.Random, style: str, cards: list[Card], beat) -> Card:
    if style == "random" or r.random() < 0.2:
        return r.choice(cards)
    ranked = sorted(cards, key=lambda c: (beat(c), high(c)))
    return ranked[-1] if style == "win" else ranked[0]


def play_deal(r: random.Random, players: tuple[str, str], dealer: str, loose: bool = False) -> Deal:
    deck = list(FULL_DECK)
    r.shuffle(deck)
    other = players[1 - players.index(dealer)]
    hands = {other: deck[:HALF], dealer: deck[HALF : 2 * HALF]}
    stock = deck[2 * HALF :]
    trumps = stock[0].suit
    assert trumps is not None
    if loose:
        stock = [*stock[1:], stock[0]]  # shown at the bottom, drawn last
    deal = Deal(players, dealer, trumps, loose)
    deal.early = dict.fromkeys(players, 0)
    deal.late = dict.fromkeys(players, 0)
    styles = ("win", "duck", "random")
    style_of = {(p, half): r.choice(styles) for p in players for half in (0, 1)}
    leader = other
    for trick in range(2 * HALF):
        early = trick < HALF
        trump_on = not (loose and early)
        follower = players[1 - players.index(leader)]
        style = {p: style_of[p, int(not early)] for p in players}

        def wins(card: Card, lead: Card | None = None, trump_on: bool = trump_on) -> bool:
            if lead is None:
                return trump_on and card.suit == trumps
            if card.suit == lead.suit:
                return high(card) > high(lead)
            return trump_on and card.suit == trumps

        lead = _choose(r, style[leader], hands[leader], wins)
        follows = [c for c in hands[follower] if c.suit == lead.suit]
        if not follows or (loose and early):
            follows = hands[follower]
        follow = _choose(r, style[follower], follows, lambda c, lead=lead: wins(c, lead))
        winner = follower if wins(follow, lead) else leader
        hands[leader].remove(lead)
        hands[follower].remove(follow)
        deal.played += [lead, follow]
        if early:
            deal.early[winner] += 1
            loser = players[1 - players.index(winner)]
            hands[winner].append(stock.pop(0))  # the turned-up card
            hands[loser].append(stock.pop(0))  # the next, unseen
        else:
            deal.late[winner] += 1
        deal.last = winner
        leader = winner
    assert not stock
    assert not any(hands.values())
    assert sorted(deal.played) == sorted(FULL_DECK)  # every card played once
    return deal


def possible(record: dict, counting: str, players: tuple[str, str]) -> bool:
    """Whether a deal can yield ``record`` (the test's judge): each half's 13 tricks shared
    between the two (either player may take any number of either half, see the engine's
    docstring), the 13–13 of the 26 count with its last trick named, and the last trick taken by
    a player who took one of the last 13 (in the 26 count: one of the 26)."""
    a, b = players
    total = {"13": HALF, "26": 2 * HALF}.get(counting, HALF)

    def split(given: dict | None, total: int) -> dict[str, int] | None:
        if not given or any(p not in players for p in given):
            return None
        if any(not 0 <= n <= total for n in given.values()):
            return None
        full = dict(given)
        if len(full) == 1:
            ((p, n),) = full.items()
            full[b if p == a else a] = total - n
        return full if sum(full.values()) == total else None

    last = record.get("last")
    if counting == "points":
        early, late = split(record.get("early"), HALF), split(record.get("late"), HALF)
        if early is None or late is None:
            return False
        holds_last = late
    else:
        counted = split(record.get("tricks"), total)
        if counted is None:
            return False
        if counting == "26" and counted[a] == counted[b] and last is None:
            return False
        holds_last = counted
    return last is None or holds_last[last] >= 1
