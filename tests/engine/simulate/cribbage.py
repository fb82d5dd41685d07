"""Cribbage deals with real cards (issue 25): the deal, the crib, the starter, the play and the
shows, recorded as the pad records them, and counted here without the engine.

``simulate_deal`` shuffles the 52 cards, deals six each to two players (five each at three,
and one card from the pack to the crib), lays two (one) away at random, cuts the starter, plays
the cards with random legal choices ("man måste spela om man kan": a go only when no card in
hand fits under 31) and shows the hands in the rules' order, then the crib. The pegging is
recorded the way the pad offers, chosen per deal: card by card (``play``/``go``) or the quick
way (``peg`` with the points as said, some of them remembered late during the shows); each show
and the crib as the four cards or as the points. Every event carries what the simulator counted
for it (``gains``), so a test can follow the board event by event.

``producible`` decides, with the simulator's knowledge of the real deal as a first witness and
a plain search of the deck after it, whether a mutated record is still something one shuffled
deck could have produced.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field

from engine.base import clockwise, left_of
from engine.cards import FULL_DECK, JACK, Card, parse_card
from engine.cribbage import card_number, hand_points, possible_totals


def value(rank: int) -> int:
    return min(rank, 10)


# --- counting, without the engine --------------------------------------------------------------


def show_points(hand: list[Card], starter: Card, crib: bool = False) -> int:
    """Fifteens, pairs, runs (longest, every combination), flush (the crib only five) and his
    nobs, counted from the rules text by looking at every subset of the five cards."""
    cards = [*hand, starter]
    points = 0
    for size in range(2, 6):
        for combo in itertools.combinations(cards, size):
            if sum(value(c.rank) for c in combo) == 15:
                points += 2
    points += 2 * sum(1 for a, b in itertools.combinations(cards, 2) if a.rank == b.rank)
    for size in (5, 4, 3):
        runs = 0
        for combo in itertools.combinations(cards, size):
            ranks = sorted(c.rank for c in combo)
            if all(b == a + 1 for a, b in itertools.pairwise(ranks)):
                runs += 1
        if runs:
            points += runs * size
            break
    if len({c.suit for c in hand}) == 1:
        if hand[0].suit == starter.suit:
            points += 5
        elif not crib:
            points += 4
    points += sum(1 for c in hand if c.rank == JACK and c.suit == starter.suit)
    return points


def lay_points(pile: list[int], rank: int) -> int:
    """What laying ``rank`` on the ranks of the count scores: 15 and 31, pairs, runs."""
    ranks = [*pile, rank]
    count = sum(value(r) for r in ranks)
    points = 2 if count in (15, 31) else 0
    same = 0
    for r in reversed(ranks):
        if r != rank:
            break
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for size in range(len(ranks), 2, -1):
        tail = sorted(ranks[-size:])
        if all(b == a + 1 for a, b in itertools.pairwise(tail)):
            points += size
            break
    return points


# --- a deal ------------------------------------------------------------------------------------


@dataclass
class Deal:
    players: tuple[str, ...]
    dealer: str
    hands: dict[str, list[Card]]  # the four cards each kept for the play
    crib: list[Card]
    starter: Card
    by_cards: bool
    events: list[dict] = field(default_factory=list)
    gains: list[dict[str, int]] = field(default_factory=list)  # per event, who scored what
    played: dict[str, list[int]] = field(default_factory=dict)  # ranks, in the order laid
    gone: list[tuple[str, int]] = field(default_factory=list)  # (player, count) of each go
    pegging: dict[str, int] = field(default_factory=dict)
    shows: dict[str, int] = field(default_factory=dict)
    crib_points: int = 0

    def add(self, event: dict, gains: dict[str, int] | None = None) -> None:
        self.events.append(event)
        self.gains.append(gains or {})


def simulate_deal(
    rng: random.Random,
    players: tuple[str, ...],
    dealer: str,
    by_cards: bool | None = None,
    cards_shown: float = 0.5,
) -> Deal:
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    three = len(players) == 3
    dealt = 5 if three else 6
    order = clockwise(players, left_of(players, dealer), players)
    hands = {p: [deck.pop() for _ in range(dealt)] for p in order}
    crib: list[Card] = []
    for p in order:
        rng.shuffle(hands[p])
        crib += hands[p][4:]
        hands[p] = hands[p][:4]
    if three:
        crib.append(deck.pop())
    starter = deck.pop()
    if by_cards is None:
        by_cards = rng.random() < 0.6
    deal = Deal(players, dealer, hands, crib, starter, by_cards)
    deal.pegging = dict.fromkeys(players, 0)
    deal.add({"type": "starter", "card": str(starter)}, {dealer: 2} if starter.rank == JACK else {})
    _play(rng, deal, order)
    late: list[dict] = []
    if not by_cards:
        # The quick way: the points as said, one peg per scoring card (and go); now and then one
        # is forgotten and pegged while the hands are counted.
        pegs = deal.gains[1:]
        del deal.events[1:], deal.gains[1:]
        for gains in pegs:
            for p, n in gains.items():
                peg = {"type": "peg", "player": p, "points": n}
                if rng.random() < 0.1:
                    late.append(peg)
                else:
                    deal.add(peg, {p: n})
    for p in order:
        deal.shows[p] = show_points(hands[p], starter)
        _show(rng, deal, {"type": "show", "player": p}, hands[p], deal.shows[p], cards_shown)
        if late and rng.random() < 0.5:
            peg = late.pop()
            deal.add(peg, {peg["player"]: peg["points"]})
    for peg in late:
        deal.add(peg, {peg["player"]: peg["points"]})
    deal.crib_points = show_points(crib, starter, crib=True)
    _show(rng, deal, {"type": "crib"}, crib, deal.crib_points, cards_shown, owner=dealer)
    return deal


def _show(rng, deal, event, cards, points, cards_shown, owner=None) -> None:
    if rng.random() < cards_shown:
        event["cards"] = [str(c) for c in cards]
    else:
        event["points"] = points
    deal.add(event, {owner or event["player"]: points})


def _play(rng: random.Random, deal: Deal, order: list[str]) -> None:
    """The play by cards, every player made to play when a card fits."""
    players = deal.players
    left = {p: list(deal.hands[p]) for p in players}
    deal.played = {p: [] for p in players}
    pile: list[int] = []
    said_go: set[str] = set()
    last: str | None = None
    to_play = order[0]

    def after(player: str, among) -> str | None:
        found = clockwise(players, left_of(players, player), among)
        return found[0] if found else None

    while any(left.values()):
        count = sum(value(r) for r in pile)
        fits = [c for c in left[to_play] if count + value(c.rank) <= 31]
        if not fits:
            deal.gone.append((to_play, count))
            deal.add({"type": "go", "player": to_play})
            said_go.add(to_play)
        else:
            card = rng.choice(fits)
            left[to_play].remove(card)
            deal.played[to_play].append(card.rank)
            points = lay_points(pile, card.rank)
            pile.append(card.rank)
            last = to_play
            count += value(card.rank)
            if count < 31 and not any(left.values()):
                points += 1  # the last card
            deal.pegging[to_play] += points
            deal.add({"type": "play", "player": to_play, "card": card.rank}, _gain(to_play, points))
            if not any(left.values()):
                return
            if count == 31:
                pile, said_go = [], set()
                to_play = after(to_play, [p for p in players if left[p]])
                continue
        able = [p for p in players if left[p] and p not in said_go]
        if able:
            to_play = after(to_play, able)
            continue
        # Nobody can play: the latest to lay a card takes 1 for go, and the next leads.
        assert last is not None
        deal.pegging[last] += 1
        deal.gains[-1] = {**deal.gains[-1], last: deal.gains[-1].get(last, 0) + 1}
        pile, said_go = [], set()
        to_play = after(last, [p for p in players if left[p]])


def _gain(player: str, points: int) -> dict[str, int]:
    return {player: points} if points else {}


# --- is a (mutated) record producible? ---------------------------------------------------------


@dataclass
class Facts:
    """What a record of a deal says about the cards: the starter, the ranks each player laid
    (the play by cards), the shows given as cards and the shows given as points."""

    starter: Card
    played: dict[str, list[int]] | None
    shown: dict[str, list[Card]]  # player (or "crib") -> the cards shown
    claims: dict[str, int]  # player (or "crib") -> the points said
    witness: dict[str, list[Card]]  # for each claim, the cards really held (tried first)


def facts_of(deal: Deal, events: list[dict]) -> Facts:
    starter = next(parse_card(e["card"]) for e in events if e["type"] == "starter")
    shown: dict[str, list[Card]] = {}
    claims: dict[str, int] = {}
    for e in events:
        if e["type"] in ("show", "crib"):
            who = e.get("player", "crib")
            if e.get("cards") is not None:
                shown[who] = [parse_card(c) for c in e["cards"]]
            else:
                claims[who] = e["points"]
    played = None
    if deal.by_cards:
        played = {p: [] for p in deal.players}
        for e in events:
            if e["type"] == "play":
                played[e["player"]].append(e["card"])
    witness = {who: (deal.crib if who == "crib" else deal.hands[who]) for who in claims}
    return Facts(starter, played, shown, claims, witness)


def producible(facts: Facts, budget: int = 400_000) -> bool | None:
    """True if one shuffled deck can give every fact; False if none can; None if the search ran
    out of its budget (not decided). The play itself is taken as the engine keeps it (turns, 31,
    a fifth card of a rank, a go kept: those mutations are decided where they are made)."""
    seen = [facts.starter, *itertools.chain.from_iterable(facts.shown.values())]
    if len(set(seen)) != len(seen):
        return False
    if facts.played is not None:
        for who, cards in facts.shown.items():
            if who != "crib" and sorted(c.rank for c in cards) != sorted(facts.played[who]):
                return False
        if max(_out(facts, facts.shown.get("crib", ())).values()) > 4:
            return False
    # Each claim's points: tried first with the cards really held, then searched for among the
    # deck's other cards (those of the ranks laid, when the play was recorded by cards). On card
    # numbers (0-51), with the engine's fast ``hand_points`` (tested against the breakdown).
    starter = card_number(facts.starter)
    known = {card_number(c) for c in seen}
    # Claims whose ranks the play gave first (few hands each), the crib last.
    claims = sorted(facts.claims, key=lambda who: (facts.played is None, who == "crib"))
    steps = [budget]
    out = _out(facts, ()) if facts.played is not None else Counter()

    def fits(who: str, hand: tuple[int, ...]) -> bool:
        if facts.played is not None and who == "crib":
            ranks = Counter((n >> 2) + 1 for n in hand)
            if any(out[rank] + k > 4 for rank, k in ranks.items()):
                return False
        return hand_points(hand, starter, who == "crib") == facts.claims[who]

    def hands(who: str, used: frozenset[int]):
        yield tuple(card_number(c) for c in facts.witness[who])
        rest = [n for n in range(52) if n not in used]
        if facts.played is None or who == "crib":
            yield from itertools.combinations(rest, 4)
            return
        needed = Counter(facts.played[who])
        choices = [
            itertools.combinations([n for n in rest if (n >> 2) + 1 == rank], k)
            for rank, k in needed.items()
        ]
        for parts in itertools.product(*choices):
            yield tuple(itertools.chain.from_iterable(parts))

    def search(index: int, used: frozenset[int]) -> bool:
        if index == len(claims):
            return True
        who = claims[index]
        for hand in hands(who, used):
            steps[0] -= 1
            if steps[0] < 0:
                raise TimeoutError
            if (
                used.isdisjoint(hand)
                and fits(who, hand)
                and search(index + 1, used | frozenset(hand))
            ):
                return True
        return False

    # The totals no four cards reach with this starter at all (the engine's table, which a test
    # recomputes by brute force), then each claim alone, then all of them together.
    for who, points in facts.claims.items():
        if points not in possible_totals(facts.starter, crib=who == "crib"):
            return False
    try:
        for who in claims:
            if not any(
                used_ok and fits(who, hand)
                for hand in hands(who, frozenset(known))
                for used_ok in (frozenset(known).isdisjoint(hand),)
            ):
                return False
        return search(0, frozenset(known))
    except TimeoutError:
        return None


def _ranks(hand: tuple[int, ...]) -> list[int]:
    return sorted((n >> 2) + 1 for n in hand)


def _out(facts: Facts, crib) -> Counter:
    """How many cards of each rank the play, the starter and the crib's cards hold."""
    assert facts.played is not None
    out = Counter(r for ranks in facts.played.values() for r in ranks)
    out[facts.starter.rank] += 1
    out.update(c.rank for c in crib)
    return out
