"""Kille (elimination) with real cards (issue 25): the 42-card Kille deck shuffled, five cards
to each player still in, a discard of up to three refilled from the talong (while it lasts),
four tricks by the text's play rule ("if they hold an equal or higher card, they play the
lowest of those; if not, the lowest card they hold"), the calls from the fourth-trick winner and
the showing — and the events the pad records: the fourth-trick winner, the calls, the reveal.

The simulator counts the deal itself (``points``, from the text's scoring) so that the engine's
score can be compared with it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.cards import KILLE_DECK, KilleRank

TRICKS = 4
FACE = {
    KilleRank.VARDSHUS: 13,
    KilleRank.KAVALL: 14,
    KilleRank.SVIN: 15,
    KilleRank.HUSAR: 16,
    KilleRank.GOK: 17,
    KilleRank.KILLE: 50,
}


def clockwise(players: Sequence[str], start: str, among: Sequence[str]) -> list[str]:
    i = players.index(start)
    return [p for p in (*players[i:], *players[:i]) if p in among]


def value(rank: KilleRank) -> int:
    """The text's values: blaren, blompottan, kransen 0; the liljor their number; then 13 … 17
    and kille 50."""
    if rank <= KilleRank.KRANSEN:
        return 0
    return rank.number if rank.number is not None else FACE[rank]


def points(last: Mapping[str, KilleRank], declarer: str | None, penalty: int = 10) -> dict:
    lowest = min(last.values())
    holders = [p for p, r in last.items() if r == lowest]
    if declarer is None:
        if len(holders) > 1:
            return dict.fromkeys(last, 0)
        return {p: penalty + value(r) if p in holders else 0 for p, r in last.items()}
    if holders == [declarer]:
        return {p: 0 if p == declarer else value(r) for p, r in last.items()}
    scored = {p: 0 if p in holders else value(r) for p, r in last.items()}
    scored[declarer] = penalty + value(last[declarer])
    return scored


def play_card(hand: Sequence[KilleRank], highest: KilleRank | None, rnd: random.Random):
    if highest is None:
        return rnd.choice(list(hand))
    up = [c for c in hand if c >= highest]
    return min(up) if up else min(hand)


@dataclass
class Deal:
    events: list[dict] = field(default_factory=list)
    fourth_trick: str = ""
    declarer: str | None = None
    last: dict[str, KilleRank] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    tricks: list[list[tuple[str, KilleRank]]] = field(default_factory=list)


def simulate(rnd: random.Random, players: Sequence[str], dealer: str, still_in: Sequence[str]):
    deck = list(KILLE_DECK)
    rnd.shuffle(deck)
    order = clockwise(players, dealer, still_in)
    order = order[1:] + order[:1]  # from the dealer's left
    hands = {p: [deck.pop() for _ in range(5)] for p in order}
    for p in order:  # discard up to three, refilled while the talong lasts
        n = min(rnd.randint(0, 3), len(deck))
        for _ in range(n):
            hands[p].remove(rnd.choice(hands[p]))
            hands[p].append(deck.pop())
    deal = Deal()
    leader = order[0]
    for _number in range(TRICKS):
        plays, highest = [], None
        for p in clockwise(players, leader, still_in):
            card = play_card(hands[p], highest, rnd)
            hands[p].remove(card)
            plays.append((p, card))
            highest = card if highest is None else max(highest, card)
        best = max(c for _p, c in plays)
        leader = [p for p, c in plays if c == best][-1]
        deal.tricks.append(plays)
    deal.fourth_trick = leader
    deal.last = {p: hands[p][0] for p in still_in}
    deal.events.append({"type": "fourth_trick", "player": leader})
    for p in clockwise(players, leader, still_in):
        if rnd.random() < 0.35:
            deal.events.append({"type": "declare", "player": p})
            deal.declarer = p
            break
        deal.events.append({"type": "pass", "player": p})
    deal.events.append({"type": "reveal", "cards": {p: c.label for p, c in deal.last.items()}})
    deal.points = points(deal.last, deal.declarer)
    return deal


def fourth_trick_for(
    players: Sequence[str],
    still_in: Sequence[str],
    last: Mapping[str, KilleRank],
    winner: str,
    budget: int = 20000,
) -> bool | None:
    """Whether some fourth trick, led by some player still in (the third trick's winner: the
    first three tricks are not recorded and are left open), is taken by ``winner`` by the play
    rule with everyone keeping his ``last`` card — a search over the fourth-trick cards, the
    deck's two copies of each rank counted. None when the search gives up (``budget`` steps):
    undecided."""
    ranks = list(KilleRank)
    spare = [2] * len(ranks)
    for r in last.values():
        spare[r] -= 1
    if min(spare) < 0:
        return False
    steps = [0]
    failed: set = set()

    def search(order: tuple[str, ...], i: int, highest: int, top: str, left: tuple) -> bool:
        if i == len(order):
            return top == winner
        key = (order[0], i, highest, top, left)
        if key in failed:
            return False
        steps[0] += 1
        if steps[0] > budget:
            raise TimeoutError
        p, kept = order[i], last[order[i]]
        for r in ranks:
            if not left[r]:
                continue
            if highest >= 0:
                up = [x for x in (r, kept) if x >= highest]
                if up and r != min(up):
                    continue  # holds a card that reaches it: plays the lowest such
                if not up and r > kept:
                    continue  # cannot reach it: plays his lowest
            rest = tuple(n - (x == r) for x, n in enumerate(left))
            over = highest < 0 or r >= highest
            if search(order, i + 1, max(highest, r), p if over else top, rest):
                return True
        failed.add(key)
        return False

    try:
        return any(
            search(tuple(clockwise(players, leader, still_in)), 0, -1, "", tuple(spare))
            for leader in clockwise(players, winner, still_in)[1:] + [winner]
        )
    except TimeoutError:
        return None
