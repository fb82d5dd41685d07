"""Cribbage: hand and crib calculator, pegging, a game to 121 (or 61), discard advice.

Rules: ``shared/rules/cribbage.sv.txt``.

Scoring a show
- Fifteens, pairs and runs depend only on the five ranks, so they are computed once for every
  multiset of five ranks (6,175 of them) and looked up by a rank-count code: the sum of
  ``5 ** rank`` over the cards (no rank appears five times, so the code is unique). Flush and his
  nobs are then read from the suits. ``score_hand`` gives the full breakdown people count
  aloud; ``hand_points`` is the fast path on card numbers (0-51) for enumerations.
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
  the dealer for a jack), ``peg`` events during play, then the shows in the order the rules
  count them: the player left of the dealer first, the dealer last, then the crib. A show gives
  either ``points`` or the ``cards`` (the engine counts them); points no four cards can score
  with the starter cut are refused (``IMPOSSIBLE_WITH_STARTER``: 29 needs a five, with a king
  the best is 28, and 19, 25, 26 and 27 never happen). The game ends the instant someone
  reaches the target; nothing after that counts. A loser below 91 is skunked (below 61 double
  skunked); for a game to 61 the lines are 31 and 1.
- Events: {"type": "starter", "card": "JD"}; {"type": "peg", "player": p, "points": n,
  "why": "15"}; {"type": "show", "player": p, "points": n} or {"type": "show", "player": p,
  "cards": ["5H", …]}; {"type": "crib", "points": n} or {"type": "crib", "cards": [...]}.

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
    Standing,
    Transfer,
    check_money,
    clockwise,
    is_whole,
    left_of,
    placements,
    seat_players,
)
from engine.cards import JACK, Card, Suit, as_illegal_event, parse_card, require_distinct
from engine.errors import IllegalEvent, _

KEY = "cribbage"
NAMES = {"sv": "Cribbage", "en": "Cribbage"}
MIN_PLAYERS, MAX_PLAYERS = 2, 3
EVENT_TYPES = ("starter", "peg", "show", "crib")

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

_WORDS = {
    "sv": {
        "fifteen": "femton {n}", "pair": "ett par är {n}", "pairs3": "par royal är {n}",
        "pairs4": "dubbel par royal är {n}", "run": "{k} i följd är {n}",
        "flush": "{k} i färg är {n}", "nobs": "knekten är {n}", "nothing": "inget",
        "total": "summa {n}", "run_double": "dubbel följd om {k} är {n}",
        "run_triple": "trippel följd om {k} är {n}", "run_quad": "fyrdubbel följd om {k} är {n}",
    },
    "en": {
        "fifteen": "fifteen {n}", "pair": "a pair is {n}", "pairs3": "pair royal is {n}",
        "pairs4": "double pair royal is {n}", "run": "a run of {k} is {n}",
        "flush": "a flush of {k} is {n}", "nobs": "his nobs is {n}", "nothing": "nineteen",
        "total": "total {n}", "run_double": "a double run of {k} is {n}",
        "run_triple": "a triple run of {k} is {n}", "run_quad": "a quadruple run of {k} is {n}",
    },
}  # fmt: skip


def say(breakdown: Breakdown, lang: str = "sv") -> str:
    """The breakdown as players count aloud: a running total after every step."""
    words = _WORDS.get(lang[:2], _WORDS["sv"])
    if not breakdown.items:
        return words["nothing"]
    parts: list[str] = []
    running = 0
    for _item in breakdown.of_kind("fifteen"):
        running += 2
        parts.append(words["fifteen"].format(n=running))
    pairs = breakdown.of_kind("pair")
    runs = breakdown.of_kind("run")
    if runs and len(runs) > 1:
        # A double (triple, quadruple) run is said as one: its pairs are part of it.
        running += sum(i.points for i in runs) + 2 * len(pairs)
        key = {2: "run_double", 3: "run_triple", 4: "run_quad"}.get(len(runs), "run_double")
        parts.append(words[key].format(k=len(runs[0].cards), n=running))
        pairs = ()
        runs = ()
    for group in _pair_groups(pairs):
        running += 2 * len(group)
        key = {1: "pair", 3: "pairs3", 6: "pairs4"}[len(group)]
        parts.append(words[key].format(n=running))
    for item in runs:
        running += item.points
        parts.append(words["run"].format(k=len(item.cards), n=running))
    for item in breakdown.of_kind("flush"):
        running += item.points
        parts.append(words["flush"].format(k=item.points, n=running))
    for _item in breakdown.of_kind("nobs"):
        running += 1
        parts.append(words["nobs"].format(n=running))
    return ", ".join(parts)


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
    count = sum(_value(c.rank) for c in pile) + _value(card.rank)
    if count > 31:
        raise IllegalEvent(
            _("{card} would make the count {count}, past 31: say go instead"),
            card=card.pretty,
            count=count,
        )
    cards = [*pile, card]
    points, reasons = 0, []
    if count in (15, 31):
        points += 2
        reasons.append(str(count))
    same = 1
    for earlier in reversed(pile):
        if earlier.rank != card.rank:
            break
        same += 1
    if same >= 2:
        points += {2: 2, 3: 6, 4: 12}[same]
        reasons.append({2: "pair", 3: "pair royal", 4: "double pair royal"}[same])
    for length in range(len(cards), 2, -1):
        ranks = sorted(c.rank for c in cards[-length:])
        if all(b - a == 1 for a, b in itertools.pairwise(ranks)):
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
    LABELS = {
        "target": {"sv": "Spela till", "en": "Play to"},
        "stake_ore": {"sv": "Insats per parti", "en": "Stake per game"},
    }

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
    log: tuple[str, ...] = ()
    league_details: dict[str, dict[str, int]] = field(default_factory=dict)
    hand_points: dict[str, int] = field(default_factory=dict)
    hands_shown: dict[str, int] = field(default_factory=dict)


def new_game(
    players: Sequence[str], rules: Rules = Rules(), first_dealer: str | None = None
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
    )


def show_order(state: State) -> list[str]:
    """The rules' counting order: from the dealer's left round to the dealer."""
    return clockwise(state.players, left_of(state.players, state.dealer), state.players)


def apply(state: State, event: dict) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over"))
    kind = event.get("type")
    handler = (
        {"starter": _on_starter, "peg": _on_peg, "show": _on_show, "crib": _on_crib}.get(kind)
        if isinstance(kind, str)
        else None
    )
    if handler is None:
        raise IllegalEvent(
            _("unknown event {kind}; cribbage records {types}"),
            kind=repr(kind),
            types=", ".join(EVENT_TYPES),
        )
    return handler(replace(state, transfers=(), log=()), event)


def _player(state: State, event: dict) -> str:
    player = event.get("player")
    if player not in state.players:
        raise IllegalEvent(_("{player} is not at the table"), player=repr(player))
    return player


def _card(text) -> Card:
    with as_illegal_event():
        return parse_card(str(text))


def _points(event: dict, low: int, high: int) -> int:
    points = event.get("points")
    if not is_whole(points) or not low <= points <= high:
        raise IllegalEvent(
            _("{points} is not a number of points between {low} and {high}"),
            points=repr(points),
            low=low,
            high=high,
        )
    return points


def _score(state: State, player: str, points: int, line: str) -> State:
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
    state = replace(state, starter=str(card), phase="pegging", expected=("peg", "show"))
    state = _update_deal(state, starter=str(card))
    if card.rank == JACK:
        # "His heels": two to the dealer for a jack turned up.
        state = _update_deal(state, heels=2)
        state = _score(state, state.dealer, 2, f"{state.dealer} knekt som starter, 2")
    else:
        state = replace(state, log=(f"Starter: {card.pretty}",))
    return _with_next(state)


def _on_peg(state: State, event: dict) -> State:
    if state.phase != "pegging":
        raise IllegalEvent(_("pegging comes after the starter and before the shows"))
    player = _player(state, event)
    points = _points(event, 1, 29)
    pegging = dict(state.deals[-1].pegging)
    pegging[player] = pegging.get(player, 0) + points
    state = _update_deal(state, pegging=pegging)
    why = f" ({event['why']})" if event.get("why") else ""
    return _with_next(_score(state, player, points, f"{player} +{points}{why}"))


def _on_show(state: State, event: dict) -> State:
    if state.phase not in ("pegging", "show"):
        raise IllegalEvent(_("the hands are shown after the starter is cut"))
    player = _player(state, event)
    order = show_order(state)
    due = order[len(state.shown)]
    if player != due:
        raise IllegalEvent(
            _("{player} counts first: the order is {order}"), player=due, order=", ".join(order)
        )
    points, words = _show_points(state, event, crib=False)
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
    state = _score(state, player, points, f"{player} handen {points}{words}")
    if not state.finished and len(state.shown) == len(state.players):
        state = replace(state, phase="crib")
    return _with_next(state)


def _on_crib(state: State, event: dict) -> State:
    if state.phase != "crib":
        raise IllegalEvent(_("the crib is counted last, after every hand"))
    points, words = _show_points(state, event, crib=True)
    state = _update_deal(state, crib=points)
    state = _score(state, state.dealer, points, f"{state.dealer} krubban {points}{words}")
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
    )
    return _with_next(replace(state, log=(*state.log, f"Ny giv: {dealer} ger")))


def _show_points(state: State, event: dict, crib: bool) -> tuple[int, str]:
    if "cards" in event:
        if not isinstance(event["cards"], list):
            raise IllegalEvent(
                _("the cards of a show are a list of four cards, not {cards}"),
                cards=repr(event["cards"]),
            )
        cards = [_card(c) for c in event["cards"]]
        breakdown = score_hand(cards, _card(state.starter), crib=crib)
        return breakdown.total, f": {say(breakdown)}"
    points = _points(event, 0, MAX_HAND)
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


def _with_next(state: State) -> State:
    if state.finished:
        return state
    expected = {
        "starter": ("starter",),
        "pegging": ("peg", "show"),
        "show": ("show",),
        "crib": ("crib",),
    }[state.phase]
    to_show = None
    if state.phase in ("pegging", "show"):
        to_show = show_order(state)[len(state.shown)]
    return replace(state, expected=expected, to_show=to_show)


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
    word = {0: "", 1: " (skunk)", 2: " (dubbel skunk)"}[skunk]
    return replace(
        state,
        finished=True,
        winner=winner,
        skunk=skunk,
        phase="over",
        expected=(),
        to_show=None,
        transfers=transfers,
        standings=placements(state.scores),
        league_details=details,
        log=(*state.log, f"{winner} vinner{word}"),
    )
