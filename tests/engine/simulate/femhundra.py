"""Femhundra (Five Hundred) with real cards (issue 25): the text's deck for the table (two
players 24 cards, three 33 with the joker, four 43 with the joker, five 53), ten cards to each and
the rest the kitty; a random legal auction (one chance each, or rounds until a bid is followed by
passes); the declarer takes the kitty and discards as many; at five he plays solo or calls a
non-trump card he does not hold, whose holder (if any: it may lie discarded) is his partner; ten
tricks with the joker and the bowers, following suit; at four a misère declarer's partner lays
his cards aside. It emits the pad's one event per deal (auction, partner, tricks, and the order
of the tricks half of the time) and scores the deal itself from the text.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import FULL_DECK, JACK, JOKER, Card, Suit, stripped_deck

TRICKS = 10
SUITS = {"S": Suit.SPADES, "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS}
# The Avondale schedule (NOTES FH1) and the misère values of the text.
TRUMP_ORDER = ("S", "C", "D", "H", "NT")
VALUES = {
    f"{n}{t}": 40 + 20 * i + 100 * (n - 6) for n in range(6, 11) for i, t in enumerate(TRUMP_ORDER)
}
MISERES = ("misere", "open_misere")


def deck_for(players: int) -> list[Card]:
    if players == 2:
        return list(stripped_deck(24))
    if players == 3:
        return list(stripped_deck(32, jokers=1))
    if players == 4:
        black_fours = {Card(4, Suit.CLUBS), Card(4, Suit.SPADES)}
        kept = [c for c in FULL_DECK if c.rank not in (2, 3) and c not in black_fours]
        return [*kept, Card(JOKER, None)]
    return [*FULL_DECK, Card(JOKER, None)]


def bid_ranks(misere: bool, misere_rank: str) -> list[str]:
    """Every bid, lowest first (FH3 places misère)."""
    order = list(VALUES)
    if misere:
        order.insert(order.index("7NT" if misere_rank == "seed" else "8S") + 1, "misere")
        order.append("open_misere")
    return order


def value(contract: str, players: int) -> int:
    if contract == "misere":
        return 250
    if contract == "open_misere":
        return 500 if players == 4 else 520
    return VALUES[contract]


def _same_colour(suit: Suit) -> Suit:
    return {
        Suit.SPADES: Suit.CLUBS,
        Suit.CLUBS: Suit.SPADES,
        Suit.HEARTS: Suit.DIAMONDS,
        Suit.DIAMONDS: Suit.HEARTS,
    }[suit]


class Play:
    """The ranks and suits of one contract: ``trump`` a Suit or None (no trump, misère,
    rundpass)."""

    def __init__(self, trump: Suit | None):
        self.trump = trump

    def suit(self, card: Card, named: Suit | None = None) -> Suit | None:
        if card.is_joker:
            return self.trump if self.trump is not None else named
        if self.trump is not None and card.rank == JACK and card.suit == _same_colour(self.trump):
            return self.trump  # the left bower
        return card.suit

    def power(self, card: Card, led: Suit | None, named: Suit | None) -> int:
        """How high the card stands in the trick (0: it cannot win)."""
        if card.is_joker:
            return 1000
        high = 14 if card.rank == 1 else card.rank
        suit = self.suit(card)
        if self.trump is not None and suit == self.trump:
            if card.rank == JACK:
                return 600 if card.suit == self.trump else 500
            return 400 + high
        return high if suit == led else 0


@dataclass
class Deal:
    auction: list[str] = field(default_factory=list)
    declarer: str | None = None
    contract: str | None = None
    partner: str | None = None  # five players: the called card's holder
    aside: str | None = None  # four-player misère: the declarer's partner
    tricks: dict[str, int] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    event: dict = field(default_factory=dict)


def clockwise(players: Sequence[str], start: str) -> list[str]:
    i = players.index(start)
    return [*players[i:], *players[:i]]


def auction(
    rnd: random.Random, players: Sequence[str], forhand: str, one_round: bool, ranks: list[str]
) -> tuple[list[tuple[str, str]], str | None, str | None]:
    """Random legal calls: a pass, or a bid higher than the last (at four, no misère before
    someone bid 7♠)."""
    calls: list[tuple[str, str]] = []
    high: tuple[str, str] | None = None
    passed: set[str] = set()
    turn = clockwise(players, forhand)
    i = 0
    while True:
        if one_round:
            if i == len(turn):
                break
            caller = turn[i]
        else:
            still = [p for p in players if p not in passed]
            if not still or (high is not None and still == [high[0]]):
                break
            start = forhand if not calls else turn[(turn.index(calls[-1][0]) + 1) % len(turn)]
            caller = next(p for p in clockwise(players, start) if p not in passed)
        i += 1
        above = ranks[ranks.index(high[1]) + 1 :] if high else ranks
        if len(players) == 4 and (high is None or ranks.index(high[1]) < ranks.index("7S")):
            above = [b for b in above if b not in MISERES]
        if not above or rnd.random() < 0.55:
            calls.append((caller, "pass"))
            passed.add(caller)
            continue
        misere = [b for b in above if b in MISERES]
        bid = misere[0] if misere and rnd.random() < 0.2 else rnd.choice(above[:4])
        calls.append((caller, bid))
        high = (caller, bid)
    return calls, (high[0] if high else None), (high[1] if high else None)


def simulate(
    rnd: random.Random,
    players: Sequence[str],
    dealer: str,
    *,
    misere: bool,
    misere_rank: str,
    one_round: bool,
) -> Deal:
    n = len(players)
    deck = deck_for(n)
    rnd.shuffle(deck)
    hands = {p: [deck.pop() for _ in range(TRICKS)] for p in players}
    kitty = deck  # 3 cards (4 with two players)
    forhand = clockwise(players, dealer)[1]
    deal = Deal()
    calls, deal.declarer, deal.contract = auction(
        rnd, players, forhand, one_round, bid_ranks(misere, misere_rank)
    )
    deal.auction = [call for _p, call in calls]
    trump = None
    if deal.contract and deal.contract not in MISERES and not deal.contract.endswith("NT"):
        trump = SUITS[deal.contract[-1]]
    table = Play(trump)
    playing = list(players)
    leader = forhand
    if deal.declarer is not None:
        hand = hands[deal.declarer] + kitty  # "tar upp talongens … kasta tre valfria kort"
        rnd.shuffle(hand)
        hands[deal.declarer] = hand[:TRICKS]
        leader = deal.declarer
        if n == 4 and deal.contract in MISERES:
            deal.aside = players[(players.index(deal.declarer) + 2) % 4]
            playing.remove(deal.aside)
        if n == 5 and deal.contract not in MISERES and rnd.random() < 0.6:
            own = set(hands[deal.declarer])
            callable_ = [
                c for c in deck_for(5) if not c.is_joker and table.suit(c) != trump and c not in own
            ]
            called = rnd.choice(callable_)
            holders = [p for p in players if called in hands[p]]
            deal.partner = holders[0] if holders else None
    deal.tricks = dict.fromkeys(players, 0)
    void: dict[str, set] = {p: set() for p in players}
    for _number in range(TRICKS):
        order = [p for p in clockwise(players, leader) if p in playing]
        led: Suit | None = None
        named: Suit | None = None
        best, winner = -1, leader
        for p in order:
            hand = hands[p]
            if led is None:
                card = rnd.choice(hand)
                if card.is_joker and trump is None:
                    named = rnd.choice([s for s in Suit if s not in void[p]] or list(Suit))
                led = table.suit(card, named)
            else:
                follow = [c for c in hand if not c.is_joker and table.suit(c) == led]
                if trump is not None and any(c.is_joker for c in hand) and led == trump:
                    follow += [c for c in hand if c.is_joker]
                if follow:
                    card = rnd.choice(follow)
                else:
                    void[p].add(led)
                    jokers = [c for c in hand if c.is_joker]
                    # Misère: the joker must go when you cannot follow.
                    card = jokers[0] if jokers and deal.contract in MISERES else rnd.choice(hand)
            hand.remove(card)
            power = table.power(card, led, named)
            if power > best:
                best, winner = power, p
        deal.tricks[winner] += 1
        deal.order.append(winner)
        leader = winner
    deal.event = {"type": "deal", "auction": list(deal.auction), "tricks": dict(deal.tricks)}
    if deal.partner is not None:
        deal.event["partner"] = deal.partner
    if rnd.random() < 0.5:
        deal.event["trick_order"] = list(deal.order)
    return deal


def points(
    players: Sequence[str],
    tricks: dict[str, int],
    declarer: str | None,
    contract: str | None,
    partner: str | None,
    one_round: bool,
) -> dict[str, int]:
    """The text's scoring of one deal (before the four-player 490 rule)."""
    n = len(players)
    side = {p: ([p, players[(i + 2) % 4]] if n == 4 else [p]) for i, p in enumerate(players)}
    taken = {p: sum(tricks[q] for q in side[p]) for p in players}
    if declarer is None:
        return {p: 10 * taken[p] for p in players}
    assert contract is not None
    declaring = set(side[declarer]) | ({partner} if partner else set())
    worth = value(contract, n)
    if contract in MISERES:
        made = tricks[declarer] == 0
    else:
        ours = sum(tricks[q] for q in declaring)
        made = ours >= int(contract.rstrip("SCDHNT"))
        if made and ours == TRICKS and worth < 250 and one_round:
            worth = 250
    result = {}
    for p in players:
        if p in declaring:
            result[p] = worth if made else -worth
        elif contract in MISERES and not made:
            result[p] = 10 * tricks[declarer]
        else:
            result[p] = 10 * taken[p]
    return result
