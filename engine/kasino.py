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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.base import (
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
    players: Sequence[str], rules: Rules = Rules(), first_dealer: str | None = None
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
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


# --- reading the payload --------------------------------------------------------------------------


def _whole(value: Any, name: str) -> int:
    if not is_whole(value):
        raise IllegalEvent(
            _("{field}: {value} is not a whole number"), field=name, value=repr(value)
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
    if not isinstance(value, Mapping):
        raise IllegalEvent(_("'{field}' must give a number for each player"), field=name)
    numbers = {}
    for player, number in value.items():
        if player not in state.players:
            raise IllegalEvent(
                _("{field}: {player} is not at the table"), field=name, player=repr(player)
            )
        if not is_whole(number):
            raise IllegalEvent(
                _("{field} of {player}: {value} is not a whole number"),
                field=name,
                player=player,
                value=repr(number),
            )
        if number < 0:
            raise IllegalEvent(
                _("{field}: {player} cannot have {count}"), field=name, player=player, count=number
            )
        numbers[player] = number
    if every:
        for player in state.players:
            if player not in numbers:
                raise IllegalEvent(
                    _("{field}: {player} is missing"), field=name, player=repr(player)
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
) -> None:
    """Card counts that cannot be: the wrong totals, or too few cards for what a player took."""
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
    _check_counts(state, cards, spades, took, took_spades, tabbar, last)
    most_cards = _most(state, event, "most_cards", _("most cards"), cards)
    most_spades = _most(state, event, "most_spades", _("most spades"), spades)

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
    aces = _whole(event.get("aces", 0), "aces")
    if not 0 <= aces <= len(ACE_SUITS):
        raise IllegalEvent(_("a deck has 4 aces; {count} cannot be taken"), count=aces)
    tabbar = _whole(event.get("tabbar", 0), "tabbar")
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

EVENTS = {
    "deal": EventType(
        _deal,
        {
            "most_cards": may(_WHO),
            "most_spades": may(_WHO),
            "big_casino": may(_WHO),
            "little_casino": may(_WHO),
            "aces": may(_Aces()),
            "last": may(_WHO),
            "tabbar": may(_COUNT),
            "cards": may(PerPlayer(Whole(0, DECK), every=True)),
            "spades": may(PerPlayer(Whole(0, SPADES), every=True)),
            "points": may(PerPlayer(Whole(0, DEAL_POINTS))),
        },
    ),
    "claim": EventType(
        _claim,
        {
            "player": need(_WHO),
            "big_casino": may(Flag()),
            "little_casino": may(Flag()),
            "aces": may(Whole(0, DECK)),
            "tabbar": may(Whole(0, DECK)),
        },
    ),
}
EVENT_TYPES = event_types(EVENTS)
