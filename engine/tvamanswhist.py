"""Tvåmanswhist (German whist): a match of deals between two players (populara_kortspel.sv.txt,
"Tvåmanswhist regler"; NOTES.md TW1–TW2).

Each deal is 26 tricks: in the first 13 the players build their hands from the stock (the trick
winner takes the turned-up card), then the last 13 are played with what they hold. How a deal is
won is the club's ``counting`` option:

- ``"13"`` (the rules text): only the last 13 tricks count; more of them wins (13 is odd: no tie);
- ``"26"``: all 26 count; at 13–13 the player who took the last trick wins (TW2);
- ``"points"``: each of the first 13 tricks is worth 1 point, each of the last 13 two; more
  points wins (39 in all: no tie).

TW1: the text gives no match length; the app records the winner of each deal and plays a match
the club chooses — first to ``deals_to_win`` deals won (default 3), and/or first to
``points_to_win`` counted tricks or points over the match (0 = no such target). With both at 0
the match runs until the table ends it. When both players reach the points in the same deal the
higher total wins, and at equal totals the winner of that deal. An ``end`` event stops the match
early: the players are ranked by the match's measure (deals won, or points for a points-only
match), then by the other; equal on both shares first place. Either way the result
(``standings``) goes to the league.

Events:

- ``{"type": "deal", "tricks": {p: n}}`` — counted tricks (13 or 26 in all) for one or both
  players (the other took the rest); ``"last": p`` says who took the last trick (needed at
  13–13 in the 26 count);
- ``{"type": "deal", "early": {p: n}, "late": {p: n}}`` — the ``"points"`` count: tricks of
  the first and of the last 13, each for one or both players;
- ``{"type": "end"}`` — the table ends the match now.

The deal alternates between the two. No money (``transfers`` always empty);
``league_details`` counts ``deals_won``.

What no table can produce
-------------------------
A deal is 26 tricks with one 52-card deck: 13 in the first half while the 26-card stock lasts
(two cards drawn after each trick), 13 in the second with the cards then in hand; every trick
goes to one of the two. The pad records tricks (or the halves' tricks), not the cards, so what
the deck bounds is this; each is refused naming the player:

1. Each half holds 13 tricks, shared by the two: the counted tricks add up to 13 (the last 13),
   26 (all) or, in the points count, 13 in each half — no player takes fewer than none or more
   than the half holds.
2. The last trick is one of the last 13: the player recorded as taking it took at least one of
   them (in the 13 and points counts, one of his counted or late tricks; in the 26 count, at
   least one trick), so a player who took none cannot have taken the last. Added by issue 25:
   a game stored before it replays with ``new_game(..., legacy_facts=True)``, which skips this
   check only.

Nothing else is bounded: the engine accepts every split of each half. For the last 13 this is
shown by pairs: two hands of 13 that pair up card for card in the same suit (one card of each
pair in each hand) give the leader, trick by trick, the choice to lead a pair he wins or one he
loses (the follower follows with the pair's other card), so any k of the 13, in any order, can
go to either player. The simulator (``tests/engine/simulate/tvamanswhist.py``) plays real
deals and reports how many of the (first half, last half, last trick) results it reached; the
test enumerates every record the pad can send against the rules above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from engine.base import (
    Declaration,
    EventType,
    PerPlayer,
    Player,
    Standing,
    Transfer,
    Whole,
    check_choices,
    dispatch,
    event_types,
    is_whole,
    may,
    seat_players,
)
from engine.errors import IllegalEvent, Line, _

KEY = "tvamanswhist"
NAME = _("Two-handed whist")
MIN_PLAYERS = 2
MAX_PLAYERS = 2

HALF = 13  # tricks in each half of a deal
COUNTINGS = ("13", "26", "points")
COUNTED = {"13": HALF, "26": 2 * HALF, "points": HALF + 2 * HALF}
MISSING = {
    "tricks": _("how many tricks did each player take?"),
    "early": _("how many of the first 13 tricks did each player take?"),
    "late": _("how many of the last 13 tricks did each player take?"),
}


@dataclass(frozen=True)
class Rules:
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"counting": COUNTINGS}

    counting: Literal["13", "26", "points"] = "13"
    deals_to_win: int = 3  # TW1: first to win this many deals wins the match (0: no target)
    points_to_win: int = 0  # or first to this many counted tricks/points (0: no target)

    LABELS: ClassVar[dict[str, str]] = {
        "counting": _("Counting"),
        "deals_to_win": _("Deals won to win the match (0: no target)"),
        "points_to_win": _("Tricks or points to win the match (0: no target)"),
    }
    CHOICE_LABELS: ClassVar[dict[str, dict[str, str]]] = {
        "counting": {
            "13": _("The last 13 tricks count"),
            "26": _("All 26 tricks count, the last trick decides at 13–13"),
            "points": _("1 point per trick in the first half, 2 in the second"),
        },
    }

    def __post_init__(self) -> None:
        check_choices(self)
        for name in ("deals_to_win", "points_to_win"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} cannot be negative ({getattr(self, name)})")


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer: str
    counted: dict[str, int]  # counted tricks (or points) per player
    winner: str
    last: str | None = None  # who took the last trick, when recorded
    early: dict[str, int] = field(default_factory=dict)  # "points" count: tricks per half
    late: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    dealer: str = ""
    deals_won: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    sheet: tuple[DealRow, ...] = ()
    winner: str | None = None
    ended_by_hand: bool = False
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ("deal",)
    log: tuple[Line, ...] = ()
    league_details: dict[str, dict[str, int]] = field(default_factory=dict)
    legacy_facts: bool = (
        False  # recorded before issue 25's checks (see "What no table can produce")
    )


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    legacy_facts: bool = False,
) -> State:
    players, dealer = seat_players(players, NAME, MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    zero = dict.fromkeys(players, 0)
    return State(
        players=players,
        rules=rules,
        dealer=dealer,
        deals_won=zero,
        points=dict(zero),
        legacy_facts=legacy_facts,
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the match is over; no more deals can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


def _other(state: State, player: str) -> str:
    return state.players[1 - state.players.index(player)]


def _split(state: State, event: Mapping[str, Any], name: str, total: int) -> dict[str, int]:
    """Tricks for one or both players out of ``total``; the other took the rest."""
    value = event.get(name)
    if not isinstance(value, Mapping) or not value:
        raise IllegalEvent(MISSING[name])
    field = EVENTS[event["type"]].payload[name].words
    given = {}
    for player, number in value.items():
        if player not in state.players:
            raise IllegalEvent(
                _("{field}: {player} is not at the table"), field=field, player=repr(player)
            )
        if not is_whole(number):
            raise IllegalEvent(
                _("{field}: {player} has {value}, which is not a whole number"),
                field=field,
                player=player,
                value=repr(number),
            )
        if not 0 <= number <= total:
            raise IllegalEvent(
                _("{field}: {player} cannot take {count} of {total} tricks"),
                field=field,
                player=player,
                count=number,
                total=total,
            )
        given[player] = number
    if len(given) == 1:
        ((player, number),) = given.items()
        given[_other(state, player)] = total - number
    if sum(given.values()) != total:
        raise IllegalEvent(
            _("{field}: the tricks add up to {count}, but {total} are counted"),
            field=field,
            count=sum(given.values()),
            total=total,
        )
    return {p: given[p] for p in state.players}


def _deal(state: State, event: Mapping[str, Any]) -> State:
    counting = state.rules.counting
    last = event.get("last")
    early: dict[str, int] = {}
    late: dict[str, int] = {}
    if counting == "points":
        if event.get("early") is None or event.get("late") is None:
            raise IllegalEvent(
                _(
                    "with 1 point per early trick and 2 per late trick, give the early and the "
                    "late tricks"
                )
            )
        early = _split(state, event, "early", HALF)
        late = _split(state, event, "late", HALF)
        counted = {p: early[p] + 2 * late[p] for p in state.players}
    else:
        counted = _split(state, event, "tricks", COUNTED[counting])
    if last is not None and not state.legacy_facts:
        _check_last(state, last, late or counted)
    a, b = state.players
    if counted[a] != counted[b]:
        winner = a if counted[a] > counted[b] else b
    elif last is None:
        raise IllegalEvent(_("13–13: who took the last trick? (it decides the deal)"))
    else:
        winner = last  # TW2
    row = DealRow(
        number=len(state.sheet) + 1,
        dealer=state.dealer,
        counted=counted,
        winner=winner,
        last=last,
        early=early,
        late=late,
    )
    deals_won = {p: n + (p == winner) for p, n in state.deals_won.items()}
    points = {p: n + counted[p] for p, n in state.points.items()}
    line = Line(
        _("Deal {number}: {player} wins {won}–{lost} in points · deals won {first}–{second}")
        if counting == "points"
        else _("Deal {number}: {player} wins {won}–{lost} in tricks · deals won {first}–{second}"),
        number=row.number,
        player=winner,
        won=counted[winner],
        lost=counted[_other(state, winner)],
        first=deals_won[a],
        second=deals_won[b],
    )
    state = replace(
        state,
        dealer=_other(state, state.dealer),
        deals_won=deals_won,
        points=points,
        sheet=(*state.sheet, row),
        transfers=(),
        expected=EVENT_TYPES,
        league_details={p: {"deals_won": n} for p, n in deals_won.items()},
        log=(line,),
    )
    match_winner = _match_winner(state, winner)
    if match_winner is None:
        return state
    return _finish(state, match_winner)


def _check_last(state: State, last: str, tricks: dict[str, int]) -> None:
    """Item 2: whoever took the last trick took at least one of the last 13 (``tricks``: the
    late tricks, or the counted ones)."""
    if tricks[last] == 0:
        counting = state.rules.counting
        raise IllegalEvent(
            _("{player} took none of the 26 tricks, so he cannot have taken the last")
            if counting == "26"
            else _("{player} took none of the last 13 tricks, so he cannot have taken the last"),
            player=last,
        )


def _match_winner(state: State, deal_winner: str) -> str | None:
    rules = state.rules
    reached = [
        p
        for p in state.players
        if (rules.deals_to_win and state.deals_won[p] >= rules.deals_to_win)
        or (rules.points_to_win and state.points[p] >= rules.points_to_win)
    ]
    if len(reached) < 2:
        return reached[0] if reached else None
    a, b = reached
    if state.points[a] != state.points[b]:
        return a if state.points[a] > state.points[b] else b
    return deal_winner


def _measures(state: State) -> tuple[dict[str, int], dict[str, int]]:
    """The match's measure and its tie-break: points first only in a points-only match."""
    if state.rules.points_to_win and not state.rules.deals_to_win:
        return state.points, state.deals_won
    return state.deals_won, state.points


