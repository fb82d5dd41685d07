"""Kasino played with real cards (populara_kortspel.sv.txt, "Kortspelet: Kasino").

The dealer gives four cards to each player and four face up to the table, then four more to each
player whenever all hands are empty, until the 52 cards are out; förhand (left of the dealer)
plays first and the turn goes clockwise. Each play takes in or lays out: a take is the card
played and one or more groups of table cards, each group worth the card's value (numbers their
value, knekt 11, dam 12, kung 13, an ace 1 or 14 — on the table too); a take of every table
card is a tabbe (the next player then lays out: the table is empty). A player who cannot take
lays out; one who can may still lay out (the text: "man kan då antingen ta in eller lägga ut").
Sistan, the last take, gets what is left on the table.

``play_deal`` plays one deal with random legal choices and counts what the pad records: who took
most cards and most spades (or a tie, KA1), storan, lillan, each ace, sistan and each player's
tabbar; ``pad_event`` is the event the pad sends (in partnership play a side is named by its
first player), ``counts_event`` the same deal with the card and spade counts instead of "most".

``possible`` is the test's own judge of a mutated record, written apart from the engine: it
searches the plays (which turns sweep, take or lay out) breadth first, and the per-player card
and spade counts by brute force, for a deal that yields the record.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import product

from engine.cards import ACE, FULL_DECK, Card, Suit

DECK = 52
TABLE = 4
HAND = 4
PLAYS = DECK - TABLE
TIE = "tie"

STORAN = Card(10, Suit.DIAMONDS)
LILLAN = Card(2, Suit.SPADES)
ACES = {s: Card(ACE, Suit(s)) for s in "SHDC"}


def values(card: Card) -> tuple[int, ...]:
    return (1, 14) if card.rank == ACE else (card.rank,)


def takes(table: list[Card], hand: list[Card], limit: int = 8) -> list[tuple[Card, int]]:
    """Every take the hand allows: (card, bit mask of table cards), the table cards being a union
    of disjoint groups each worth the card's value (an ace 1 or 14, on the table too). A large
    table is searched among ``limit`` of its cards (the others stay): the choices are still
    legal, only fewer."""
    n = min(len(table), limit)
    low = [0] * (1 << n)
    aces = [0] * (1 << n)
    for mask in range(1, 1 << n):
        bit = mask & -mask
        card = table[bit.bit_length() - 1]
        low[mask] = low[mask ^ bit] + (1 if card.rank == ACE else card.rank)
        aces[mask] = aces[mask ^ bit] + (card.rank == ACE)
    worth: dict[int, set[int]] = {}
    for mask in range(1, 1 << n):
        for k in range(aces[mask] + 1):
            worth.setdefault(low[mask] + 13 * k, set()).add(mask)
    options = []
    for card in hand:
        groups = sorted(set().union(*(worth.get(v, set()) for v in values(card))))
        unions = {0}
        for g in groups:
            unions |= {u | g for u in unions if not u & g}
        options += [(card, u) for u in sorted(unions) if u]
    return options


@dataclass
class Deal:
    players: tuple[str, ...]
    dealer: str
    sides: tuple[tuple[str, ...], ...]
    piles: dict[str, list[Card]] = field(default_factory=dict)
    tabbar: dict[str, int] = field(default_factory=dict)
    last: str | None = None
    plays: list[tuple[str, str]] = field(default_factory=list)  # (player, "lay"|"take"|"tabbe")

    def side(self, player: str) -> int:
        return next(i for i, side in enumerate(self.sides) if player in side)

    def holder(self, card: Card) -> str:
        return next(p for p, pile in self.piles.items() if card in pile)

    def most(self, count) -> int | None:
        totals = [sum(count(self.piles[p]) for p in side) for side in self.sides]
        top = max(totals)
        return None if totals.count(top) > 1 else totals.index(top)

    @property
    def cards(self) -> dict[str, int]:
        return {p: len(pile) for p, pile in self.piles.items()}

    @property
    def spades(self) -> dict[str, int]:
        return {p: sum(c.suit == Suit.SPADES for c in pile) for p, pile in self.piles.items()}

    def points(self) -> list[int]:
        """Each side's points as the rules text's table counts them."""
        points = [0] * len(self.sides)
        for who, worth in (
            (self.most(len), 1),
            (self.most(lambda pile: sum(c.suit == Suit.SPADES for c in pile)), 2),
        ):
            if who is not None:
                points[who] += worth
        for card, worth in ((STORAN, 2), (LILLAN, 1), *((a, 1) for a in ACES.values())):
            points[self.side(self.holder(card))] += worth
        points[self.side(self.last)] += 1
        for player, n in self.tabbar.items():
            points[self.side(player)] += n
        return points

    def _name(self, player: str) -> str:
        return self.sides[self.side(player)][0]  # the pad names a side by its first player

    def _most_name(self, index: int | None) -> str:
        return TIE if index is None else self.sides[index][0]

    def pad_event(self) -> dict:
        return {
            "type": "deal",
            "most_cards": self._most_name(self.most(len)),
            "most_spades": self._most_name(
                self.most(lambda pile: sum(c.suit == Suit.SPADES for c in pile))
            ),
            "big_casino": self._name(self.holder(STORAN)),
            "little_casino": self._name(self.holder(LILLAN)),
            "aces": {s: self._name(self.holder(a)) for s, a in ACES.items()},
            "last": self._name(self.last),
            "tabbar": {p: self.tabbar[p] for p in self.players},
        }

    def counts_event(self) -> dict:
        """The deal with the counts (per player) and the items by who took them."""
        return {
            "type": "deal",
            "big_casino": self.holder(STORAN),
            "little_casino": self.holder(LILLAN),
            "aces": {s: self.holder(a) for s, a in ACES.items()},
            "last": self.last,
            "tabbar": {p: self.tabbar[p] for p in self.players},
            "cards": self.cards,
            "spades": self.spades,
        }


def play_deal(
    r: random.Random, players: tuple[str, ...], dealer: str, partnership: bool = False
) -> Deal | None:
    """One deal with random legal choices; None in the (never seen) case that nobody takes."""
    if partnership:
        sides = ((players[0], players[2]), (players[1], players[3]))
    else:
        sides = tuple((p,) for p in players)
    deal = Deal(players, dealer, sides)
    deal.piles = {p: [] for p in players}
    deal.tabbar = dict.fromkeys(players, 0)
    deck = list(FULL_DECK)
    r.shuffle(deck)
    n = len(players)
    start = (players.index(dealer) + 1) % n
    order = [players[(start + k) % n] for k in range(n)]
    table = [deck.pop() for _ in range(TABLE)]
    hands: dict[str, list[Card]] = {p: [] for p in players}
    eager = r.choice((0.5, 0.8, 0.95, 1.0))  # how often a player takes when he can
    sweeper = r.random() < 0.5  # prefers the largest take (a tabbe when there is one)
    for turn in range(PLAYS):
        player = order[turn % n]
        if not hands[player]:
            for p in order:
                hands[p] = [deck.pop() for _ in range(HAND)]
        options = takes(table, hands[player])
        if options and r.random() < eager:
            if sweeper:
                card, mask = max(options, key=lambda o: (bin(o[1]).count("1"), r.random()))
            else:
                card, mask = r.choice(options)
            taken = [c for i, c in enumerate(table) if mask >> i & 1]
            table = [c for i, c in enumerate(table) if not mask >> i & 1]
            deal.piles[player] += [card, *taken]
            deal.last = player
            if table:
                deal.plays.append((player, "take"))
            else:
                deal.tabbar[player] += 1
                deal.plays.append((player, "tabbe"))
        else:
            card = r.choice(hands[player])
            table.append(card)
            deal.plays.append((player, "lay"))
        hands[player].remove(card)
    assert not deck
    assert not any(hands.values())
    if deal.last is None:
        return None
    deal.piles[deal.last] += table
    assert sum(deal.cards.values()) == DECK
    return deal


# --- the test's own judge: can a deal yield this record? ----------------------------------------


def _plays_fit(
    players: tuple[str, ...], dealer: str, tabbar: dict[str, int], takers: set[str], last: str
) -> bool:
    """Breadth first over the 48 plays: which turns sweep, take some or lay out, with the table's
    size (up to 4: four or more) — whether every tabbe lands on its player's turn, none right
    after another, every taker takes at least once and sistan's take is the last."""
    n = len(players)
    start = (players.index(dealer) + 1) % n
    order = [players[(start + k) % n] for k in range(n)]
    # (table size, tabbar still to make, takers still to take, sistan has taken for good)
    states = {(TABLE, tuple(tabbar.get(p, 0) for p in order), frozenset(takers), False)}
    for turn in range(PLAYS):
        k = turn % n
        player = order[k]
        after = set()
        for table, left, waiting, done in states:
            after.add((min(table + 1, 4), left, waiting, done))  # lays out
            rest = waiting - {player}
            ends = [False, True] if player == last else [False]
            if table >= 1 and left[k]:  # a tabbe
                swept = (*left[:k], left[k] - 1, *left[k + 1 :])
                for end in ends:
                    if not end or (not any(swept) and not rest):
                        after.add((0, swept, rest, end))
            if table >= 2:  # takes some, leaves some
                for end in ends:
                    if not end or (not any(left) and not rest):
                        for keep in range(1, min(table, 4) + 1):
                            if keep < table or table == 4:
                                after.add((keep, left, rest, end))
        if any(done for _table, _left, _waiting, done in after):
            return True  # sistan has taken for good: every later play lays out
        plays_left = PLAYS - turn - 1
        states = {st for st in after if sum(st[1]) <= (plays_left + 1) // 2}
    return False


def _counts_fit(record: dict, players: tuple[str, ...], sides) -> bool:
    """Search of per-side spade counts, then card counts, for counts that agree with the record:
    52 cards, 13 spades, nobody exactly one card, at least two per take, tabbe and scoring card
    held, spades within cards and beside the non-spade scoring cards, and most cards / most
    spades as recorded (by side). Items name the players who took them."""
    took = dict.fromkeys(players, 0)
    spade_items = dict.fromkeys(players, 0)
    for player in (record["big_casino"], record["little_casino"], *record["aces"].values()):
        took[player] += 1
    spade_items[record["little_casino"]] += 1
    spade_items[record["aces"]["S"]] += 1
    tabbar = record.get("tabbar", {})
    least = {
        p: max(2, took[p], 2 * tabbar.get(p, 0))
        if took[p] or tabbar.get(p, 0) or p == record["last"]
        else 0
        for p in players
    }
    side_of = {p: i for i, side in enumerate(sides) for p in side}
    low_cards = [sum(least[p] for p in side) for side in sides]
    low_spades = [sum(spade_items[p] for p in side) for side in sides]
    others = [sum(took[p] - spade_items[p] for p in side) for side in sides]

    def claim(named):
        return None if named is None else TIE if named == TIE else side_of[named]

    def agrees(totals, named) -> bool:
        if named is None:
            return True
        top = max(totals)
        if named == TIE:
            return totals.count(top) > 1
        return totals.count(top) == 1 and totals[named] == top

    given_spades = record.get("spades")
    given_cards = record.get("cards")
    if given_spades:
        spade_tuples = [tuple(sum(given_spades[p] for p in side) for side in sides)]
    else:
        spade_tuples = _sums([range(lo, 14) for lo in low_spades], 13)
    if given_cards:
        fixed = [sum(given_cards[p] for p in side) for side in sides]
    most_cards, most_spades = claim(record.get("most_cards")), claim(record.get("most_spades"))
    for spades in spade_tuples:
        if any(s < lo for s, lo in zip(spades, low_spades, strict=True)):
            continue  # lillan and the ace of spades are spades
        if not given_spades and not agrees(spades, most_spades):
            continue
        low = [max(c, s + o) for c, s, o in zip(low_cards, spades, others, strict=True)]
        low = [2 if v == 1 else v for v in low]
        if given_cards:
            if all(f >= lo for f, lo in zip(fixed, low, strict=True)):
                return True
            continue
        if any(agrees(t, most_cards) for t in _card_totals(low, most_cards)):
            return True
    return False


def _card_totals(low: list[int], named):
    """Side totals of the 52 cards, each at least ``low`` and never 1, most promising first for
    the claim ``named``: the claimed side as high as it goes, or the tied pair from the top."""
    n = len(low)
    allowed = [[v for v in range(lo, DECK + 1) if v != 1] for lo in low]
    if named is None or named != TIE:
        first = 0 if named is None else named
        rest = [i for i in range(n) if i != first]
        for mine in reversed(allowed[first]):
            for others in _sums([allowed[i] for i in rest], DECK - mine, cap=mine - 1):
                totals = [0] * n
                totals[first] = mine
                for i, v in zip(rest, others, strict=True):
                    totals[i] = v
                yield totals
                if named is not None:
                    return  # the others at their least: the best the claimed side can do
        return
    for a in range(n):
        for b in range(a + 1, n):
            rest = [i for i in range(n) if i not in (a, b)]
            for v in range(DECK // 2, 1, -1):
                if v < low[a] or v < low[b]:
                    break
                for others in _sums([allowed[i] for i in rest], DECK - 2 * v, cap=v):
                    totals = [0] * n
                    totals[a] = totals[b] = v
                    for i, x in zip(rest, others, strict=True):
                        totals[i] = x
                    yield totals
                    break


def _sums(ranges, total, cap=DECK):
    """Tuples from ``ranges`` (each at most ``cap``) adding up to ``total``, smallest first."""
    if not ranges:
        if total == 0:
            yield ()
        return
    for v in ranges[0]:
        if v > min(total, cap):
            break
        for rest in _sums(ranges[1:], total - v, cap):
            yield (v, *rest)


def possible(record: dict, players: tuple[str, ...], dealer: str, sides) -> bool:
    """Whether a deal can yield ``record`` (items named by the players who took them; for the
    pad's form in partnership play, a side's first player stands for the side)."""
    tabbar = {p: n for p, n in record.get("tabbar", {}).items() if n}
    aces = record["aces"]
    if len(aces) != 4 or set(aces) != set("SHDC"):
        return False
    if sum(tabbar.values()) > PLAYS // 2:
        return False
    took = {record["big_casino"], record["little_casino"], *aces.values(), record["last"]}
    cards = record.get("cards")
    spades = record.get("spades")
    if cards and (sum(cards.values()) != DECK or 1 in cards.values()):
        return False
    if spades and sum(spades.values()) != 13:
        return False
    if cards and spades and any(spades[p] > cards[p] for p in players):
        return False
    if len(sides) < len(players):
        # The pad's partnership form names sides: the takers are some of each side's players.
        return _partnership_possible(record, players, dealer, sides, tabbar)
    takers = took | set(tabbar)
    if not _plays_fit(players, dealer, tabbar, takers, record["last"]):
        return False
    return _counts_fit(record, players, sides)


def _partnership_possible(record, players, dealer, sides, tabbar) -> bool:
    """The pad's partnership form: each item names a side. Some partner of the side took it:
    try every choice of partner per item (2^7 at most)."""
    partner = {side[0]: side for side in sides}
    fits: dict[tuple, bool] = {}
    items = [("big_casino",), ("little_casino",), *(("aces", s) for s in "SHDC"), ("last",)]
    for choice in product(*(partner[_get(record, item)] for item in items)):
        concrete = {**record, "aces": dict(record["aces"])}
        for item, player in zip(items, choice, strict=True):
            if len(item) == 1:
                concrete[item[0]] = player
            else:
                concrete["aces"][item[1]] = player
        key = (frozenset(choice), concrete["last"])
        if key not in fits:
            fits[key] = _plays_fit(players, dealer, tabbar, {*choice, *tabbar}, concrete["last"])
        if fits[key] and _counts_fit(concrete, players, sides):
            return True
    return False


def _get(record, item):
    return record[item[0]] if len(item) == 1 else record["aces"][item[1]]
