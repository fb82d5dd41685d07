"""Kungsholmskille with real cards (issue 25): the 42-card Kille deck (21 ranks, two of each)
shuffled, five cards dealt to each player one by one, the calls, the fold round, the exchange from
the talong, four tricks played by the play rule and the showing — and the events the pad
records for them.

``simulate(rnd, state)`` plays the next deal of an evening (the engine's ``state`` says who deals,
who is förhand and whether the opening stake is due) and returns a ``Deal``: the events, the
hands, and what the simulator itself counts — who took each trick, the showing's winner by the
lowest card. The tricks are recorded in one of three ways, as the pad allows: card by card, only
the fourth-trick winner tapped, or the first three card by card and then the tap.

The oracle for mutated deals (``producible``, ``fourth_trick_possible``) is written from the
rules text, apart from the engine: a deal whose every card is recorded is producible when no
rank shows more than twice and the play rule holds for every card played, the hand at each trick
being the cards played from then on and the last card; with the fourth trick tapped after three
recorded tricks, the fourth-trick cards are searched exhaustively.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache

from engine import kille as k
from engine.cards import KILLE_DECK, KilleRank

COPIES = 2
TRICKS = 4


def clockwise(players: Sequence[str], start: str, among: Sequence[str]) -> list[str]:
    i = players.index(start)
    ring = list(players[i:]) + list(players[:i])
    return [p for p in ring if p in among]


def left_of(players: Sequence[str], player: str) -> str:
    return players[(players.index(player) + 1) % len(players)]


def trick_winner(plays: Sequence[tuple[str, KilleRank]]) -> str:
    best = max(rank for _p, rank in plays)
    return [p for p, rank in plays if rank == best][-1]


def legal_play(hand: Sequence[KilleRank], highest: KilleRank | None, rnd: random.Random):
    """The play rule: overtake or equal with any such card if you can, else your lowest."""
    if highest is None:
        return rnd.choice(list(hand))
    up = [c for c in hand if c >= highest]
    return rnd.choice(up) if up else min(hand)


@dataclass
class Deal:
    events: list[dict] = field(default_factory=list)
    outcome: str = ""  # budrunda | walkover | showing
    active: tuple[str, ...] = ()
    tricks: list[list[tuple[str, KilleRank]]] = field(default_factory=list)
    recorded_tricks: int = 0  # how many tricks went in card by card
    tapped: bool = False  # the fourth-trick winner was tapped
    fourth_trick: str | None = None
    last: dict[str, KilleRank] = field(default_factory=dict)
    first_shower: str | None = None
    winner: str | None = None
    before_tricks: int = 0  # index in ``events`` of the first trick event (or the tap)
    forhand: str = ""  # who led the first trick (förhand, or the nearest still in, K9)


def _calls(rnd: random.Random, order: Sequence[str], knock: float) -> tuple[list[dict], str | None]:
    """Bud or knock, clockwise; the round ends at the first knock."""
    events = []
    for player in order:
        kind = "knock" if rnd.random() < knock else "bud"
        events.append({"type": kind, "player": player})
        if kind == "knock":
            return events, player
    return events, None


def showing_winner(
    last: Mapping[str, KilleRank], first: str, fourth: str, seats: Sequence[str]
) -> str:
    """The text's showing: the first shower wins with the lowest card alone; else the other with
    an equal or lower card; of two such, the one seated last clockwise from the fourth-trick
    winner."""
    lowest = min(last.values())
    others = [p for p, r in last.items() if r == lowest and p != first]
    if not others:
        return first
    order = clockwise(seats, fourth, list(last))
    return max(others, key=order.index)


def simulate(rnd: random.Random, state: k.State) -> Deal:
    players, dealer = state.players, state.dealer
    deal = Deal()
    if state.phase == "ante":
        deal.events.append({"type": "ante"})
    deck = list(KILLE_DECK)
    rnd.shuffle(deck)
    forhand = left_of(players, dealer)
    hands: dict[str, list[KilleRank]] = {p: [] for p in players}
    for _round in range(5):  # "fem kort var … ett och ett", from förhand
        for p in clockwise(players, forhand, players):
            hands[p].append(deck.pop())
    calls, knocker = _calls(rnd, clockwise(players, forhand, players), 0.35)
    deal.events += calls
    if knocker is None:
        deal.outcome = "budrunda"
        return deal
    active = list(players)
    for p in clockwise(players, left_of(players, knocker), [q for q in players if q != knocker]):
        if rnd.random() < 0.3:
            deal.events.append({"type": "fold", "player": p})
            active.remove(p)
            if forhand == p:
                forhand = clockwise(players, p, active)[0]
            if len(active) == 1:
                deal.outcome, deal.winner = "walkover", active[0]
                return deal
        else:
            deal.events.append({"type": "stay", "player": p})
    # The exchange: up to two cards each from the talong, förhand first.
    counts = {}
    for p in clockwise(players, forhand, active):
        n = rnd.randint(0, 2)
        counts[p] = n
        for _ in range(n):
            hands[p].remove(rnd.choice(hands[p]))
            hands[p].append(deck.pop())
    if rnd.random() < 0.7:
        deal.events.append({"type": "exchange", "counts": counts})
    calls, knocker2 = _calls(rnd, clockwise(players, forhand, active), 0.5)
    deal.events += calls
    deal.active = tuple(p for p in players if p in active)
    if knocker2 is None:
        deal.outcome = "budrunda"
        return deal
    # The tricks, by the play rule; förhand leads.
    leader = deal.forhand = forhand
    for _number in range(TRICKS):
        plays: list[tuple[str, KilleRank]] = []
        highest = None
        for p in clockwise(players, leader, active):
            card = legal_play(hands[p], highest, rnd)
            hands[p].remove(card)
            plays.append((p, card))
            highest = card if highest is None else max(highest, card)
        deal.tricks.append(plays)
        leader = trick_winner(plays)
    deal.fourth_trick = leader
    deal.last = {p: hands[p][0] for p in deal.active}
    how = rnd.random()
    deal.recorded_tricks = TRICKS if how < 0.4 else (TRICKS - 1 if how < 0.7 else 0)
    deal.tapped = deal.recorded_tricks < TRICKS
    deal.before_tricks = len(deal.events)
    for plays in deal.tricks[: deal.recorded_tricks]:
        deal.events.append({"type": "trick", "cards": {p: c.label for p, c in plays}})
    if deal.tapped:
        deal.events.append({"type": "fourth_trick", "player": deal.fourth_trick})
    deal.events += showing_events(rnd, players, deal)
    return deal


def showing_events(rnd: random.Random, players: Sequence[str], deal: Deal) -> list[dict]:
    """The showing round from the fourth-trick winner: bud or lägg upp; then the reveal."""
    assert deal.fourth_trick is not None
    events = []
    for p in clockwise(players, deal.fourth_trick, deal.active):
        if rnd.random() < 0.6:
            events.append({"type": "show", "player": p})
            deal.first_shower = p
            break
        events.append({"type": "bud", "player": p})
    if deal.first_shower is None:
        deal.outcome = "budrunda"
        return events
    deal.outcome = "showing"
    deal.winner = showing_winner(deal.last, deal.first_shower, deal.fourth_trick, players)
    events.append({"type": "reveal", "cards": {p: c.label for p, c in deal.last.items()}})
    return events


# --- the oracle ----------------------------------------------------------------------------------


def in_play_order(
    tricks: Sequence[Sequence[tuple[str, KilleRank]]], players: Sequence[str], forhand: str
) -> list[list[tuple[str, KilleRank]]]:
    """The tricks' cards in the order they were played: förhand leads, each winner next."""
    ordered, leader = [], forhand
    for trick in tricks:
        cards = dict(trick)
        plays = [(p, cards[p]) for p in clockwise(players, leader, list(cards))]
        ordered.append(plays)
        leader = trick_winner(plays)
    return ordered