def _end(state: State, event: Mapping[str, Any]) -> State:
    if not state.sheet:
        raise IllegalEvent(_("no deal has been recorded; there is no match to end"))
    first, second = _measures(state)
    a, b = state.players
    key = {p: (first[p], second[p]) for p in state.players}
    winner = None if key[a] == key[b] else (a if key[a] > key[b] else b)
    state = replace(
        state, ended_by_hand=True, transfers=(), log=(Line(_("The match is ended here")),)
    )
    return _finish(state, winner)


def _finish(state: State, winner: str | None) -> State:
    first, _second = _measures(state)
    if winner is None:
        standings = tuple(Standing(p, 1, first[p]) for p in state.players)
        line = Line(_("The match ends in a tie"))
    else:
        loser = _other(state, winner)
        standings = (Standing(winner, 1, first[winner]), Standing(loser, 2, first[loser]))
        line = Line(_("{player} wins the match"), player=winner)
    return replace(
        state,
        finished=True,
        winner=winner,
        standings=standings,
        expected=(),
        log=(*state.log, line),
    )


# Tricks are checked against what the counting counts (13, 26, or 13 per half) by ``_split``,
# with a message that says so; the declaration bounds them by a whole deal.
_TRICKS = PerPlayer(Whole(0, 2 * HALF))

EVENTS = {
    "deal": EventType(
        _deal,
        _("a deal"),
        {
            "tricks": may(_TRICKS, _("the tricks counted")),
            "early": may(_TRICKS, _("the tricks of the first 13")),
            "late": may(_TRICKS, _("the tricks of the last 13")),
            "last": may(Player(), _("who took the last trick")),
        },
    ),
    "end": EventType(_end, _("the end of the match")),
}
EVENT_TYPES = event_types(EVENTS)
GAME = Declaration(
    KEY,
    NAME,
    MIN_PLAYERS,
    MAX_PLAYERS,
    EVENT_TYPES,
    draws_first_dealer=True,
    position=130,
)
