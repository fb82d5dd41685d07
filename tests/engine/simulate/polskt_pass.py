"""Polskt pass with real cards (issue 25): the 24-card deck (nine to ace; 28 with the eights at
five) shuffled; the cutter (the dealer's right) shows the bottom card of the cut and takes it if
it is a jack; three cards and then two to each from the dealer's left; the next card turned up
and taken as the text says (a jack or after the cutter's jack by force, an ace by choice); the
bidding (the turned suit, then wieder with a suit of one's own); a sixth card laid away; five
tricks with the four jacks as standing trumps (♣J ♠J ♥J ♦J, then A K Q 10 9 8 of the trump
suit), following suit; la vola by the taker of the first two tricks, play stopping at the first
trick he loses. It emits the pad's events — the deal, the bids or passes, and the tricks in one
of the pad's three ways (one by one until the winner is certain, the list of winners, or the
counts with who reached two first) — and counts the winner itself.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import ACE, JACK, KING, QUEEN, Card, Suit

TRICKS = 5
SUIT_KEYS = {Suit.CLUBS: "C", Suit.SPADES: "S", Suit.HEARTS: "H", Suit.DIAMONDS: "D"}
JACK_ORDER = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)  # highest first
ORDER = {ACE: 6, KING: 5, QUEEN: 4, 10: 3, 9: 2, 8: 1}
RANK_TEXT = {ACE: "A", KING: "K", QUEEN: "Q", JACK: "J", 10: "10", 9: "9", 8: "8"}


def deck_for(players: int) -> list[Card]:
    ranks = (8, 9, 10, JACK, QUEEN, KING, ACE) if players == 5 else (9, 10, JACK, QUEEN, KING, ACE)
    return [Card(r, s) for s in Suit for r in ranks]


def left_of(players: Sequence[str], p: str) -> str:
    return players[(players.index(p) + 1) % len(players)]


def clockwise(players: Sequence[str], start: str) -> list[str]:
    i = players.index(start)
    return [*players[i:], *players[:i]]


def suit_of(card: Card, trump: Suit) -> Suit:
    return trump if card.rank == JACK else card.suit  # the jacks are trumps


def power(card: Card, trump: Suit, led: Suit) -> int:
    if card.rank == JACK:
        return 100 - JACK_ORDER.index(card.suit)
    if card.suit == trump:
        return 50 + ORDER[card.rank]
    return ORDER[card.rank] if card.suit == led else 0


def decided(taken: Sequence[str], players: Sequence[str]) -> bool:
    """The text: three tricks, or first to two when nobody else can reach three."""
    counts = {p: taken.count(p) for p in players}
    if len(taken) == TRICKS or max(counts.values()) >= 3:
        return True
    first = first_to_two(taken)
    left = TRICKS - len(taken)
    return first is not None and all(counts[p] + left < 3 for p in players if p != first)


def first_to_two(taken: Sequence[str]) -> str | None:
    for i, p in enumerate(taken):
        if taken[: i + 1].count(p) == 2:
            return p
    return None


def winner_of(taken: Sequence[str], players: Sequence[str]) -> str | None:
    three = [p for p in players if taken.count(p) >= 3]
    return three[0] if three else first_to_two(taken)


@dataclass
class Deal:
    events: list[dict] = field(default_factory=list)
    spelforare: tuple[str, ...] = ()
    trump: str = ""
    taken: list[str] = field(default_factory=list)  # trick winners, in order, as played
    la_vola: str | None = None
    outcome: str = ""  # passed | won | no_winner | la_vola_won | la_vola_lost
    winner: str | None = None
    mode: str = ""  # one_by_one | winners | counts
    turned: Card | None = None
    cutter_jack: bool = False


def simulate(rnd: random.Random, players: Sequence[str], dealer: str) -> Deal:
    deal = Deal()
    deck = deck_for(len(players))
    rnd.shuffle(deck)
    cutter = players[(players.index(dealer) - 1) % len(players)]
    forhand = left_of(players, dealer)
    hands: dict[str, list[Card]] = {p: [] for p in players}
    # The cut: the bottom card of the lifted part is seen; a jack goes to the cutter.
    cut = rnd.randrange(1, len(deck))
    bottom = deck[cut - 1]
    if bottom.rank == JACK:
        deal.cutter_jack = True
        deck.remove(bottom)
        hands[cutter].append(bottom)
    order = clockwise(players, forhand)
    for count in (3, 2):
        for p in order:
            hands[p] += [deck.pop() for _ in range(count)]
    turned = deck.pop()
    deal.turned = turned
    takes: bool | None = None
    if deal.cutter_jack or turned.rank == JACK:
        took = True
    elif turned.rank == ACE:
        took = takes = rnd.random() < 0.5
    else:
        took = False
    rank = RANK_TEXT[turned.rank]
    if turned.rank not in (JACK, ACE) and rnd.random() < 0.5:
        rank = "other"
    event = {"type": "deal", "suit": SUIT_KEYS[turned.suit], "rank": rank}
    event["cutter_jack"] = deal.cutter_jack
    if takes is not None:
        event["dealer_takes"] = takes
    deal.events.append(event)
    trump = turned.suit
    if took:
        hands[dealer].append(turned)
        deal.spelforare = (dealer, cutter) if deal.cutter_jack else (dealer,)
    else:
        bidder = None
        for p in order:  # the first round: the turned suit
            if rnd.random() < 0.3:
                bidder = p
                break
        if bidder is None:
            deal.events.append({"type": "all_pass"})
            for p in order:  # wieder: a suit of one's own
                if rnd.random() < 0.4:
                    bidder = p
                    allowed = list(Suit) if p == forhand else [s for s in Suit if s != trump]
                    trump = rnd.choice(allowed)
                    break
            if bidder is None:
                deal.events.append({"type": "all_pass"})
                deal.outcome = "passed"
                return deal
            deal.events.append({"type": "bid", "player": bidder, "suit": SUIT_KEYS[trump]})
        else:
            deal.events.append({"type": "bid", "player": bidder})
        deal.spelforare = (bidder,)
    deal.trump = SUIT_KEYS[trump]
    for p in players:  # a sixth card is laid away before the first lead
        if len(hands[p]) == 6:
            hands[p].remove(rnd.choice(hands[p]))
    leader = forhand  # "Förhand spelar ut till det första sticket."
    for number in range(TRICKS):
        led: Suit | None = None
        best, winner = -1, leader
        for p in clockwise(players, leader):
            hand = hands[p]
            if led is None:
                card = rnd.choice(hand)
                led = suit_of(card, trump)
            else:
                follow = [c for c in hand if suit_of(c, trump) == led]
                card = rnd.choice(follow or hand)
            hand.remove(card)
            if power(card, trump, led) > best:
                best, winner = power(card, trump, led), p
        deal.taken.append(winner)
        leader = winner
        if number == 1 and deal.taken[0] == deal.taken[1] and rnd.random() < 0.3:
            deal.la_vola = winner
        if deal.la_vola and winner != deal.la_vola:
            break  # "Om spelaren som anger la vola förlorar ett stick, avbryts spelet."
    if deal.la_vola:
        won = len(deal.taken) == TRICKS and set(deal.taken) == {deal.la_vola}
        deal.outcome = "la_vola_won" if won else "la_vola_lost"
        deal.winner = deal.la_vola if won else None
    else:
        deal.winner = winner_of(deal.taken, players)
        deal.outcome = "won" if deal.winner else "no_winner"
    deal.events += trick_events(rnd, players, deal)
    return deal


def trick_events(rnd: random.Random, players: Sequence[str], deal: Deal) -> list[dict]:
    """The tricks in one of the pad's three ways."""
    taken = deal.taken
    deal.mode = rnd.choice(("one_by_one", "winners", "counts"))
    if deal.mode == "one_by_one":
        events = []
        for i, p in enumerate(taken):
            events.append({"type": "trick", "winner": p})
            if i == 1 and deal.la_vola:
                events.append({"type": "la_vola", "player": deal.la_vola})
            if not deal.la_vola and decided(taken[: i + 1], players):
                break
        return events
    if deal.mode == "winners":
        event = {"type": "tricks", "winners": list(taken)}
    else:
        counts = {p: taken.count(p) for p in players if p in taken}
        event = {"type": "tricks", "counts": counts}
        twos = [p for p, n in counts.items() if n == 2]
        if len(twos) == 2 or (twos and rnd.random() < 0.3):
            event["first_two"] = first_to_two(taken)
    if deal.la_vola:
        event["la_vola"] = deal.la_vola
    return [event]