def copies_ok(cards: Sequence[KilleRank]) -> bool:
    return all(n <= COPIES for n in Counter(cards).values())


def rule_ok(
    tricks: Sequence[Sequence[tuple[str, KilleRank]]], later: Mapping[str, Sequence[KilleRank]]
) -> bool:
    """The play rule for every card of ``tricks`` (each in play order); ``later[p]`` are the
    cards p held after the last of them (the fourth-trick card, the last card)."""
    for j, plays in enumerate(tricks):
        highest = None
        for p, card in plays:
            if highest is not None:
                hand = [c for t in tricks[j:] for q, c in t if q == p] + list(later.get(p, ()))
                if any(c >= highest for c in hand):
                    if card < highest:
                        return False
                elif card != min(hand):
                    return False
            highest = card if highest is None else max(highest, card)
    return True


def producible(
    tricks: Sequence[Sequence[tuple[str, KilleRank]]], last: Mapping[str, KilleRank]
) -> bool:
    """A deal with all four tricks and the last cards recorded."""
    cards = [c for t in tricks for _p, c in t] + list(last.values())
    return copies_ok(cards) and rule_ok(tricks, {p: [c] for p, c in last.items()})


def fourth_trick_possible(
    three: Sequence[Sequence[tuple[str, KilleRank]]],
    last: Mapping[str, KilleRank],
    winner: str,
) -> bool:
    """Three tricks recorded, the last cards shown: can ``winner`` have taken the fourth? An
    exhaustive search over the fourth-trick cards (copies counted exactly)."""
    known = Counter(c for t in three for _p, c in t) + Counter(last.values())
    if any(n > COPIES for n in known.values()):
        return False
    leader = trick_winner(three[-1])
    order = [p for p, _c in three[-1]]
    order = order[order.index(leader) :] + order[: order.index(leader)]
    # Each player's possible fourth-trick cards, by the play rule of the first three tricks.
    options = {
        p: [
            r
            for r in KilleRank
            if known[r] < COPIES
            and rule_ok(three, {p: [r, last[p]]} | {q: [last[q]] for q in order if q != p})
        ]
        for p in order
    }
    ranks = list(KilleRank)

    @cache
    def search(i: int, highest: int, top: str, spare: tuple[int, ...]) -> bool:
        if i == len(order):
            return top == winner
        p = order[i]
        for r in options[p]:
            if spare[r] == 0:
                continue
            hand = (r, last[p])
            if highest >= 0 and max(hand) >= highest and r < highest:
                continue  # could overtake, must
            if highest >= 0 and max(hand) < highest and r != min(hand):
                continue  # cannot overtake: plays the lowest
            rest = list(spare)
            rest[r] -= 1
            up = highest < 0 or r >= highest
            if search(i + 1, max(highest, r), p if up else top, tuple(rest)):
                return True
        return False

    return search(0, -1, "", tuple(COPIES - known[r] for r in ranks))
