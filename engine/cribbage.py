"""Cribbage: hand and crib calculator, pegging, a game to 121 (or 61), discard advice.

Rules: ``shared/rules/cribbage.sv.txt``.

Scoring a show
- Fifteens, pairs and runs depend only on the five ranks, so they are computed once for every
  multiset of five ranks (6,175 of them) and looked up by a rank-count code: the sum of
  ``5 ** rank`` over the cards (no rank appears five times, so the code is unique). Flush and his
  nobs are then read from the suits. ``score_hand`` gives the full breakdown people count
  aloud (``say`` words it as they do, ``KIND_WORDS`` names each kind of item, both marked for
  translation); ``hand_points`` is the fast path on card numbers (0-51) for enumerations.
- Flush: four in the hand (five with the starter); the crib counts only a five-card flush.
  His nobs: a jack in the hand (or crib) of the starter's suit.

The whole distribution
- ``distribution()`` scores all 12,994,800 hand + starter combinations as hands and as cribs
  in one pass over the 270,725 four-card hands: for each hand and each starter rank the rank
  points are one lookup, and the starters of that rank differ only in suit, so how many of them
  make a flush or his nobs is counted directly.

Pegging
- ``peg_points(pile, card, played)``: the points for laying ``card`` on the current count:
  fifteen and thirty-one (2), pairs (2 / 6 / 12 for two, three, four of a kind), runs of three
  or more among the latest cards in any order; a card that would pass 31, or one already played
  in this deal (on the count or in ``played``, the earlier counts), is refused.

The game (``new_game`` / ``apply``)
- 2 players (3 as a club option), to 121 (option 61). Each deal: ``starter`` (his heels: 2 to
  the dealer for a jack), ``peg`` events during play (or late, below), then the shows in the
  order the rules count them: the player left of the dealer first, the dealer last, then the
  crib. A show gives either ``points`` or the ``cards`` (the engine counts them); points no four
  cards can score with the starter cut are refused (``IMPOSSIBLE_WITH_STARTER``: 29 needs a
  five, with a king the best is 28, and 19, 25, 26 and 27 never happen). The game ends the
  instant someone reaches the target; nothing after that counts. A loser below 91 is skunked
  (below 61 double skunked); for a game to 61 the lines are 31 and 1.
- Events (payloads declared in ``EVENTS``; ``dispatch`` refuses an unknown key, a missing one
  and a value of the wrong kind, naming it): {"type": "starter", "card": "JD"};
  {"type": "peg", "player": p, "points": n}; {"type": "play", "player": p, "card": 5};
  {"type": "go", "player": p}; {"type": "show", "player": p, "points": n} or
  {"type": "show", "player": p, "cards": ["5H", …]}; {"type": "crib", "points": n} or
  {"type": "crib", "cards": [...]}.
- The pegging of a deal is recorded one of two ways, never both: ``peg`` (the quick way: the
  points as the players say them) or the play by cards, ``play`` and ``go``, where the engine
  keeps the count and scores it. A played card is its rank (1-13 or text such as ``5``, ``kn``,
  ``5h``): pegging needs no suits, so "a card played twice" becomes a fifth card of a rank,
  the starter counted. The player left of the dealer leads; the turn goes clockwise to the
  next player who has cards and has not said go (a player out of cards says go by himself). A
  card past 31, a fifth card for a player and a go while every card still fits (count 21 or
  less) are refused. 31 scores 2 and starts a new count led by the next player; when nobody
  can play the latest player takes 1 for go and the next player leads; the last card of the
  deal scores 1 unless it makes 31. The shows wait until every card is played.
- A point from the play that nobody pegged (a go, the last card, a pair) is pegged when someone
  remembers: in a deal recorded the quick way a ``peg`` is also taken during the shows and the
  crib ("pegged late" in the log), until the crib is counted and the deal is over. It goes to
  the deal's pegging column and moves the board at once, so it can win the game before the
  hands still to count (the rules have no muggins). A deal played card by card takes no
  ``peg``: the app counts its pegging.

What no table can produce (issue 25; checked in ``apply`` unless the game was recorded before
these checks, ``new_game(legacy_facts=True)``, which a data migration sets on such a game)
One deck of 52 cards: each player keeps four (six dealt, two laid away; at three five dealt,
one laid away and one card from the pack to the crib), the crib has four, one starter is cut.
- A card exists once: no card shown in a hand (given as ``cards``) is the starter or a card
  shown in another hand of the deal, and no crib card is either ("a deck has one").
- What a player played is what he shows: in a deal played card by card, the four cards a
  player shows are of the four ranks he laid, each as often (and he shows no card he did not
  lay); a crib card is no fifth card of a rank laid or cut.
- A go is kept: a player who said go at a count held no card that fitted under 31 there; every
  card he lays later in the deal was in his hand then, so none of them may be one that would
  have fitted (a card worth at most ``31 - count``).
- The counts agree with the cards: a show or crib given as points is a total some four cards
  score with the starter (19, 25, 26, 27 never; ``IMPOSSIBLE_WITH_STARTER`` per starter), and
  four such cards exist among the cards nobody else is known to hold: not the starter, not a
  card shown in the deal, of the ranks the player laid when the deal was played card by card,
  and together with every other show of the deal given as points (two hands of 28 with a five
  cut would need the same three fives; a crib of 28 with a ten cut is the four fives, so not
  when a five was laid). Shown cards that leave no cards for a total counted earlier are
  refused too. (``facts_possible``: a search over the ranks and then the suits, the scarcest
  claim first; past ``SEARCH_BUDGET`` steps it gives the benefit of the doubt.)
- The pegging agrees with the cards: played card by card the engine counts it (fifteen,
  thirty-one, pairs, runs, go, last card); pegged the quick way the points as said are taken
  (which cards scored them is not recorded, so nothing bounds them but the game).

Honours (issue 29)
- A show or crib of 29, 28 or 24 points, given as points or as cards, is one of the famous hands
  a club may pay a prize for: ``State.honours`` keeps it (``engine.honours.Honour``: the player,
  ``cribbage:<points>:hand`` or ``:crib``, the deal's number, the cards and the starter when
  given). Replay rebuilds it, so an undo takes it away. The log is unchanged: the show's line
  already says the points.

Discard advice
- ``discard_advice(six_cards, is_dealer)``: all 15 discards ranked by expected hand points over
  the 46 possible starters plus (dealer) or minus (non-dealer) the expected crib, the crib
  computed exactly over the opponent's possible two-card discards and the starters: the three
  unseen crib cards are taken as rank multisets with their hypergeometric weights (rank points),
  and flush and nobs are counted in closed form.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from math import comb
from typing import NamedTuple

from engine.base import (
    CardName,
    CardNames,
    Declaration,
    EventType,
    OneOf,
    Player,
    Standing,
    Transfer,
    Whole,
    check_money,
    clockwise,
    dispatch,
    event_types,
    left_of,
    may,
    need,
    placements,
    seat_players,
)
from engine.cards import (
    ACE,
    JACK,
    KING,
    Card,
    Suit,
    as_illegal_event,
    parse_card,
    require_distinct,
)
from engine.errors import CardError, IllegalEvent, Line, Text, _, listed
from engine.honours import Honour, HonourKind

KEY = "cribbage"
NAME = _("Cribbage")

# The famous hands (engine.honours): a show of 29, 28 or 24 in the hand or the crib (29 in the
# crib is possible: the four cards are the crib's), highest first.
HONOUR_TOTALS = (29, 28, 24)


def honour_kind(points: int, crib: bool) -> str:
    return f"{KEY}:{points}:{'crib' if crib else 'hand'}"


PRIZE_HANDS = tuple(
    HonourKind(honour_kind(points, crib), KEY, name)
    for points, crib, name in (
        (29, False, _("a 29 hand")),
        (29, True, _("a 29 crib")),
        (28, False, _("a 28 hand")),
        (28, True, _("a 28 crib")),
        (24, False, _("a 24 hand")),
        (24, True, _("a 24 crib")),
    )
)


def show_honour(player: str, points: int, crib: bool, deal: int, cards=()) -> Honour | None:
    """The honour a show of ``points`` is, if any."""
    if points not in HONOUR_TOTALS:
        return None
    return Honour(player, honour_kind(points, crib), deal, " ".join(str(c) for c in cards))


MIN_PLAYERS, MAX_PLAYERS = 2, 3

IMPOSSIBLE_HAND_TOTALS = frozenset({19, 25, 26, 27})  # with any starter
MAX_HAND = 29

# The totals no show can reach with a starter of each rank: (as a hand, as a crib). Computed by
# ``impossible_totals_by_brute_force(rank)``: every one of the 249,900 four-card hands from the
# 51 other cards scored with ``hand_points`` as a hand and as a crib (the starter's suit only
# permutes the suits, so a heart stands for all four). All 13 ranks take 3 to 10 s, too long
# for an import: the table is written out here, and a slow test (and the bench) recompute it.
IMPOSSIBLE_WITH_STARTER: dict[int, tuple[frozenset[int], frozenset[int]]] = {
    rank: (frozenset(hand), frozenset(crib))
    for rank, (hand, crib) in {
        1: ({19, 21, 22, 23, 25, 26, 27, 28, 29}, {17, 19, 21, 22, 23, 25, 26, 27, 28, 29}),
        2: ({19, 21, 22, 23, 24, 25, 26, 27, 28, 29}, {19, 21, 22, 23, 24, 25, 26, 27, 28, 29}),
        3: ({19, 22, 23, 25, 26, 27, 28, 29}, {19, 22, 23, 25, 26, 27, 28, 29}),
        4: ({19, 22, 25, 26, 27, 28, 29}, {19, 22, 25, 26, 27, 28, 29}),
        5: ({0, 1, 19, 25, 26, 27}, {0, 1, 19, 25, 26, 27}),
        6: ({19, 22, 25, 26, 27, 28, 29}, {19, 22, 25, 26, 27, 28, 29}),
        7: ({19, 22, 23, 25, 26, 27, 28, 29}, {19, 22, 23, 25, 26, 27, 28, 29}),
        8: ({19, 22, 23, 25, 26, 27, 28, 29}, {19, 22, 23, 25, 26, 27, 28, 29}),
        9: ({19, 22, 23, 25, 26, 27, 28, 29}, {19, 22, 23, 25, 26, 27, 28, 29}),
        10: ({19, 23, 24, 25, 26, 27, 29}, {19, 23, 24, 25, 26, 27, 29}),
        11: ({1, 19, 21, 23, 24, 25, 26, 27, 29}, {1, 18, 19, 21, 23, 24, 25, 26, 27, 29}),
        12: ({19, 23, 24, 25, 26, 27, 29}, {19, 23, 24, 25, 26, 27, 29}),
        13: ({19, 23, 24, 25, 26, 27, 29}, {19, 23, 24, 25, 26, 27, 29}),
    }.items()
}  # fmt: skip

# --- cards as numbers for the fast paths: card = rank_index * 4 + suit_index ---------------

SUITS = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def card_number(card: Card) -> int:
    return (card.rank - 1) * 4 + SUIT_INDEX[card.suit]


def number_card(n: int) -> Card:
    return Card(n // 4 + 1, SUITS[n % 4])


def _value(rank: int) -> int:
    return min(rank, 10)


# --- the rank table --------------------------------------------------------------------------

_POW = [5**r for r in range(14)]


def _rank_code(ranks: Iterable[int]) -> int:
    return sum(_POW[r] for r in ranks)


def _fifteens(ranks: Sequence[int]) -> list[tuple[int, ...]]:
    found = []
    for size in range(2, len(ranks) + 1):
        for combo in itertools.combinations(range(len(ranks)), size):
            if sum(_value(ranks[i]) for i in combo) == 15:
                found.append(combo)
    return found


def _pairs(ranks: Sequence[int]) -> list[tuple[int, int]]:
    return [(i, j) for i, j in itertools.combinations(range(len(ranks)), 2) if ranks[i] == ranks[j]]


def _runs(ranks: Sequence[int]) -> list[tuple[int, ...]]:
    """Every run of maximal length (3+): double and triple runs are listed as their runs."""
    for size in range(len(ranks), 2, -1):
        found = []
        for combo in itertools.combinations(range(len(ranks)), size):
            values = sorted(ranks[i] for i in combo)
            if all(b - a == 1 for a, b in itertools.pairwise(values)):
                found.append(combo)
        if found:
            return found
    return []


@functools.lru_cache(maxsize=8192)
def _combinations(ranks: tuple[int, ...]) -> tuple[tuple, tuple, tuple]:
    """Fifteens, pairs and runs of five ranks as index tuples (6,175 sorted patterns exist)."""
    return tuple(_fifteens(ranks)), tuple(_pairs(ranks)), tuple(_runs(ranks))


def _rank_points(ranks: Sequence[int]) -> int:
    return 2 * len(_fifteens(ranks)) + 2 * len(_pairs(ranks)) + sum(len(r) for r in _runs(ranks))


def _build_table() -> dict[int, int]:
    table = {}
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        if max(Counter(ranks).values()) <= 4:
            table[_rank_code(ranks)] = _rank_points(ranks)
    return table


RANK_POINTS: dict[int, int] = _build_table()


# --- scoring a show --------------------------------------------------------------------------


class Item(NamedTuple):
    """One scoring combination (a tuple: cheap to make by the thousand)."""

    kind: str  # "fifteen", "pair", "run", "flush", "nobs"
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True)
class Breakdown:
    items: tuple[Item, ...]
    total: int
    crib: bool = False

    def of_kind(self, kind: str) -> tuple[Item, ...]:
        return tuple(item for item in self.items if item.kind == kind)


def _check_show(hand: Sequence[Card], starter: Card) -> None:
    if len(hand) != 4:
        raise IllegalEvent(
            _("a hand or crib has four cards besides the starter, not {count}"), count=len(hand)
        )
    cards = [*hand, starter]
    if any(c.is_joker for c in cards):
        raise IllegalEvent(_("cribbage is played without jokers"))
    with as_illegal_event():
        require_distinct(cards)


def score_hand(hand: Sequence[Card], starter: Card, crib: bool = False) -> Breakdown:
    """Every scoring combination of a hand (or crib) with the starter, and the total."""
    _check_show(hand, starter)
    # In rank order, so that the combinations (which depend on the ranks only) are looked up
    # once per rank pattern; each combination then lists its cards lowest first.
    cards = sorted([*hand, starter], key=lambda c: c.rank)
    codes = [str(c) for c in cards]
    fifteens, pairs, runs = _combinations(tuple(c.rank for c in cards))
    items: list[Item] = []
    items += [Item("fifteen", tuple(codes[i] for i in c), 2) for c in fifteens]
    items += [Item("pair", tuple(codes[i] for i in c), 2) for c in pairs]
    items += [Item("run", tuple(codes[i] for i in c), len(c)) for c in runs]
    flush = _flush_points([c.suit for c in hand], starter.suit, crib)
    if flush:
        shown = hand if flush == 4 else [*hand, starter]
        items.append(Item("flush", tuple(str(c) for c in shown), flush))
    for card in hand:
        if card.rank == JACK and card.suit == starter.suit:
            items.append(Item("nobs", (str(card),), 1))
    return Breakdown(tuple(items), sum(i.points for i in items), crib)


def _flush_points(hand_suits: Sequence[Suit], starter_suit: Suit, crib: bool) -> int:
    if len(set(hand_suits)) != 1:
        return 0
    if hand_suits[0] == starter_suit:
        return 5
    return 0 if crib else 4  # the crib scores only a five-card flush


def hand_points(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """The total of a show on card numbers (0-51): the fast path for enumerations."""
    a, b, c, d = hand
    points = RANK_POINTS[
        _POW[(a >> 2) + 1]
        + _POW[(b >> 2) + 1]
        + _POW[(c >> 2) + 1]
        + _POW[(d >> 2) + 1]
        + _POW[(starter >> 2) + 1]
    ]
    suit = a & 3
    if suit == b & 3 == c & 3 == d & 3:
        if starter & 3 == suit:
            points += 5
        elif not crib:
            points += 4
    jack_of_starter_suit = (JACK - 1) * 4 + (starter & 3)
    if jack_of_starter_suit in hand:
        points += 1
    return points


def possible_totals(starter: Card, crib: bool = False) -> frozenset[int]:
    """The totals a hand (or crib) can score with this starter cut."""
    impossible = IMPOSSIBLE_WITH_STARTER[starter.rank][1 if crib else 0]
    return frozenset(range(MAX_HAND + 1)) - impossible


def impossible_totals_by_brute_force(rank: int) -> tuple[frozenset[int], frozenset[int]]:
    """(hand, crib): the totals no four cards reach with a starter of ``rank``, by scoring every
    four-card hand from the other 51 cards (how ``IMPOSSIBLE_WITH_STARTER`` was computed)."""
    starter = (rank - 1) * 4  # the heart; the other suits give the same totals
    others = [n for n in range(52) if n != starter]
    hands: set[int] = set()
    cribs: set[int] = set()
    for hand in itertools.combinations(others, 4):
        hands.add(hand_points(hand, starter))
        cribs.add(hand_points(hand, starter, crib=True))
    every = frozenset(range(MAX_HAND + 1))
    return every - hands, every - cribs


# --- saying it aloud ---------------------------------------------------------------------------

# The kinds of ``Item`` as a breakdown lists them ("fifteen: 5S JD"), marked for translation.
KIND_WORDS = {
    "fifteen": _("fifteen"),
    "pair": _("pair"),
    "run": _("run"),
    "flush": _("flush"),
    "nobs": _("his nobs"),
}
_SAID = {
    "fifteen": _("fifteen {n}"),
    "pair": _("a pair is {n}"),
    "pairs3": _("pair royal is {n}"),
    "pairs4": _("double pair royal is {n}"),
    "run": _("a run of {k} is {n}"),
    "flush": _("a flush of {k} is {n}"),
    "nobs": _("his nobs is {n}"),
    "run_double": _("a double run of {k} is {n}"),
    "run_triple": _("a triple run of {k} is {n}"),
    "run_quad": _("a quadruple run of {k} is {n}"),
}


def say(breakdown: Breakdown) -> Line:
    """The breakdown as players count aloud, a running total after every step ("fifteen 2,
    fifteen 4, a pair is 6"): a Line, rendered in the reader's language by the web layer."""
    if not breakdown.items:
        return Line(_("nineteen"))  # what a hand of no points is called
    parts: list[Line] = []
    running = 0
    for _item in breakdown.of_kind("fifteen"):
        running += 2
        parts.append(Line(_SAID["fifteen"], n=running))
    pairs = breakdown.of_kind("pair")
    runs = breakdown.of_kind("run")
    if runs and len(runs) > 1:
        # A double (triple, quadruple) run is said as one: its pairs are part of it.
        running += sum(i.points for i in runs) + 2 * len(pairs)
        key = {2: "run_double", 3: "run_triple", 4: "run_quad"}.get(len(runs), "run_double")
        parts.append(Line(_SAID[key], k=len(runs[0].cards), n=running))
        pairs = ()
        runs = ()
    for group in _pair_groups(pairs):
        running += 2 * len(group)
        key = {1: "pair", 3: "pairs3", 6: "pairs4"}[len(group)]
        parts.append(Line(_SAID[key], n=running))
    for item in runs:
        running += item.points
        parts.append(Line(_SAID["run"], k=len(item.cards), n=running))
    for item in breakdown.of_kind("flush"):
        running += item.points
        parts.append(Line(_SAID["flush"], k=item.points, n=running))
    for _item in breakdown.of_kind("nobs"):
        running += 1
        parts.append(Line(_SAID["nobs"], n=running))
    said = listed(parts)
    assert isinstance(said, Line)  # at least one step: the breakdown has items
    return said


def _pair_groups(pairs: Sequence[Item]) -> list[list[Item]]:
    groups: dict[str, list[Item]] = {}
    for item in pairs:
        groups.setdefault(item.cards[0][:-1], []).append(item)
    return list(groups.values())


# --- the whole distribution ------------------------------------------------------------------


def distribution(deck: Sequence[int] = tuple(range(52))) -> tuple[Counter, Counter]:
    """(hands, cribs): how many hand + starter combinations from ``deck`` score each total.

    Per four-card hand and starter rank: the rank points are one lookup, and the starters of
    that rank differ only in suit, so the counts with a flush or his nobs are found by set
    arithmetic on the suits still available for that rank.
    """
    deck = tuple(deck)
    deck_suits: dict[int, frozenset[int]] = {}
    for n in deck:
        rank = (n >> 2) + 1
        deck_suits[rank] = deck_suits.get(rank, frozenset()) | {n & 3}
    ranks = sorted(deck_suits)
    hands: Counter = Counter()
    cribs: Counter = Counter()
    pow_, table = _POW, RANK_POINTS
    for hand in itertools.combinations(deck, 4):
        a, b, c, d = hand
        code = pow_[(a >> 2) + 1] + pow_[(b >> 2) + 1] + pow_[(c >> 2) + 1] + pow_[(d >> 2) + 1]
        held: dict[int, set[int]] = {}
        jacks: set[int] = set()
        for n in hand:
            held.setdefault((n >> 2) + 1, set()).add(n & 3)
            if (n >> 2) + 1 == JACK:
                jacks.add(n & 3)
        flush = a & 3 if a & 3 == b & 3 == c & 3 == d & 3 else -1
        for rank in ranks:
            avail = deck_suits[rank] - held[rank] if rank in held else deck_suits[rank]
            if not avail:
                continue  # every card of this rank is in the hand
            base = table[code + pow_[rank]]
            if flush < 0:
                nobs = len(jacks & avail)
                if nobs:
                    hands[base + 1] += nobs
                    cribs[base + 1] += nobs
                if len(avail) > nobs:
                    hands[base] += len(avail) - nobs
                    cribs[base] += len(avail) - nobs
                continue
            others = len(avail)
            if flush in avail:  # the starter that follows suit: a five-card flush
                five = base + 5 + (1 if flush in jacks else 0)
                hands[five] += 1
                cribs[five] += 1
                others -= 1
            if others:  # jacks can only be of the flush suit, so no nobs here
                hands[base + 4] += others
                cribs[base] += others
    return hands, cribs


# --- pegging ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Peg:
    points: int
    reasons: tuple[str, ...]
    count: int


def peg_points(pile: Sequence[Card], card: Card, played: Sequence[Card] = ()) -> Peg:
    """Points for laying ``card`` on ``pile`` (the cards of the current count, oldest first);
    ``played`` are the cards laid in the earlier counts of the deal. A card is played once."""
    if card.is_joker:
        raise IllegalEvent(_("cribbage is played without jokers"))
    if card in pile or card in played:
        raise IllegalEvent(_("{card} has already been played"), card=card.pretty)
    with as_illegal_event():
        require_distinct([*played, *pile])
    ranks = [c.rank for c in pile]
    _check_under_31(ranks, card.rank, card.pretty)
    return _peg_ranks(ranks, card.rank)


def _check_under_31(pile: Sequence[int], rank: int, shown: str) -> None:
    count = sum(_value(r) for r in pile) + _value(rank)
    if count > 31:
        raise IllegalEvent(
            _("{card} would make the count {count}, past 31: say go instead"),
            card=shown,
            count=count,
        )


def _peg_ranks(pile: Sequence[int], rank: int) -> Peg:
    """The points for laying a card of ``rank`` on the ranks of the count: pegging depends on
    the ranks alone (no flush, no nobs while playing)."""
    count = sum(_value(r) for r in pile) + _value(rank)
    ranks = [*pile, rank]
    points, reasons = 0, []
    if count in (15, 31):
        points += 2
        reasons.append(str(count))
    same = 1
    for earlier in reversed(pile):
        if earlier != rank:
            break
        same += 1
    if same >= 2:
        points += {2: 2, 3: 6, 4: 12}[same]
        reasons.append({2: "pair", 3: "pair royal", 4: "double pair royal"}[same])
    for length in range(len(ranks), 2, -1):
        window = sorted(ranks[-length:])
        if all(b - a == 1 for a, b in itertools.pairwise(window)):
            points += length
            reasons.append(f"run of {length}")
            break
    return Peg(points, tuple(reasons), count)


# --- discard advice --------------------------------------------------------------------------


@dataclass(frozen=True)
class Discard:
    keep: tuple[str, ...]
    throw: tuple[str, ...]
    hand: float
    crib: float
    total: float


def discard_advice(six: Sequence[Card], is_dealer: bool) -> list[Discard]:
    """All 15 discards, best first: expected hand ± expected crib (exact expectations)."""
    if len(six) != 6:
        raise IllegalEvent(
            _("discard advice needs the six cards dealt, not {count}"), count=len(six)
        )
    if len(set(six)) != 6 or any(c.is_joker for c in six):
        raise IllegalEvent(_("the six cards must be six different cards of the deck"))
    mine = [card_number(c) for c in six]
    unseen = [n for n in range(52) if n not in mine]
    rank_left = Counter((n >> 2) + 1 for n in unseen)
    suit_left = Counter(n & 3 for n in unseen)
    triples = _triple_weights(rank_left)
    results = []
    for throw in itertools.combinations(range(6), 2):
        keep = [mine[i] for i in range(6) if i not in throw]
        thrown = [mine[i] for i in throw]
        hand = _expected_hand(keep, rank_left, suit_left)
        crib = _expected_crib(thrown, triples, suit_left, unseen)
        total = hand + crib if is_dealer else hand - crib
        results.append(
            Discard(
                keep=tuple(str(number_card(n)) for n in keep),
                throw=tuple(str(number_card(n)) for n in thrown),
                hand=hand,
                crib=crib,
                total=total,
            )
        )
    results.sort(key=lambda d: (-d.total, -d.hand, d.throw))
    return results


def _expected_hand(keep: Sequence[int], rank_left: Counter, suit_left: Counter) -> float:
    code = sum(_POW[(n >> 2) + 1] for n in keep)
    unseen = sum(rank_left.values())
    points = sum(count * RANK_POINTS[code + _POW[rank]] for rank, count in rank_left.items())
    suits = {n & 3 for n in keep}
    if len(suits) == 1:
        suit = next(iter(suits))
        points += 4 * unseen + suit_left[suit]  # four always, five when the starter follows
    for n in keep:
        if (n >> 2) + 1 == JACK:
            points += suit_left[n & 3]  # his nobs: a starter of the jack's suit
    return points / unseen


def _triple_weights(rank_left: Counter) -> list[tuple[int, int]]:
    """Every multiset of three unseen ranks as (rank code, number of card triples)."""
    weights = []
    ranks = sorted(rank_left)
    for combo in itertools.combinations_with_replacement(ranks, 3):
        ways = 1
        for rank, m in Counter(combo).items():
            ways *= comb(rank_left[rank], m)
        if ways:
            weights.append((_rank_code(combo), ways))
    return weights


def _expected_crib(
    thrown: Sequence[int], triples: list[tuple[int, int]], suit_left: Counter, unseen: list[int]
) -> float:
    total_triples = comb(len(unseen), 3)
    code = sum(_POW[(n >> 2) + 1] for n in thrown)
    rank_part = sum(ways * RANK_POINTS[code + triple] for triple, ways in triples) / total_triples
    flush = 0.0
    if thrown[0] & 3 == thrown[1] & 3:
        flush = 5 * comb(suit_left[thrown[0] & 3], 3) / total_triples
    u = len(unseen)
    nobs = 0.0
    own_jacks = {n & 3 for n in thrown if (n >> 2) + 1 == JACK}
    for suit in own_jacks:
        nobs += suit_left[suit] / u  # the starter (any unseen card) has the jack's suit
    for n in unseen:
        if (n >> 2) + 1 == JACK:
            # The opponent throws this jack (2 of the u cards) and the starter follows its suit.
            nobs += (2 / u) * (suit_left[n & 3] - 1) / (u - 1)
    return rank_part + flush + nobs


# --- the game --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    target: int = 121
    stake_ore: int = 0  # money per game from each loser; doubled for a skunk, tripled double

    CHOICES = {"target": (121, 61)}
    LABELS = {"target": _("Play to"), "stake_ore": _("Stake per game")}
    CHOICE_LABELS = {"target": {121: _("121 points"), 61: _("61 points")}}

    def __post_init__(self) -> None:
        check_money(self)


@dataclass(frozen=True)
class DealRow:
    dealer: str
    starter: str | None = None
    heels: int = 0
    pegging: dict[str, int] = field(default_factory=dict)
    hands: dict[str, int] = field(default_factory=dict)
    crib: int | None = None


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules
    dealer: str
    scores: dict[str, int]
    back_pegs: dict[str, int]
    phase: str = "starter"  # then "pegging", "show", "crib"; "over" at the end
    starter: str | None = None
    shown: tuple[str, ...] = ()
    deals: tuple[DealRow, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    winner: str | None = None
    skunk: int = 0
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ("starter",)
    to_show: str | None = None
    log: tuple[Line, ...] = ()
    league_details: dict[str, dict[str, int]] = field(default_factory=dict)
    hand_points: dict[str, int] = field(default_factory=dict)
    hands_shown: dict[str, int] = field(default_factory=dict)
    # The play by cards (this deal): the ranks on the current count (A, 2 … 10, J, Q, K),
    # oldest first; each player's cards played; who said go on this count; whose turn it is;
    # who laid the latest card on the count (he takes the go).
    count_cards: tuple[str, ...] = ()
    cards_played: dict[str, tuple[str, ...]] = field(default_factory=dict)
    said_go: tuple[str, ...] = ()
    to_play: str | None = None
    last_to_play: str | None = None
    # The facts of this deal the checks of "What no table can produce" compare: the cards shown
    # for each player who showed cards, the crib's cards, every go as (player, count). A game
    # recorded before those checks (``legacy_facts``, set by a data migration) replays without
    # them.
    shown_cards: dict[str, tuple[str, ...]] = field(default_factory=dict)
    crib_cards: tuple[str, ...] = ()
    gone: tuple[tuple[str, int], ...] = ()
    legacy_facts: bool = False
    # The famous hands of the game so far (29, 28 and 24 in a hand or the crib, by points or by
    # cards): ``engine.honours``; a club may pay a prize for them. Replay rebuilds them.
    honours: tuple[Honour, ...] = ()

    @property
    def count_total(self) -> int:
        return sum(_value(RANKS[label]) for label in self.count_cards)


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    legacy_facts: bool = False,
) -> State:
    if rules.target not in (61, 121):
        raise IllegalEvent(
            _("a game of cribbage is to 121 or 61, not {target}"), target=rules.target
        )
    players, dealer = seat_players(players, "Cribbage", MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    zero = dict.fromkeys(players, 0)
    return State(
        players=players,
        rules=rules,
        dealer=dealer,
        scores=dict(zero),
        back_pegs=dict(zero),
        deals=(DealRow(dealer=dealer),),
        hand_points=dict(zero),
        hands_shown=dict(zero),
        cards_played=dict.fromkeys(players, ()),
        legacy_facts=legacy_facts,
    )


def show_order(state: State) -> list[str]:
    """The rules' counting order: from the dealer's left round to the dealer."""
    return clockwise(state.players, left_of(state.players, state.dealer), state.players)


def apply(state: State, event: dict) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over"))
    return dispatch(replace(state, transfers=(), log=()), event, EVENTS, game=NAME)


def _card(text) -> Card:
    with as_illegal_event():
        return parse_card(str(text))


def _score(state: State, player: str, points: int, line: Line) -> State:
    """Move the player's pegs; the game ends the instant someone reaches the target."""
    if points == 0:
        return replace(state, log=(*state.log, line))
    scores = dict(state.scores)
    back = dict(state.back_pegs)
    back[player] = scores[player]
    scores[player] = min(scores[player] + points, state.rules.target)
    state = replace(state, scores=scores, back_pegs=back, log=(*state.log, line))
    if scores[player] >= state.rules.target:
        return _finish(state, player)
    return state


def _update_deal(state: State, **changes) -> State:
    row = replace(state.deals[-1], **changes)
    return replace(state, deals=(*state.deals[:-1], row))


def _on_starter(state: State, event: dict) -> State:
    if state.phase != "starter":
        raise IllegalEvent(_("the starter is already cut for this deal"))
    card = _card(event.get("card"))
    if card.is_joker:
        raise IllegalEvent(_("cribbage is played without jokers"))
    state = replace(
        state, starter=str(card), phase="pegging", to_play=left_of(state.players, state.dealer)
    )
    state = _update_deal(state, starter=str(card))
    if card.rank == JACK:
        # "His heels": two to the dealer for a jack turned up.
        state = _update_deal(state, heels=2)
        line = Line(_("{player}: a jack as the starter (his heels), 2"), player=state.dealer)
        state = _score(state, state.dealer, 2, line)
    else:
        state = replace(state, log=(Line(_("Starter: {card}"), card=card.pretty),))
    return _with_next(state)


def _on_peg(state: State, event: dict) -> State:
    if state.phase not in ("pegging", "show", "crib"):
        raise IllegalEvent(_("points from the play are pegged after the starter is cut"))
    if _by_cards(state):
        raise IllegalEvent(
            _("this deal is played card by card, so the app counts its pegging points")
        )
    player, points = event["player"], event["points"]
    line = Line(_("{player} +{points}"), player=player, points=points)
    if state.phase != "pegging":
        # A point from the play remembered while the hands are counted is pegged then (no
        # muggins), and the board moves now: it can win the game before the hands still to come.
        line = Line(_("{player} +{points} (pegged late)"), player=player, points=points)
    return _with_next(_peg(state, player, points, line))


def _peg(state: State, player: str, points: int, line: Line) -> State:
    """Points scored in the play: on the deal's pegging column and on the board."""
    if points:
        pegging = dict(state.deals[-1].pegging)
        pegging[player] = pegging.get(player, 0) + points
        state = _update_deal(state, pegging=pegging)
    return _score(state, player, points, line)


def _check_pegging(state: State) -> None:
    if state.phase != "pegging" or state.shown:
        raise IllegalEvent(_("pegging comes after the starter and before the shows"))


def _by_cards(state: State) -> bool:
    return any(state.cards_played.values())


def _by_points(state: State) -> bool:
    return not _by_cards(state) and bool(state.deals[-1].pegging)


def _play_over(state: State) -> bool:
    return all(len(cards) == HAND for cards in state.cards_played.values())


# --- the play by cards ("Spelet av korten") ----------------------------------------------------


def _on_play(state: State, event: dict) -> State:
    _check_card_play(state)
    player = event["player"]
    rank = _played_rank(event["card"])
    label = RANK_LABELS[rank]
    if len(state.cards_played[player]) == HAND:
        raise IllegalEvent(_("{player} has played all four cards"), player=player)
    _check_turn(state, player)
    _check_rank_left(state, rank)
    if not state.legacy_facts:
        _check_go_kept(state, player, rank)
    pile = [RANKS[c] for c in state.count_cards]
    _check_under_31(pile, rank, label)
    peg = _peg_ranks(pile, rank)
    played = {**state.cards_played, player: (*state.cards_played[player], label)}
    state = replace(
        state,
        count_cards=(*state.count_cards, label),
        cards_played=played,
        last_to_play=player,
    )
    reasons: list[object] = [PEG_WORDS.get(r, r) for r in peg.reasons]
    points = peg.points
    if peg.count < 31 and _play_over(state):
        # "Sistan": the last of all the cards, when it does not make 31 (31 scores 2 instead).
        points += 1
        reasons.append(_("last card"))
    line = Line(_("{player} plays {card} ({count})"), player=player, card=label, count=peg.count)
    if points:
        line = Line(
            _("{player} plays {card} ({count}): {reasons}, {points}"),
            player=player,
            card=label,
            count=peg.count,
            reasons=listed(reasons),
            points=points,
        )
    state = _peg(state, player, points, line)
    if state.finished:
        return state
    if _play_over(state):
        return _with_next(replace(state, to_play=None))
    if peg.count == 31:
        # "Motståndaren till den som spelade kortet som gav 31 spelar första kortet".
        return _with_next(_new_count(state, after=player))
    return _with_next(_pass_turn(state, player))


def _on_go(state: State, event: dict) -> State:
    _check_card_play(state)
    player = event["player"]
    _check_turn(state, player)
    if not go_allowed(state):
        raise IllegalEvent(
            _("at {count} every card still fits; say go only when no card can be played"),
            count=state.count_total,
        )
    state = replace(
        state,
        said_go=(*state.said_go, player),
        gone=(*state.gone, (player, state.count_total)),
    )
    state = replace(state, log=(*state.log, Line(_("{player}: go"), player=player)))
    return _with_next(_pass_turn(state, player))


def _pass_turn(state: State, player: str) -> State:
    """After ``player`` laid a card or said go: the next player clockwise who has not said go
    and has cards plays on (``player`` himself last); if nobody can, the count ends and the
    player who laid the latest card takes 1 for go."""
    able = _able(state, state.said_go)
    if able:
        return replace(state, to_play=_after(state, player, able))
    last = state.last_to_play
    assert last is not None  # a go needs a count over 21, so somebody laid a card
    state = _peg(state, last, 1, Line(_("{player} go, 1"), player=last))
    if state.finished:
        return state
    # "den som passade först spelar ut": the next player after the one who took the go.
    return _new_count(state, after=last)


def _new_count(state: State, after: str) -> State:
    state = replace(state, count_cards=(), said_go=())
    return replace(state, to_play=_after(state, after, _able(state, ())))


def _able(state: State, said_go: Sequence[str]) -> list[str]:
    """The players who can still play on this count: cards left, no go said ("Om en spelare
    inte har fler kort på handen säger han automatiskt pass")."""
    return [p for p in state.players if len(state.cards_played[p]) < HAND and p not in said_go]


def _after(state: State, player: str, among: Sequence[str]) -> str:
    return clockwise(state.players, left_of(state.players, player), among)[0]


def _check_card_play(state: State) -> None:
    _check_pegging(state)
    if _by_points(state):
        raise IllegalEvent(
            _("this deal's pegging is recorded as points; go on with points (or undo them)")
        )
    if state.to_play is None:
        raise IllegalEvent(_("every card of this deal has been played"))


def _check_turn(state: State, player: str) -> None:
    if player != state.to_play:
        raise IllegalEvent(
            _("{due} plays next (or says go), not {player}"), due=state.to_play, player=player
        )


def _check_rank_left(state: State, rank: int) -> None:
    if not _rank_left(state, rank):
        raise IllegalEvent(
            _("there is no fifth {rank}: four are already played or cut"), rank=RANK_LABELS[rank]
        )


def _check_go_kept(state: State, player: str, rank: int) -> None:
    """A go says the player held no card that fitted under 31: every card he lays later in the
    deal was in his hand then, so none may be one that would have fitted."""
    for said, count in state.gone:
        if said == player and count + _value(rank) <= 31:
            raise IllegalEvent(
                _(
                    "{player} said go at {count}, so he held no card that fitted; "
                    "{card} would have fitted (it makes {total})"
                ),
                player=player,
                count=count,
                card=RANK_LABELS[rank],
                total=count + _value(rank),
            )


def _rank_left(state: State, rank: int) -> bool:
    """A deck has four cards of a rank, and the starter is one of them when it matches."""
    label = RANK_LABELS[rank]
    out = sum(cards.count(label) for cards in state.cards_played.values())
    out += state.starter is not None and _card(state.starter).rank == rank
    return out < 4


def playable_ranks(state: State) -> frozenset[int]:
    """The ranks the player to play may lay now: under 31, and not all four already out."""
    if state.to_play is None:
        return frozenset()
    room = 31 - state.count_total
    return frozenset(
        rank for rank in RANK_LABELS if _value(rank) <= room and _rank_left(state, rank)
    )


def go_allowed(state: State) -> bool:
    """A go only when no card can fit: past 21 (a card is worth at most 10)."""
    return state.count_total + MAX_CARD_VALUE > 31


def _played_rank(card: int | str) -> int:
    """The rank of a played card: a number 1 (ace) to 13 (king), or text naming a card or
    only its rank (``5``, ``kn``, ``5h``): the suit does not matter in the play."""
    if isinstance(card, int):
        return card
    try:
        found = parse_card(card)
    except CardError as error:
        try:
            # A rank alone ("kn", "10") is half a card to the parser: give it any suit.
            found = parse_card(f"{card} hj")
        except CardError:
            raise IllegalEvent(error.template, **error.params) from None
    if found.is_joker:
        raise IllegalEvent(_("cribbage is played without jokers"))
    return found.rank


def _on_show(state: State, event: dict) -> State:
    if state.phase not in ("pegging", "show"):
        raise IllegalEvent(_("the hands are shown after the starter is cut"))
    if _by_cards(state) and state.to_play is not None:
        raise IllegalEvent(
            _("the play is not over: {player} is to play a card or say go"),
            player=state.to_play,
        )
    player = event["player"]
    order = show_order(state)
    due = order[len(state.shown)]
    if player != due:
        raise IllegalEvent(
            _("{player} counts first: the order is {order}"), player=due, order=", ".join(order)
        )
    points, said = _show_points(state, event, crib=False)
    state = _shown(state, player, event, points)
    hands = dict(state.deals[-1].hands)
    hands[player] = points
    state = _update_deal(state, hands=hands)
    totals = dict(state.hand_points)
    totals[player] += points
    counts = dict(state.hands_shown)
    counts[player] += 1
    state = replace(
        state, phase="show", shown=(*state.shown, player), hand_points=totals, hands_shown=counts
    )
    line = (
        Line(_("{player} hand {points}: {said}"), player=player, points=points, said=said)
        if said
        else Line(_("{player} hand {points}"), player=player, points=points)
    )
    state = _score(_honour(state, player, points, event, crib=False), player, points, line)
    if not state.finished and len(state.shown) == len(state.players):
        state = replace(state, phase="crib")
    return _with_next(state)


def _honour(state: State, player: str, points: int, event: dict, crib: bool) -> State:
    """A show of 29, 28 or 24 is one of the famous hands (``engine.honours``): kept with the
    deal's number and the cards when they were given (the starter last)."""
    cards = [str(_card(c)) for c in event.get("cards") or ()]
    if cards:
        cards.append(str(state.starter))
    honour = show_honour(player, points, crib, len(state.deals), cards)
    if honour is None:
        return state
    return replace(state, honours=(*state.honours, honour))


def _on_crib(state: State, event: dict) -> State:
    if state.phase != "crib":
        raise IllegalEvent(_("the crib is counted last, after every hand"))
    points, said = _show_points(state, event, crib=True)
    state = _shown(state, None, event, points)
    state = _update_deal(state, crib=points)
    dealer = state.dealer
    line = (
        Line(_("{player} crib {points}: {said}"), player=dealer, points=points, said=said)
        if said
        else Line(_("{player} crib {points}"), player=dealer, points=points)
    )
    state = _score(_honour(state, dealer, points, event, crib=True), dealer, points, line)
    if state.finished:
        return state
    dealer = left_of(state.players, state.dealer)
    state = replace(
        state,
        dealer=dealer,
        phase="starter",
        starter=None,
        shown=(),
        deals=(*state.deals, DealRow(dealer=dealer)),
        count_cards=(),
        cards_played=dict.fromkeys(state.players, ()),
        said_go=(),
        to_play=None,
        last_to_play=None,
        shown_cards={},
        crib_cards=(),
        gone=(),
    )
    return _with_next(
        replace(state, log=(*state.log, Line(_("New deal: {player} deals"), player=dealer)))
    )


def _show_points(state: State, event: dict, crib: bool) -> tuple[int, Line | None]:
    """The points of a show, and how they are said when the cards are given."""
    given = [key for key in ("points", "cards") if event.get(key) is not None]
    if len(given) != 1:
        declared = EVENTS[event["type"]]
        raise IllegalEvent(
            _("{event} takes {points} or {cards}, not both")
            if given
            else _("{event} needs {points} or {cards}"),
            event=declared.words,
            points=declared.payload["points"].words,
            cards=declared.payload["cards"].words,
        )
    if event.get("cards") is not None:
        cards = [_card(c) for c in event["cards"]]
        breakdown = score_hand(cards, _card(state.starter), crib=crib)
        return breakdown.total, say(breakdown)
    points = event["points"]
    if points in IMPOSSIBLE_HAND_TOTALS:
        raise IllegalEvent(
            _("no hand or crib can score {points} (19, 25, 26 and 27 are impossible)"),
            points=points,
        )
    starter = _card(state.starter)
    possible = possible_totals(starter, crib)
    if points > max(possible):
        if crib:
            raise IllegalEvent(
                _("with {starter} cut, a crib scores at most {most}"),
                starter=starter.pretty,
                most=max(possible),
            )
        raise IllegalEvent(
            _("with {starter} cut, a hand scores at most {most}"),
            starter=starter.pretty,
            most=max(possible),
        )
    if points not in possible:
        if crib:
            raise IllegalEvent(
                _("with {starter} cut, no crib scores {points}"),
                starter=starter.pretty,
                points=points,
            )
        raise IllegalEvent(
            _("with {starter} cut, no hand scores {points}"),
            starter=starter.pretty,
            points=points,
        )
    return points, ""


# --- what no table can produce -------------------------------------------------------------


def _shown(state: State, player: str | None, event: dict, points: int) -> State:
    """Keep the cards of a show (``player`` None: the crib) and, unless the game was recorded
    before these checks, check that it agrees with everything else recorded for the deal."""
    cards = None
    if event.get("cards") is not None:
        cards = tuple(str(_card(c)) for c in event["cards"])
    if not state.legacy_facts:
        _check_show_facts(state, player, cards, points)
    if cards is None:
        return state
    if player is None:
        return replace(state, crib_cards=cards)
    return replace(state, shown_cards={**state.shown_cards, player: cards})


def _check_show_facts(
    state: State, player: str | None, cards: tuple[str, ...] | None, points: int
) -> None:
    starter = _card(state.starter)
    by_cards = _by_cards(state)
    if cards is not None:
        seen = {code: p for p, shown in state.shown_cards.items() for code in shown}
        for code in cards:
            if code in seen:
                raise IllegalEvent(
                    _("{card} was already counted in {player}'s hand: a deck has one {card}"),
                    card=_card(code).pretty,
                    player=seen[code],
                )
        if by_cards and player is not None:
            played = state.cards_played[player]
            if sorted(RANKS[label] for label in played) != sorted(_card(c).rank for c in cards):
                raise IllegalEvent(
                    _(
                        "{player} played {played} but shows {shown}: the four cards shown are "
                        "the four he played"
                    ),
                    player=player,
                    played=" ".join(played),
                    shown=" ".join(_card(c).pretty for c in cards),
                )
        if by_cards and player is None:
            out = Counter(RANKS[label] for shown in state.cards_played.values() for label in shown)
            out[starter.rank] += 1
            for code in cards:
                card = _card(code)
                out[card.rank] += 1
                if out[card.rank] > 4:
                    raise IllegalEvent(
                        _(
                            "{card} cannot be in the crib: the four cards of its rank were "
                            "played or cut already"
                        ),
                        card=card.pretty,
                    )
    known = {card_number(starter)}
    for shown in (*state.shown_cards.values(), state.crib_cards, cards or ()):
        known.update(card_number(_card(code)) for code in shown)
    claims = [
        Claim(state.deals[-1].hands[p], False, _ranks_played(state, p))
        for p in state.shown
        if p not in state.shown_cards
    ]
    if cards is None:
        claims.append(Claim(points, player is None, _ranks_played(state, player)))
    if facts_possible(card_number(starter), known, claims):
        return
    if cards is None and player is None:
        raise IllegalEvent(
            _(
                "the crib cannot count {points}: with {starter} cut, no four cards left by "
                "what this deal has played and shown score {points}"
            ),
            points=points,
            starter=starter.pretty,
        )
    if cards is None:
        raise IllegalEvent(
            _(
                "{player} cannot count {points}: with {starter} cut, no four cards he can "
                "have held, by what this deal has played and shown, score {points}"
            ),
            player=player,
            points=points,
            starter=starter.pretty,
        )
    counted = [
        Line(_("{player}'s {points}"), player=p, points=state.deals[-1].hands[p])
        for p in state.shown
        if p not in state.shown_cards
    ]
    raise IllegalEvent(
        _("{shown} cannot be: it leaves no four cards for {counted}, counted before"),
        shown=" ".join(_card(c).pretty for c in cards),
        counted=listed(counted, last_and=True),
    )


def _ranks_played(state: State, player: str | None) -> tuple[int, ...] | None:
    """The ranks a player laid in the play by cards (his hand's ranks), None if unknown."""
    if player is None or not _by_cards(state):
        return None
    return tuple(RANKS[label] for label in state.cards_played[player])


class Claim(NamedTuple):
    """A show given as points: the four cards behind it are not recorded."""

    points: int
    crib: bool
    ranks: tuple[int, ...] | None  # the ranks it must have (from the play), if known


# Every multiset of four ranks a deck holds (no rank five times), with its rank code.
_FOUR_RANKS = tuple(
    (ranks, Counter(ranks), _rank_code(ranks))
    for ranks in itertools.combinations_with_replacement(range(ACE, KING + 1), 4)
    if max(Counter(ranks).values()) <= 4
)
# How far a search for the cards behind the points may go before it gives the benefit of the
# doubt (a deal of many shows by points that compete for few cards): far above what any deal
# recorded at a table needs.
SEARCH_BUDGET = 200_000


class _Enough(Exception):
    pass


def facts_possible(
    starter: int, known: set[int], claims: Sequence[Claim], budget: int = SEARCH_BUDGET
) -> bool:
    """Whether four cards for each claim (card numbers 0-51) can be found, none of them among
    ``known`` (the starter and the cards shown) and none twice, each scoring its points with the
    starter and having the ranks it must have.

    Each claim is first looked for alone (most that cannot be fail there), its hands listed up
    to ``_LISTED``; the joint search then places the claims with the fewest hands first (a crib
    of 28 before a hand of 7), going through a complete list rather than the deck. Past
    ``budget`` steps the answer is yes (the benefit of the doubt)."""
    steps = [budget]
    found: list[tuple[int, Claim, list[tuple[int, ...]] | None]] = []
    try:
        for claim in claims:
            hands = list(
                itertools.islice(_hands_scoring(claim, starter, frozenset(known), steps), _LISTED)
            )
            if not hands:
                return False
            complete = len(hands) < _LISTED
            found.append((len(hands) if complete else _LISTED, claim, hands if complete else None))
        found.sort(key=lambda item: item[0])

        def search(index: int, used: frozenset[int]) -> bool:
            if index == len(found):
                return True
            _size, claim, hands = found[index]
            tries = _hands_scoring(claim, starter, used, steps) if hands is None else hands
            for hand in tries:
                steps[0] -= 1
                if steps[0] < 0:
                    raise _Enough
                if used.isdisjoint(hand) and search(index + 1, used | frozenset(hand)):
                    return True
            return False

        return search(0, frozenset(known))
    except _Enough:
        return True


# How many hands of a claim are listed before the search takes it as plentiful.
_LISTED = 400


def _hands_scoring(claim: Claim, starter: int, used: frozenset[int], steps: list[int]):
    """The four-card hands (or cribs) outside ``used`` that score the claim's points."""
    by_rank: dict[int, list[int]] = {}
    for n in range(52):
        if n not in used:
            by_rank.setdefault((n >> 2) + 1, []).append(n)
    starter_rank = _POW[(starter >> 2) + 1]
    extras = (0, 1, 5, 6) if claim.crib else (0, 1, 4, 5, 6)
    if claim.ranks is not None:
        ranks = tuple(sorted(claim.ranks))
        multisets: Iterable = ((ranks, Counter(ranks), _rank_code(ranks)),)
    else:
        multisets = _FOUR_RANKS
    for _ranks, counts, code in multisets:
        steps[0] -= 1
        if steps[0] < 0:
            raise _Enough
        if any(len(by_rank.get(rank, ())) < k for rank, k in counts.items()):
            continue
        if claim.points - RANK_POINTS[code + starter_rank] not in extras:
            continue
        choices = [itertools.combinations(by_rank[rank], k) for rank, k in counts.items()]
        for parts in itertools.product(*choices):
            steps[0] -= 1
            if steps[0] < 0:
                raise _Enough
            hand = tuple(itertools.chain.from_iterable(parts))
            if hand_points(hand, starter, claim.crib) == claim.points:
                yield hand


def _with_next(state: State) -> State:
    if state.finished:
        return state
    late_peg = () if _by_cards(state) else ("peg",)
    expected = {
        "starter": ("starter",),
        "pegging": _pegging_expected(state),
        "show": ("show", *late_peg),
        "crib": ("crib", *late_peg),
    }[state.phase]
    to_show = None
    if state.phase in ("pegging", "show"):
        to_show = show_order(state)[len(state.shown)]
    return replace(state, expected=expected, to_show=to_show)


def _pegging_expected(state: State) -> tuple[str, ...]:
    if _by_points(state):
        return ("peg", "show")
    if not _by_cards(state):
        return ("peg", "play", "show")
    return ("show",) if state.to_play is None else ("play", "go")


def _finish(state: State, winner: str) -> State:
    target = state.rules.target
    skunk_line, double_line = target - 30, target - 60
    losers = [p for p in state.players if p != winner]
    worst = min(state.scores[p] for p in losers)
    skunk = 2 if worst < double_line else 1 if worst < skunk_line else 0
    transfers = ()
    if state.rules.stake_ore > 0:
        transfers = tuple(Transfer(p, winner, state.rules.stake_ore * (1 + skunk)) for p in losers)
    details = {
        p: {"hand_points": state.hand_points[p], "hands": state.hands_shown[p]}
        for p in state.players
    }
    if skunk:
        details[winner]["skunk"] = skunk
        details[winner]["skunks_given"] = 1
        for p in losers:
            details[p]["skunks_taken"] = 1
    template = {
        0: _("{player} wins"),
        1: _("{player} wins (skunk)"),
        2: _("{player} wins (double skunk)"),
    }[skunk]
    return replace(
        state,
        finished=True,
        winner=winner,
        skunk=skunk,
        phase="over",
        expected=(),
        to_show=None,
        to_play=None,
        transfers=transfers,
        standings=placements(state.scores),
        league_details=details,
        log=(*state.log, Line(template, player=winner)),
    )


# --- the events --------------------------------------------------------------------------------

HAND = 4  # cards each player keeps for the play (six dealt, two to the crib; five and one at three)
MAX_CARD_VALUE = 10
RANK_LABELS = {rank: Card(rank, Suit.HEARTS).rank_label for rank in range(ACE, KING + 1)}
RANKS = {label: rank for rank, label in RANK_LABELS.items()}
# ``Peg.reasons`` in a log line, marked for translation.
PEG_WORDS: dict[str, Text | Line] = {
    "15": _("fifteen"),
    "31": _("thirty-one"),
    "pair": _("pair"),
    "pair royal": _("pair royal"),
    "double pair royal": _("double pair royal"),
    **{f"run of {n}": Line(_("run of {n}"), n=n) for n in range(3, 8)},
}

_POINTS = Whole(0, MAX_HAND)

EVENTS = {
    "starter": EventType(
        _on_starter, _("the starter"), {"card": need(CardName(), _("the card cut"))}
    ),
    # The quick way: the points a player pegs, as he says them.
    "peg": EventType(
        _on_peg,
        _("a peg"),
        {
            "player": need(Player(), _("the player who pegs")),
            "points": need(Whole(1, MAX_HAND), _("the points pegged")),
        },
    ),
    # The play by cards: a card by its rank (1 = ace … 13 = king) or as text; the suit is
    # not needed.
    "play": EventType(
        _on_play,
        _("a play"),
        {
            "player": need(Player(), _("the player who plays")),
            "card": need(OneOf(Whole(ACE, KING), CardName()), _("the card played")),
        },
    ),
    "go": EventType(_on_go, _("a go"), {"player": need(Player(), _("the player who says go"))}),
    "show": EventType(
        _on_show,
        _("a show"),
        {
            "player": need(Player(), _("the player who shows")),
            "points": may(_POINTS, _("the points of the hand")),
            "cards": may(CardNames(), _("the cards of the hand")),
        },
    ),
    "crib": EventType(
        _on_crib,
        _("the crib"),
        {
            "points": may(_POINTS, _("the points of the crib")),
            "cards": may(CardNames(), _("the cards of the crib")),
        },
    ),
}
EVENT_TYPES = event_types(EVENTS)
GAME = Declaration(
    KEY,
    NAME,
    MIN_PLAYERS,
    MAX_PLAYERS,
    EVENT_TYPES,
    draws_first_dealer=True,
    position=10,
)
