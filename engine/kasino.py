"""Kasino: the Swedish fishing game, scored deal by deal to 16 (populara_kortspel.sv.txt,
"Kortspelet: Kasino"; NOTES.md KA1–KA4).

2–4 players, one 52-card deck. The pad records the outcome of each deal, not the cards played:
every card is taken by someone by the end of a deal (sistan takes what is left), so a deal is
described by who won each scoring item:

- most cards 1, most spades 2 — a tie for most voids the points (KA1: not carried over);
- storan (♦10) 2, lillan (♠2) 1, each ace 1, sistan (the last take) 1;
- each tabbe (a sweep of the table) 1.

Besides tabbar a deal hands out 11 points, 10, 9 or 8 when "most" ties void some. The first to
16 wins; when several reach 16 in the same deal the highest total wins (KA3, suggested), and an
equal highest total plays another deal (nobody was first). A player may stop play the moment he
reaches 16 with points already certain (KA2: aces, storan, lillan, tabbar so far).

Partnership play with four is a club option (KA4): partners sit opposite (seats 0 & 2 against
1 & 3); a side's items and cards are counted together, and the snapshot carries ``teams``.

Design — scores are kept per *side* (a side is one player, or two partners), so
``State.scores`` and ``DealRow.points`` are tuples aligned with ``State.sides``. Events:

- ``{"type": "deal", "most_cards": p | "tie", "most_spades": p | "tie", "big_casino": p,
  "little_casino": p, "aces": {"S": p, "H": p, "D": p, "C": p}, "last": p,
  "tabbar": {p: n, …}}`` — ``aces`` may also be a list of four players (one per ace). Instead
  of ``most_cards`` / ``most_spades`` the card counts ``cards`` / ``spades`` ({p: n}, every
  player) may be given; they are checked (52 cards, 13 spades, no more spades than cards, room
  for the scoring cards and sweeps a player took, never exactly one card: a take is at least
  two) and decide who had most. A player named for
  an item stands for his side.
- ``{"type": "deal", "points": {p: n, …}, "tabbar": {…}}`` — for tables that count themselves:
  each side's points besides tabbar; together 8–11.
- ``{"type": "claim", "player": p, "big_casino": bool, "little_casino": bool, "aces": n,
  "tabbar": n}`` — p (his side) stops play during a deal with these points certain (KA2); the
  game ends with them added.

No money changes hands (``transfers`` is always empty). ``league_details`` counts each
player's own tabbar (column ``tabbar``).

What no table can produce
-------------------------
A deal is played with one 52-card deck: 4 cards face up, the rest (24 each with two players, 16
with three, 12 with four) played from hand one at a time in turn, förhand (left of the dealer)
first, 48 plays in all. Every play either takes (the card played and at least one card from the
table) or lays out; a tabbe is a take that clears the table, so the next play lays out; sistan
(the last take) gets what is left. What a deal records must be something such a deal yields;
each is refused with a message naming the players:

1. Each scoring card is taken once, by one player: storan, lillan and each ace name one player
   (``aces`` names four, one per ace).
2. Tabbar fit the plays: a player makes at most one tabbe per card he plays (24, 16 or 12), and
   two tabbar never follow each other in the order of play, so all players together make at
   most 24. Exactly: the tabbar recorded must fit on the 48 plays, each on the player's own
   turn, none right after another, and still leave every player who took something a turn to
   take it (not right after a tabbe) and sistan a take after every other take (``_tabbar_fit``).
3. Cards taken are bounded by the deck and by the takes: a player who took anything took at
   least two cards (a take is two cards or more), at least two per tabbe, at least one per
   scoring card he took; all players' least counts together fit in 52.
4. Card counts, when given: they add up to 52 and the spade counts to 13; nobody took exactly
   one card; nobody took fewer cards than item 3 needs, more spades than cards, fewer spades
   than the spades among his scoring cards (lillan, the ace of ♠), or so many spades that his
   other cards leave no room for the scoring cards that are not spades (storan, ♥ ♦ ♣ aces).
5. Most cards and most spades agree with the counts when given; when they are not, the player
   named (or the tie) must be reachable with everything else the deal records: 13 spades cannot
   be tied between two sides (two players, or two partnerships), and a player whose rivals'
   tabbar and scoring cards need most of the deck cannot have had most cards or spades
   (``_possible``).

Not derived (a deal's record is items and counts, not cards): how many cards one take can hold
(a player whose one possible take came early is still allowed many cards), which ranks the
hands held (a sweep on every turn needs matching cards, which the deck nearly always has), and,
in partnership play, which partner took which item beyond what the turns allow (item 2 reads the
items as the side's). The simulator (``tests/engine/simulate/kasino.py``) plays real deals and
judges every mutated record with its own search of the plays and counts.

Items 2–5 beyond what earlier versions checked (the per-player tabbar bound, the counts' sums,
one card, spades within cards) were added by issue 25: a game stored before it replays with
``new_game(..., legacy_facts=True)``, which skips these checks only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.base import (
    Declaration,
    EventType,
    Flag,
    Kind,
    PerPlayer,
    Standing,
    Transfer,
    Whole,
    dispatch,
    event_types,
    is_whole,
    left_of,
    may,
    need,
    placements,
    seat_players,
)
from engine.errors import IllegalEvent, Line, _

KEY = "kasino"
NAME = _("Casino")
MIN_PLAYERS = 2
MAX_PLAYERS = 4

DECK = 52
SPADES = 13
TABLE = 4  # cards dealt face up at the start of a deal; the rest are played from hand
ACE_SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
ACE_NAMES = {
    "S": _("the ace of ♠"),
    "H": _("the ace of ♥"),
    "D": _("the ace of ♦"),
    "C": _("the ace of ♣"),
}
TIE = "tie"

# The table in the rules text: "Förutom eventuella tabbar finns alltså 11 poäng".
MOST_CARDS, MOST_SPADES, BIG_CASINO, LITTLE_CASINO, ACE, LAST = 1, 2, 2, 1, 1, 1
DEAL_POINTS = MOST_CARDS + MOST_SPADES + BIG_CASINO + LITTLE_CASINO + 4 * ACE + LAST  # 11


@dataclass(frozen=True)
class Rules:
    target: int = 16
    partnership: bool = False  # KA4: with four, partners opposite (club option)

    LABELS = {
        "target": _("Play to"),
        "partnership": _("Partners (with four)"),
    }

    def __post_init__(self) -> None:
        if self.target < 1:
            raise ValueError(f"target must be at least 1, not {self.target}")


@dataclass(frozen=True)
class DealRow:
    """One line of the score sheet. Items name the player recorded for them (None: a tie)."""

    number: int
    dealer: str
    points: tuple[int, ...]  # per side
    scores: tuple[int, ...]  # running, per side
    tabbar: dict[str, int] = field(default_factory=dict)  # per player, only those with any
    most_cards: str | None = None
    most_spades: str | None = None
    big_casino: str | None = None
    little_casino: str | None = None
    aces: tuple[str, ...] = ()  # who took ♠ ♥ ♦ ♣ A, when recorded item by item
    last: str | None = None
    claim: bool = False  # play was stopped during this deal (KA2)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    sides: tuple[tuple[str, ...], ...] = ()
    teams: dict[str, int] = field(default_factory=dict)  # only for partnership play
    dealer: str = ""
    scores: tuple[int, ...] = ()
    sheet: tuple[DealRow, ...] = ()
    winners: tuple[str, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ()  # new_game sets EVENT_TYPES
    log: tuple[Line, ...] = ()
    league_details: dict[str, dict[str, int]] = field(default_factory=dict)
    legacy_facts: bool = (
        False  # recorded before issue 25's checks (see "What no table can produce")
    )


# --- helpers the pad and tests use --------------------------------------------------------------


def side_of(state: State, player: str) -> int:
    for index, side in enumerate(state.sides):
        if player in side:
            return index
    raise IllegalEvent(_("{player} is not at the table"), player=repr(player))


def cards_played_each(players: int) -> int:
    """Cards a player plays from hand in one deal: 24 with two, 16 with three, 12 with four."""
    return (DECK - TABLE) // players


# --- the game --------------------------------------------------------------------------------


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    legacy_facts: bool = False,
) -> State:
    players, dealer = seat_players(players, NAME, MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    if rules.partnership:
        if len(players) != 4:
            raise IllegalEvent(
                _("partnership Kasino is for four players, two against two, not {count}"),
                count=len(players),
            )
        sides = ((players[0], players[2]), (players[1], players[3]))
        teams = {p: i for i, side in enumerate(sides) for p in side}
    else:
        sides = tuple((p,) for p in players)
        teams = {}
    return State(
        players=players,
        rules=rules,
        sides=sides,
        teams=teams,
        dealer=dealer,
        scores=(0,) * len(sides),
        league_details={p: {"tabbar": 0} for p in players},
        expected=EVENT_TYPES,
        legacy_facts=legacy_facts,
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


# --- reading the payload --------------------------------------------------------------------------


def _words(event: Mapping[str, Any], name: str) -> Any:
    """A field of the event in the reader's words (its declaration's), for a refusal."""
    return EVENTS[event["type"]].payload[name].words


def _whole(event: Mapping[str, Any], name: str) -> int:
    value = event.get(name, 0)
    if not is_whole(value):
        raise IllegalEvent(
            _("{field}: {value} is not a whole number"),
            field=_words(event, name),
            value=repr(value),
        )
    return value


def _one_player(state: State, value: Any, what: str, tie: bool = False) -> str | None:
    """A single player key (or "tie" where a tie is possible) for one scoring item."""
    if isinstance(value, list | tuple):
        if len(value) == 1:
            value = value[0]
        else:
            raise IllegalEvent(
                _("{what} goes to one player only, not {count}"), what=what, count=len(value)
            )
    if value is None or value == "":
        if tie:
            raise IllegalEvent(_("who had {what} (or was it a tie)?"), what=what)
        raise IllegalEvent(_("who took {what}?"), what=what)
    if tie and value == TIE:
        return None
    if value not in state.players:
        raise IllegalEvent(_("{what}: {player} is not at the table"), what=what, player=repr(value))
    return value


def _per_player(
    state: State, event: Mapping[str, Any], name: str, every: bool
) -> dict[str, int] | None:
    """A ``{player: whole number ≥ 0}`` field; None if absent. ``every``: all players needed."""
    value = event.get(name)
    if value is None:
        return None
    field = _words(event, name)
    if not isinstance(value, Mapping):
        raise IllegalEvent(_("{field} must give a number for each player"), field=field)
    numbers = {}
    for player, number in value.items():
        if player not in state.players:
            raise IllegalEvent(
                _("{field}: {player} is not at the table"), field=field, player=repr(player)
            )
        if not is_whole(number):
            raise IllegalEvent(
                _("{field} of {player}: {value} is not a whole number"),
                field=field,
                player=player,
                value=repr(number),
            )
        if number < 0:
            raise IllegalEvent(
                _("{field}: {player} cannot have {count}"), field=field, player=player, count=number
            )
        numbers[player] = number
    if every:
        for player in state.players:
            if player not in numbers:
                raise IllegalEvent(
                    _("{field}: {player} is missing"), field=field, player=repr(player)
                )
    return numbers


def _tabbar(state: State, event: Mapping[str, Any]) -> dict[str, int]:
    tabbar = _per_player(state, event, "tabbar", every=False) or {}
    most = cards_played_each(len(state.players))
    for player, count in tabbar.items():
        if count > most:
            raise IllegalEvent(
                _(
                    "{player} cannot have {count} tabbar: each player plays only {most} cards "
                    "from hand in a deal"
                ),
                player=player,
                count=count,
                most=most,
            )
    return {p: n for p, n in tabbar.items() if n}


def _aces(state: State, value: Any) -> tuple[str, ...]:
    if isinstance(value, list | tuple):
        if len(value) != len(ACE_SUITS):
            raise IllegalEvent(_("a deck has 4 aces, not {count}"), count=len(value))
        return tuple(_one_player(state, p, _("an ace")) for p in value)
    if not isinstance(value, Mapping):
        raise IllegalEvent(_("who took each ace?"))
    symbols = {v: s for s, v in SUIT_SYMBOLS.items()}
    by_suit = {}
    for suit, player in value.items():
        key = symbols.get(suit, str(suit).upper())
        if key not in ACE_SUITS:
            raise IllegalEvent(_("aces: {suit} is not a suit (S, H, D, C)"), suit=repr(suit))
        by_suit[key] = player
    return tuple(_one_player(state, by_suit.get(s), ACE_NAMES[s]) for s in ACE_SUITS)


def _most_by_count(state: State, counts: dict[str, int]) -> str | None:
    """The side with most (named by its first player), or None for a tie (KA1)."""
    totals = [sum(counts[p] for p in side) for side in state.sides]
    top = max(totals)
    if totals.count(top) > 1:
        return None
    return state.sides[totals.index(top)][0]


def _same_side(state: State, a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return a is b
    return side_of(state, a) == side_of(state, b)


def _most(
    state: State, event: Mapping[str, Any], item: str, what: str, counts: dict[str, int] | None
) -> str | None:
    named = event.get(item)
    if counts is None:
        return _one_player(state, named, what, tie=True)
    derived = _most_by_count(state, counts)
    if named not in (None, "") and not _same_side(
        state, _one_player(state, named, what, tie=True), derived
    ):
        if derived is None:
            raise IllegalEvent(
                _("the counts say a tie had {what}, not {named}"), what=what, named=named
            )
        raise IllegalEvent(
            _("the counts say {player} had {what}, not {named}"),
            player=derived,
            what=what,
            named=named,
        )
    return derived


def _check_counts(
    state: State,
    cards: dict[str, int] | None,
    spades: dict[str, int] | None,
    took: dict[str, int],
    took_spades: dict[str, int],
    tabbar: dict[str, int],
    last: str,
    facts: bool = True,
) -> None:
    """Card counts that cannot be: the wrong totals, or too few cards for what a player took.
    ``facts``: also the checks issue 25 added (not for a legacy game)."""
    if cards is not None:
        if sum(cards.values()) != DECK:
            raise IllegalEvent(
                _(
                    "the card counts add up to {count}, but all {deck} cards are "
                    "taken by the end of a deal"
                ),
                count=sum(cards.values()),
                deck=DECK,
            )
        for player, count in cards.items():
            # A take is the card played and at least one from the table; a tabbe is a take.
            if count == 1:
                raise IllegalEvent(
                    _(
                        "{player} took 1 card: a take is a card from the hand and at least one "
                        "from the table, so a player takes no cards or at least two"
                    ),
                    player=player,
                )
            needed = max(took.get(player, 0), 2 * tabbar.get(player, 0), 2 if player == last else 0)
            if count < needed:
                raise IllegalEvent(
                    _(
                        "{player} took only {count} cards, too few for the scoring cards and "
                        "tabbar recorded for him"
                    ),
                    player=player,
                    count=count,
                )
    if spades is not None:
        if sum(spades.values()) != SPADES:
            raise IllegalEvent(
                _("the spade counts add up to {count}, but a deck has {spades}"),
                count=sum(spades.values()),
                spades=SPADES,
            )
        for player, count in spades.items():
            if cards is not None and count > cards[player]:
                raise IllegalEvent(
                    _("{player} cannot have {count} spades among {cards} cards"),
                    player=player,
                    count=count,
                    cards=cards[player],
                )
            if count < took_spades.get(player, 0):
                raise IllegalEvent(
                    _(
                        "{player} took lillan or the ace of spades, so he has more than "
                        "{count} spades"
                    ),
                    player=player,
                    count=count,
                )
            others = took.get(player, 0) - took_spades.get(player, 0)
            if facts and cards is not None and cards[player] - count < others:
                raise IllegalEvent(
                    _(
                        "{player} took {cards} cards, {count} of them spades: that leaves no "
                        "room for the {others} scoring cards recorded for him that are not "
                        "spades (storan, the aces of ♥ ♦ ♣)"
                    ),
                    player=player,
                    cards=cards[player],
                    count=count,
                    others=others,
                )


# --- what no table can produce (issue 25) ---------------------------------------------------------

PLAYS = DECK - TABLE  # 48 plays from hand in a deal


def _least_cards(took: int, tabbar: int, last: bool) -> int:
    """The fewest cards a player can have taken: a take is two cards or more, a tabbe is a take,
    each scoring card is one card."""
    if not (took or tabbar or last):
        return 0
    return max(2, took, 2 * tabbar)


def _least_side(state: State, side: tuple[str, ...], took, tabbar, last: str) -> int:
    """The fewest cards a side can have taken: partners share its scoring cards and sistan as
    it suits them best (the items name the side)."""
    if len(side) == 1:
        p = side[0]
        return _least_cards(took.get(p, 0), tabbar.get(p, 0), p == last)
    a, b = side
    items = took.get(a, 0) + took.get(b, 0)
    has_last = last in side
    return min(
        _least_cards(x, tabbar.get(a, 0), lst) + _least_cards(items - x, tabbar.get(b, 0), not lst)
        if has_last
        else _least_cards(x, tabbar.get(a, 0), False)
        + _least_cards(items - x, tabbar.get(b, 0), False)
        for x in range(items + 1)
        for lst in (True, False)
    )


def _tabbar_fit(state: State, tabbar: dict[str, int], takers: set[int], last: str) -> str | None:
    """Whether the tabbar fit on the deal's 48 plays (item 2): None if they do; ``"tabbar"`` if
    the tabbar alone cannot; ``"takes"`` if they leave a side that took cards (``takers``, side
    indices) no turn to take or sistan's side (``last``) no take after every other take. A side
    is one player, or two partners (either may have made the side's takes).

    The plays go round from förhand; at each a player lays out, takes some of the table (it
    holds at least two cards), or takes all of it (a tabbe: the table holds at least one). The
    table is tracked up to four cards (four or more: anything may be left)."""
    players = state.players
    n = len(players)
    start = players.index(left_of(players, state.dealer))
    order = [players[(start + k) % n] for k in range(n)]
    wanted = tuple(tabbar.get(p, 0) for p in order)
    if sum(wanted) > PLAYS // 2 or any(t > PLAYS // n for t in wanted):
        return "tabbar"
    side = [side_of(state, p) for p in order]
    sistan = side_of(state, last)
    needs = sum(1 << i for i in takers)

    def search(with_takes: bool) -> bool:
        seen: set[tuple] = set()

        def go(i: int, table: int, left: tuple[int, ...], need: int, closed: bool) -> bool:
            if i == PLAYS:
                return closed or not with_takes
            key = (i, table, left, need, closed)
            if key in seen:
                return False
            seen.add(key)
            plays_left = PLAYS - i
            if sum(left) > (plays_left + 1) // 2:
                return False
            k = i % n
            if any(t > (plays_left - (j - k) % n + n - 1) // n for j, t in enumerate(left)):
                return False
            can_close = with_takes and side[k] == sistan and not closed
            if not closed and table >= 1 and left[k]:
                after = (*left[:k], left[k] - 1, *left[k + 1 :])
                rest = need & ~(1 << side[k])
                if can_close and not any(after) and not rest and go(i + 1, 0, after, 0, True):
                    return True
                if go(i + 1, 0, after, rest, False):
                    return True
            if with_takes and not closed and table >= 2:
                rest = need & ~(1 << side[k])
                if can_close and not any(left) and not rest and go(i + 1, 1, left, 0, True):
                    return True
                for keep in range(min(table, 4), 0, -1):
                    if (keep < table or table == 4) and go(i + 1, keep, left, rest, False):
                        return True
            return go(i + 1, min(table + 1, 4), left, need, closed)

        return go(0, TABLE, wanted, needs if with_takes else 0, False)

    if not search(False):
        return "tabbar"
    if not search(True):
        return "takes"
    return None


def _fits(values: Sequence[int], claim: int | str | None) -> bool:
    """Whether per-side counts agree with a "most" item: a side's index, ``TIE``, or None."""
    if claim is None:
        return True
    top = max(values)
    if claim == TIE:
        return values.count(top) > 1
    return values[claim] == top and values.count(top) == 1


def _cards_reachable(least: Sequence[int], claim: int | str | None) -> bool:
    """Whether the sides can have taken 52 cards, each at least ``least`` (and never exactly one:
    a side that took any took two), agreeing with the most-cards item ``claim``."""
    total = sum(least)
    if total > DECK:
        return False
    if claim is None:
        return True
    if claim != TIE:
        others = [v for i, v in enumerate(least) if i != claim]
        mine = DECK - sum(others)  # every card the others need not take
        return mine > max(others)
    for a in range(len(least)):
        for b in range(a + 1, len(least)):
            others = [v for i, v in enumerate(least) if i not in (a, b)]
            for v in range(max(least[a], least[b], 2), DECK // 2 + 1):
                rest = DECK - 2 * v
                if all(o <= v for o in others) and sum(others) <= rest <= v * len(others):
                    return True
    return False


def _spade_splits(low: Sequence[int], high: Sequence[int], total: int = SPADES):
    """Every split of ``total`` among the sides within [low, high]."""
    if len(low) == 1:
        if low[0] <= total <= high[0]:
            yield (total,)
        return
    for v in range(low[0], min(high[0], total) + 1):
        for rest in _spade_splits(low[1:], high[1:], total - v):
            yield (v, *rest)


def _possible(
    state: State,
    least: list[int],
    spade_cards: dict[str, int],
    other_cards: dict[str, int],
    cards: dict[str, int] | None,
    spades: dict[str, int] | None,
    most_cards: int | str | None,
    most_spades: int | str | None,
) -> bool:
    """Whether per-side card and spade counts exist that agree with everything recorded (item 5):
    52 cards and 13 spades, each side at least its least cards and its scoring spades, room
    beside its spades for its scoring cards that are not spades, and the "most" items (a side's
    index, ``TIE``, or None for no claim). Counts given fix the side's numbers."""
    sides = state.sides
    need = least
    low = [sum(spade_cards.get(p, 0) for p in side) for side in sides]
    room = [sum(other_cards.get(p, 0) for p in side) for side in sides]
    fixed_cards = [sum(cards[p] for p in side) for side in sides] if cards else None
    if spades is not None:
        splits = [tuple(sum(spades[p] for p in side) for side in sides)]
    else:
        high = [c - r for c, r in zip(fixed_cards, room, strict=True)] if fixed_cards else None
        splits = _spade_splits(low, high or [SPADES] * len(sides))
    for split in splits:
        if not _fits(split, most_spades):
            continue
        floor = [max(n, s + r) for n, s, r in zip(need, split, room, strict=True)]
        if fixed_cards is not None:
            if all(c >= f for c, f in zip(fixed_cards, floor, strict=True)):
                return True
        elif _cards_reachable([f if f != 1 else 2 for f in floor], most_cards):
            return True
    return False


def _claim_index(state: State, named: str | None, counts: dict[str, int] | None):
    """A "most" item as ``_possible`` reads it: None when counts decide it, else the side."""
    if counts is not None:
        return None
    return TIE if named is None else side_of(state, named)


def _check_facts(
    state: State,
    took: dict[str, int],
    took_spades: dict[str, int],
    tabbar: dict[str, int],
    last: str,
    cards: dict[str, int] | None,
    spades: dict[str, int] | None,
    most_cards: str | None,
    most_spades: str | None,
) -> None:
    """Items 2, 3 and 5 of "What no table can produce"."""
    least = [_least_side(state, side, took, tabbar, last) for side in state.sides]
    takers = {i for i, n in enumerate(least) if n}
    fit = _tabbar_fit(state, tabbar, takers, last)
    counts = _joined(
        [Line(_("{player} {count}"), player=p, count=n) for p, n in tabbar.items()] or ["0"],
        _("{first}, {rest}"),
    )
    if fit == "tabbar":
        raise IllegalEvent(
            _(
                "tabbar {counts} cannot all be taken in one deal: a deal has {plays} plays, each "
                "player sweeps only on his own turn, and after a tabbe the next player must lay "
                "out"
            ),
            counts=counts,
            plays=PLAYS,
        )
    if fit == "takes":
        raise IllegalEvent(
            _(
                "with tabbar {counts}, {player} (sistan) or another player who took cards has no "
                "turn left to take them: after a tabbe the next player must lay out, and sistan "
                "is the last take"
            ),
            counts=counts,
            player=last,
        )
    spade_cards = took_spades
    other_cards = {p: took.get(p, 0) - took_spades.get(p, 0) for p in state.players}
    args = (state, least, spade_cards, other_cards, cards, spades)
    if not _possible(*args, None, None):
        raise IllegalEvent(
            _(
                "what is recorded for this deal needs more cards than a deck of {deck} has: "
                "every take is the card played and at least one from the table, a tabbe is a "
                "take, and each scoring card is one card"
            ),
            deck=DECK,
        )
    spade_claim = _claim_index(state, most_spades, spades)
    if not _possible(*args, None, spade_claim):
        if spade_claim == TIE and len(state.sides) == 2:
            raise IllegalEvent(
                _(
                    "most spades cannot be tied between {first} and {second}: {spades} spades "
                    "do not split evenly in two"
                ),
                first=_side_name(state, 0),
                second=_side_name(state, 1),
                spades=SPADES,
            )
        if spade_claim == TIE:
            raise IllegalEvent(
                _("most spades cannot have been tied with what else is recorded for this deal")
            )
        raise IllegalEvent(
            _("{player} cannot have had most spades with what else is recorded for this deal"),
            player=most_spades,
        )
    card_claim = _claim_index(state, most_cards, cards)
    if not _possible(*args, card_claim, spade_claim):
        if card_claim == TIE:
            raise IllegalEvent(
                _("most cards cannot have been tied with what else is recorded for this deal")
            )
        raise IllegalEvent(
            _("{player} cannot have had most cards with what else is recorded for this deal"),
            player=most_cards,
        )


# --- events ------------------------------------------------------------------------------------


def _deal(state: State, event: Mapping[str, Any]) -> State:
    tabbar = _tabbar(state, event)
    sides = len(state.sides)
    if event.get("points") is not None:
        return _deal_by_points(state, event, tabbar)

    big = _one_player(state, event.get("big_casino"), _("storan (♦10)"))
    little = _one_player(state, event.get("little_casino"), _("lillan (♠2)"))
    aces = _aces(state, event.get("aces"))
    last = _one_player(state, event.get("last"), _("sistan (the last take)"))
    cards = _per_player(state, event, "cards", every=True)
    spades = _per_player(state, event, "spades", every=True)
    took: dict[str, int] = {}
    for player in (big, little, *aces):
        took[player] = took.get(player, 0) + 1
    took_spades = {little: 1}
    took_spades[aces[0]] = took_spades.get(aces[0], 0) + 1  # the ace of spades is a spade
    facts = not state.legacy_facts
    _check_counts(state, cards, spades, took, took_spades, tabbar, last, facts)
    most_cards = _most(state, event, "most_cards", _("most cards"), cards)
    most_spades = _most(state, event, "most_spades", _("most spades"), spades)
    if facts:
        _check_facts(state, took, took_spades, tabbar, last, cards, spades, most_cards, most_spades)

    points = [0] * sides
    for player, value in (
        (most_cards, MOST_CARDS),
        (most_spades, MOST_SPADES),
        (big, BIG_CASINO),
        (little, LITTLE_CASINO),
        *((ace, ACE) for ace in aces),
        (last, LAST),
    ):
        if player is not None:
            points[side_of(state, player)] += value
    for player, count in tabbar.items():
        points[side_of(state, player)] += count
    row = _row(
        state,
        points,
        tabbar,
        most_cards=most_cards,
        most_spades=most_spades,
        big_casino=big,
        little_casino=little,
        aces=aces,
        last=last,
    )
    return _after_deal(state, row)


def _deal_by_points(state: State, event: Mapping[str, Any], tabbar: dict[str, int]) -> State:
    given = _per_player(state, event, "points", every=False) or {}
    points = [0] * len(state.sides)
    for player, value in given.items():
        points[side_of(state, player)] += value
    total = sum(points)
    low = DEAL_POINTS - MOST_CARDS - MOST_SPADES
    if total > DEAL_POINTS:
        raise IllegalEvent(
            _("a deal hands out at most {most} points besides tabbar, not {total}"),
            most=DEAL_POINTS,
            total=total,
        )
    if total < low:
        raise IllegalEvent(
            _(
                "a deal hands out at least {low} points besides tabbar (storan, lillan, the aces "
                "and sistan always go to someone), not {total}"
            ),
            low=low,
            total=total,
        )
    for player, count in tabbar.items():
        points[side_of(state, player)] += count
    return _after_deal(state, _row(state, points, tabbar))


def _row(state: State, points: list[int], tabbar: dict[str, int], **items) -> DealRow:
    scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
    return DealRow(
        number=len(state.sheet) + 1,
        dealer=state.dealer,
        points=tuple(points),
        scores=scores,
        tabbar=tabbar,
        **items,
    )


def _side_name(state: State, index: int) -> str | Line:
    """A side in a line: its player's seat key, or partners as a nested line (both shown as
    names)."""
    side = state.sides[index]
    if len(side) == 1:
        return side[0]
    return Line(_("{player} & {partner}"), player=side[0], partner=side[1])


def _joined(items: Sequence[str | Line], template: str) -> str | Line:
    """Items joined by ``template`` (``"{first}, {rest}"``) as nested lines."""
    if len(items) == 1:
        return items[0]
    return Line(template, first=items[0], rest=_joined(items[1:], template))


def _tied(items: Sequence[str | Line]) -> str | Line:
    """ "a and b", "a, b and c" as nested lines."""
    if len(items) == 2:
        return Line(_("{first} and {second}"), first=items[0], second=items[1])
    return Line(_("{first}, {rest}"), first=items[0], rest=_tied(items[1:]))


def _details(state: State, tabbar: dict[str, int]) -> dict[str, dict[str, int]]:
    return {
        p: {"tabbar": state.league_details.get(p, {}).get("tabbar", 0) + tabbar.get(p, 0)}
        for p in state.players
    }


def _after_deal(state: State, row: DealRow) -> State:
    scores = [
        Line(
            _("{side} {points} = {score}"),
            side=_side_name(state, i),
            points=f"{points:+d}",
            score=score,
        )
        for i, (points, score) in enumerate(zip(row.points, row.scores, strict=True))
    ]
    items = []
    if row.big_casino is not None:
        items.append(
            Line(
                _("storan {big}, lillan {little}, last take {last}"),
                big=row.big_casino,
                little=row.little_casino,
                last=row.last,
            )
        )
        items.append(
            Line(
                _("most cards {cards}, most spades {spades}"),
                cards=row.most_cards or _("tied"),
                spades=row.most_spades or _("tied"),
            )
        )
    if row.tabbar:
        counts = [Line(_("{player} {count}"), player=p, count=n) for p, n in row.tabbar.items()]
        items.append(Line(_("tabbar {counts}"), counts=_joined(counts, _("{first}, {rest}"))))
    first = Line(
        _("Deal {number}: {scores}"),
        number=row.number,
        scores=_joined(scores, _("{first} · {rest}")),
    )
    dealer = left_of(state.players, state.dealer)
    state = replace(
        state,
        scores=row.scores,
        sheet=(*state.sheet, row),
        dealer=dealer,
        transfers=(),
        league_details=_details(state, row.tabbar),
        log=(first, *items),
    )
    top = max(state.scores)
    if top < state.rules.target:
        return replace(state, log=(*state.log, Line(_("New deal: {dealer} deals"), dealer=dealer)))
    leaders = [i for i, s in enumerate(state.scores) if s == top]
    if len(leaders) > 1:
        # KA3: nobody reached the target first; another deal decides.
        line = Line(
            _("{sides} are level at {score}: one more deal decides"),
            sides=_tied([_side_name(state, i) for i in leaders]),
            score=top,
        )
        return replace(state, log=(*state.log, line))
    return _finish(state, leaders[0])


def _claim(state: State, event: Mapping[str, Any]) -> State:
    player = _one_player(state, event.get("player"), _("the claim"))
    side = side_of(state, player)
    aces = _whole(event, "aces")
    if not 0 <= aces <= len(ACE_SUITS):
        raise IllegalEvent(_("a deck has 4 aces; {count} cannot be taken"), count=aces)
    tabbar = _whole(event, "tabbar")
    if not 0 <= tabbar <= cards_played_each(len(state.players)) * len(state.sides[side]):
        raise IllegalEvent(_("{count} tabbar cannot be taken in one deal"), count=tabbar)
    certain = (
        BIG_CASINO * bool(event.get("big_casino"))
        + LITTLE_CASINO * bool(event.get("little_casino"))
        + ACE * aces
        + tabbar
    )
    total = state.scores[side] + certain
    if total < state.rules.target:
        raise IllegalEvent(
            _(
                "{side} has {score} and {certain} certain points: "
                "{total} is short of {target}; play the deal out"
            ),
            side=_side_name(state, side),
            score=state.scores[side],
            certain=certain,
            total=total,
            target=state.rules.target,
        )
    points = [0] * len(state.sides)
    points[side] = certain
    row = replace(_row(state, points, {player: tabbar} if tabbar else {}), claim=True)
    state = replace(
        state,
        scores=row.scores,
        sheet=(*state.sheet, row),
        transfers=(),
        league_details=_details(state, row.tabbar),
        log=(
            Line(
                _("{side} stops play with {total} certain points (deal {number})"),
                side=_side_name(state, side),
                total=total,
                number=row.number,
            ),
        ),
    )
    return _finish(state, side)


def _finish(state: State, winner: int) -> State:
    # Each player takes his side's score; partners are listed together.
    score = {p: state.scores[i] for i, side in enumerate(state.sides) for p in side}
    return replace(
        state,
        finished=True,
        winners=state.sides[winner],
        standings=placements(score),
        expected=(),
        log=(
            *state.log,
            Line(
                _("{side} wins with {score}"),
                side=_side_name(state, winner),
                score=state.scores[winner],
            ),
        ),
    )


# --- the payloads ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Aces(Kind):
    """Who took each ace: by suit (``{"S": p, "♥": p, …}``) or a list of four players, one per
    ace in the order S, H, D, C. A player may take several, so it is not ``Players``; which suit
    or player is wrong, ``_aces`` says."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        if isinstance(value, Mapping):
            return len(value) <= 2 * len(ACE_SUITS) and all(
                isinstance(suit, str) and isinstance(player, str) for suit, player in value.items()
            )
        return (
            isinstance(value, list | tuple)
            and len(value) <= 2 * len(ACE_SUITS)
            and all(isinstance(player, str) for player in value)
        )

    def describe(self) -> Any:
        return _("who took each ace, by suit (S, H, D, C) or as a list of four players")


@dataclass(frozen=True)
class _Named(Kind):
    """A player's key for an item (or "tie"), also as a one-player list (a form may send one);
    who is not at the table, or a list of several, ``_one_player`` says with the item's name."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        if isinstance(value, list | tuple):
            return len(value) <= len(players) and all(isinstance(p, str) for p in value)
        return isinstance(value, str)

    def describe(self) -> Any:
        return _("a player at the table")


_WHO = _Named()
_COUNT = PerPlayer(Whole(0, DECK))

_STORAN = _("storan (♦10)")
_LILLAN = _("lillan (♠2)")
_TABBAR = _("tabbar (sweeps)")

EVENTS = {
    "deal": EventType(
        _deal,
        _("a deal"),
        {
            "most_cards": may(_WHO, _("who had most cards")),
            "most_spades": may(_WHO, _("who had most spades")),
            "big_casino": may(_WHO, _STORAN),
            "little_casino": may(_WHO, _LILLAN),
            "aces": may(_Aces(), _("the aces")),
            "last": may(_WHO, _("sistan (the last take)")),
            "tabbar": may(_COUNT, _TABBAR),
            "cards": may(PerPlayer(Whole(0, DECK), every=True), _("the cards each player took")),
            "spades": may(
                PerPlayer(Whole(0, SPADES), every=True), _("the spades each player took")
            ),
            "points": may(PerPlayer(Whole(0, DEAL_POINTS)), _("the points besides tabbar")),
        },
    ),
    "claim": EventType(
        _claim,
        _("a stop at 16"),
        {
            "player": need(_WHO, _("the player who stops play")),
            "big_casino": may(Flag(), _STORAN),
            "little_casino": may(Flag(), _LILLAN),
            "aces": may(Whole(0, DECK), _("the aces taken")),
            "tabbar": may(Whole(0, DECK), _TABBAR),
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
    position=120,
)
