"""President (Trouduc with the joker variant): placement points over several deals
(populara_kortspel.sv.txt — the section whose Swedish name for the game the app does not use;
NOTES.md PR1–PR3).

3–6 players, one deck. Players try to get rid of their cards; the order in which they go out is
what scores. The first out gets one point less than the number of players, the next one less,
and so on down to 1 for the second-last; the one left holding cards gets 0 (PR2). The game is
played to a target agreed beforehand — 15 or 25 (club option ``target``). Trouduc (club option):
2 points to the first out, 1 to the second, 0 to the rest, first to 11 (PR3; its own option
``trouduc_target``, 11 the only value the text gives — a Trouduc game does not read ``target``,
which the start form sends with every game). Any other target is refused.

Design — the pad records only the order of going out:

- ``{"type": "out", "player": p}``: the next player to go out in the deal being recorded (one
  tap each). When all but one are out, the last one is known and the deal is scored.
- ``{"type": "deal", "order": [p, …]}``: a whole deal at once — every player in the order they
  went out (the last may be left out). Refused while a deal is being recorded tap by tap.
- After a deal the players at or above the target: none — play on; otherwise the highest total
  wins (PR1), and equal totals go to the most points in the last deal (the text's tie-break). In
  President those last-deal points are all different, in Trouduc two players tied on total
  cannot both have scored 0 in the last deal (they would have been at the target before), so
  there is always one winner. Standings rank everyone by (total, last deal's points).
- The last player of a deal deals the next one and the president leads ("från och med den andra
  given är det … [den siste] som ska … dela ut"); the state shows both, and the card exchange
  between them happens at the table. No money (``transfers`` is always empty).

What no table can produce (issue 25; each item is refused in ``apply`` and has a worked example
in ``tests/engine/test_president.py``). The pad records only the order of going out, so the facts
of a deal a deck cannot yield are:

1. A player going out twice in a deal (a player with no cards has nothing to play).
2. An order that leaves out anyone but the last, or names someone not at the table: every player
   is dealt cards ("så långt leken räcker", 3–6 players: at least eight each) and goes out or
   is left with them.

Every order of the players is producible, in every deal: passing is always allowed ("antingen
säga ”Pass” … eller lägga ut"), so a deal where the player meant to go out k-th holds the four
cards of the k-th highest rank lets him take the lead with one of them once those before him
are out, and lay his hand one set at a time while the others pass. The cards themselves (sets
of equal rank beating the last, the exchange between president and last) are not recorded, so
nothing more is checked; ``tests/engine/simulate/president.py`` plays real deals and every
permutation is enumerated in its test. ``legacy_facts`` is accepted for the data migration's
sake and changes nothing: issue 25 added no check here.

Calculators: ``placement_points``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.base import (
    MAX_LIST,
    Declaration,
    EventType,
    Kind,
    Player,
    Standing,
    Transfer,
    dispatch,
    event_types,
    is_whole,
    need,
    ranked,
    seat_players,
)
from engine.errors import IllegalEvent, Line, RulesError, _

KEY = "president"
NAME = _("President")
MIN_PLAYERS = 3
MAX_PLAYERS = 6

TARGETS = (15, 25)  # President: "t.ex. 15 eller 25 poäng"
TROUDUC_TARGET = 11  # Trouduc: "först till 11 poäng sammanlagt vinner" (PR3)
TROUDUC_TARGETS = (TROUDUC_TARGET,)


@dataclass(frozen=True)
class Rules:
    target: int = 15  # President's target; a Trouduc game plays to ``trouduc_target``
    trouduc: bool = False  # 2 / 1 / 0 points (PR3)
    trouduc_target: int = TROUDUC_TARGET  # Trouduc's own target, its only documented one

    CHOICES = {"target": TARGETS, "trouduc_target": TROUDUC_TARGETS}
    LABELS = {
        "target": _("President: play to"),
        "trouduc": _("Trouduc: 2/1/0 points"),
        "trouduc_target": _("Trouduc: play to"),
    }
    CHOICE_LABELS = {
        "target": {15: _("15 points"), 25: _("25 points")},
        "trouduc_target": {TROUDUC_TARGET: _("11 points")},
    }

    def __post_init__(self) -> None:
        for name, game in (("target", "President"), ("trouduc_target", "Trouduc")):
            value = getattr(self, name)
            if isinstance(value, str) and value.strip().isdecimal():
                value = int(value)  # the start form's select sends the choice as text
            if not is_whole(value) or value not in self.CHOICES[name]:
                # A Trouduc target is refused with or without Trouduc: each is one of its own.
                raise RulesError(
                    _("{game} is played to {choices} points, not {value}"),
                    game=game,
                    choices=" / ".join(str(c) for c in self.CHOICES[name]),
                    value=repr(value),
                )
            object.__setattr__(self, name, value)

    @property
    def playing_to(self) -> int:
        """The target of the game being played: Trouduc's own, or President's."""
        return self.trouduc_target if self.trouduc else self.target


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer: str
    order: tuple[str, ...]  # first out … last (the one left with cards)
    points: dict[str, int]
    scores: dict[str, int]  # running totals after this deal


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    target: int = 15
    dealer: str = ""
    scores: dict[str, int] = field(default_factory=dict)
    pending: tuple[str, ...] = ()  # players out so far in the deal being tapped in
    sheet: tuple[DealRow, ...] = ()
    president: str | None = None  # first out in the last deal
    last: str | None = None  # left with cards in the last deal
    winner: str | None = None
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ()  # new_game sets EVENT_TYPES
    log: tuple[Line, ...] = ()
    legacy_facts: bool = False  # a game stored before issue 25 (no check of this game differs)


def placement_points(players: int, trouduc: bool = False) -> tuple[int, ...]:
    """Points by place of going out, first to last (PR2; Trouduc 2 / 1 / 0)."""
    if trouduc:
        return tuple(max(2 - place, 0) for place in range(players))
    return tuple(range(players - 1, -1, -1))


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    legacy_facts: bool = False,
) -> State:
    players, dealer = seat_players(players, NAME, MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    return State(
        legacy_facts=legacy_facts,
        players=players,
        rules=rules,
        target=rules.playing_to,
        dealer=dealer,
        scores=dict.fromkeys(players, 0),
        expected=EVENT_TYPES,
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


def _out(state: State, event: Mapping[str, Any]) -> State:
    player = event["player"]
    if player in state.pending:
        raise IllegalEvent(
            _("{player} has already gone out in this deal (number {place})"),
            player=player,
            place=state.pending.index(player) + 1,
        )
    pending = (*state.pending, player)
    if len(pending) == len(state.players) - 1:
        last = next(p for p in state.players if p not in pending)
        return _score(replace(state, pending=()), (*pending, last))
    return replace(
        state,
        pending=pending,
        transfers=(),
        expected=("out",),
        log=(Line(_("{player} goes out as number {place}"), player=player, place=len(pending)),),
    )


def _whole_deal(state: State, event: Mapping[str, Any]) -> State:
    order = event["order"]
    if state.pending:
        raise IllegalEvent(
            _(
                "a deal is being recorded player by player; finish it (or undo) before giving "
                "a whole order"
            )
        )
    for player in order:
        if player not in state.players:
            raise IllegalEvent(
                _("order: {player} is not a player in this game"), player=repr(player)
            )
        if order.count(player) > 1:
            raise IllegalEvent(
                _("order: {player} is listed twice; each player goes out once"), player=player
            )
    n = len(state.players)
    if len(order) not in (n - 1, n):
        raise IllegalEvent(
            _(
                "the order must list all {players} players as they went out (the last may be "
                "left out), not {count}"
            ),
            players=n,
            count=len(order),
        )
    last = [p for p in state.players if p not in order]
    return _score(state, (*order, *last))


def _score(state: State, order: tuple[str, ...]) -> State:
    number = len(state.sheet) + 1
    points = dict(zip(order, placement_points(len(order), state.rules.trouduc), strict=True))
    scores = {p: state.scores[p] + points[p] for p in state.players}
    row = DealRow(number, state.dealer, order, points, scores)
    president, last = order[0], order[-1]
    log = (
        Line(_("Deal {number}: {points}"), number=number, points=_points_line(order, points)),
        Line(_("{president} is president, {last} is last"), president=president, last=last),
    )
    state = replace(
        state,
        scores=scores,
        pending=(),
        sheet=(*state.sheet, row),
        president=president,
        last=last,
        dealer=last,
        transfers=(),
        expected=EVENT_TYPES,
        log=log,
    )
    reached = [p for p in state.players if scores[p] >= state.target]
    if not reached:
        return state
    return _finish(state, points)


def _points_line(order: Sequence[str], points: Mapping[str, int]) -> Line:
    """ "a +3, b +2, c +1, d +0" as nested lines, so each seat key is shown as a name."""
    first = Line(_("{player} +{points}"), player=order[0], points=points[order[0]])
    if len(order) == 1:
        return first
    return Line(_("{first}, {rest}"), first=first, rest=_points_line(order[1:], points))


def _finish(state: State, last_points: dict[str, int]) -> State:
    standings = ranked(
        state.players, key=lambda p: (state.scores[p], last_points[p]), score=state.scores
    )
    winner = standings[0].player
    return replace(
        state,
        winner=winner,
        finished=True,
        standings=standings,
        expected=(),
        log=(
            *state.log,
            Line(_("{player} wins ({score})"), player=winner, score=state.scores[winner]),
        ),
    )


@dataclass(frozen=True)
class _Order(Kind):
    """A list of player keys: who is not at the table or is listed twice, ``_whole_deal`` says
    (a more telling message than the kind's)."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return (
            isinstance(value, list | tuple)
            and len(value) <= MAX_LIST
            and all(isinstance(player, str) for player in value)
        )

    def describe(self) -> Any:
        return _("the players in the order they went out")


EVENTS = {
    "out": EventType(
        _out, _("a player going out"), {"player": need(Player(), _("the player who went out"))}
    ),
    "deal": EventType(
        _whole_deal, _("a whole deal"), {"order": need(_Order(), _("the order of going out"))}
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
    position=110,
)
