"""Stopp: capitals and pot of the basic Swedish stops game (populara_kortspel.sv.txt, "Stopp
regler"; NOTES.md ST1–ST4).

3–6 players, six cards each. Everyone starts with a capital of 10 units (club option). A deal
ends when someone plays his last card and nobody beats it; whoever still holds cards pays one
unit per card into the pot — all he has if that is less (ST1). A player whose capital is gone
(0, ST2) is out of the game; the last one in takes the pot. When the last two in a deal both go
out, nobody pays (ST3) — which is simply every hand being empty.

Design — one event per deal:

- ``{"type": "deal", "cards": {player: n, …}}``: the cards each player still in the game held
  when the deal ended (0–6; the pad's ``p_cards.s0`` fields). Every player still in is listed,
  at least one with 0 (someone went out), and nobody who is already out. The payload is
  declared in ``EVENTS``: ``dispatch`` refuses an unknown key and a count that is not 0–6 for a
  player at the table, naming it; the handler refuses what the game forbids now.
- Units are real money or counters (ST4, club option ``real_money``). With real money a unit is
  worth ``unit_ore`` (club option, default one krona: "tio enkronor"): each payment is a
  ``Transfer(player, "pot", units × unit_ore)``, and at the end ``Transfer("pot", winner, pot)``
  — so the ledger's pot account moves exactly as the game's pot. The capitals themselves are the
  players' own coins on the table and are never posted. With counters there are no transfers.
- ``capitals + pot`` is constant and nothing is ever negative. The sheet is a tuple of
  ``DealRow``. The deal passes clockwise among the players still in (the text does not say; the
  scorer picks the first dealer, G2). Standings: the winner first (score = everything on the
  table, ``players × capital``), then the others in reverse order of going out; players out in
  the same deal share a place (all have 0).

What no table can produce (issue 25; each item is refused in ``apply`` and has a worked example
in ``tests/engine/test_stopp.py``). The pad records only the cards each player still in held
when the deal ended, so these are the facts about those counts no deal of six cards each can
yield:

1. A player holding more than six cards: nobody draws ("Spelarna får 6 kort var. Resten av
   korten i leken läggs undan").
2. Every player holding cards: the deal ends only when someone has played his last card.
3. The eldest hand (förhand, the dealer's left among the players still in) holding all six:
   he leads the deal's first card ("Förhand börjar med att spela ut ett valfritt kort").
4. A player who is out of the game holding cards (he is not dealt in), or a player still in
   missing from the count.

Item 3 came with issue 25: a game stored before it replays with ``legacy_facts`` set
(``new_game(..., legacy_facts=True)``), which skips exactly that check. Within these bounds every
count is producible: the eldest hand can lead six cards nobody can beat (the aces and kings of
suits whose aces he holds), and a player can go out while others never play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.base import (
    MAX_AMOUNT_ORE,
    MAX_LIST,
    POT,
    Declaration,
    EventType,
    PerPlayer,
    Standing,
    Transfer,
    Whole,
    check_money,
    dispatch,
    event_types,
    kr,
    need,
    next_in,
    ranked,
    seat_players,
)
from engine.errors import IllegalEvent, Line, RulesError, _

KEY = "stopp"
NAME = _("Stop")
MIN_PLAYERS = 3
MAX_PLAYERS = 6
HAND = 6  # "Spelarna får 6 kort var."


@dataclass(frozen=True)
class Rules:
    capital: int = 10  # units each player starts with
    real_money: bool = True  # ST4: counters move no money
    unit_ore: int = 100  # what a unit is worth with real money

    LABELS = {
        "capital": _("Starting capital (units)"),
        "real_money": _("Play for real money"),
        "unit_ore": _("Value of a unit"),
    }

    def __post_init__(self) -> None:
        if self.capital < 1:
            raise ValueError(f"the starting capital must be at least 1 unit, not {self.capital}")
        if self.unit_ore < 0 or (self.real_money and self.unit_ore == 0):
            raise ValueError(
                f"a unit of real money must be worth at least 1 öre, not {self.unit_ore}"
            )
        check_money(self)
        # A player's whole capital is the most one payment moves (the pot, at the end, holds
        # the table's): bounded like any single amount a club chooses.
        worth = self.capital * self.unit_ore if self.real_money else 0
        if worth > MAX_AMOUNT_ORE:
            raise RulesError(
                _("a starting capital worth {amount} is more than the most allowed, {limit}"),
                amount=kr(worth),
                limit=kr(MAX_AMOUNT_ORE),
            )


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer: str
    cards: dict[str, int]  # cards left per player in the deal
    paid: dict[str, int]  # units paid into the pot (only those who paid)
    capitals: dict[str, int]  # after the deal
    pot: int  # after the deal (0 once the winner took it)
    out: tuple[str, ...] = ()  # out of the game in this deal


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    dealer: str = ""
    capitals: dict[str, int] = field(default_factory=dict)
    pot: int = 0  # units
    pot_ore: int = 0  # the pot in money (0 with counters)
    active: tuple[str, ...] = ()
    out: tuple[str, ...] = ()  # in the order they went out
    out_in_deal: dict[str, int] = field(default_factory=dict)
    sheet: tuple[DealRow, ...] = ()
    winner: str | None = None
    pot_won: int = 0  # units the winner took at the end
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ()  # new_game sets EVENT_TYPES: a deal is always next
    log: tuple[Line, ...] = ()
    legacy_facts: bool = False  # a game stored before issue 25: skip item 3


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    legacy_facts: bool = False,
) -> State:
    players, dealer = seat_players(players, NAME, MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    return State(
        players=players,
        rules=rules,
        dealer=dealer,
        capitals=dict.fromkeys(players, rules.capital),
        active=players,
        expected=EVENT_TYPES,
        legacy_facts=legacy_facts,
    )


def eldest_hand(state: State) -> str:
    """Förhand: the first player still in on the dealer's left; he leads the first card."""
    return next_in(state.players, state.dealer, state.active)


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


def _play_deal(state: State, event: Mapping[str, Any]) -> State:
    return _deal(state, _cards(state, event))


def _cards(state: State, event: Mapping[str, Any]) -> dict[str, int]:
    """The cards left per player still in (the declaration has checked the form: players at
    the table, each a whole number of cards)."""
    cards = event["cards"]
    for player, held in cards.items():
        if held > HAND:
            raise IllegalEvent(
                _("cards: {player} cannot hold {count}; a hand has {hand} cards"),
                player=player,
                count=held,
                hand=HAND,
            )
    for player in cards:
        if player not in state.active:
            raise IllegalEvent(
                _("{player} is out of the game (no capital left) and holds no cards"),
                player=player,
            )
    for player in state.active:
        if player not in cards:
            raise IllegalEvent(_("cards: how many cards did {player} have left?"), player=player)
    if all(cards[p] for p in state.active):
        raise IllegalEvent(_("somebody went out: at least one player has no cards left"))
    eldest = eldest_hand(state)
    if not state.legacy_facts and cards[eldest] == HAND:
        raise IllegalEvent(
            _("{player} cannot hold all {hand} cards: as eldest hand he led the deal's first card"),
            player=eldest,
            hand=HAND,
        )
    return {p: cards[p] for p in state.active}


def _deal(state: State, cards: dict[str, int]) -> State:
    number = len(state.sheet) + 1
    unit = state.rules.unit_ore if state.rules.real_money else 0
    capitals = dict(state.capitals)
    paid: dict[str, int] = {}
    transfers: list[Transfer] = []
    log = [Line(_("Deal {number}"), number=number)]
    for player, held in cards.items():
        amount = min(held, capitals[player])  # ST1: never below zero
        if not amount:
            continue
        paid[player] = amount
        capitals[player] -= amount
        if unit:
            transfers.append(Transfer(player, POT, amount * unit))
        log.append(
            Line(
                _("{player} pays {units} ({left} left)"),
                player=player,
                units=amount,
                left=capitals[player],
            )
        )
    if not paid:
        log.append(Line(_("Nobody pays")))
    pot = state.pot + sum(paid.values())
    fallen = tuple(p for p in state.active if capitals[p] == 0)  # ST2
    active = tuple(p for p in state.active if capitals[p] > 0)
    log += [Line(_("{player} is out"), player=p) for p in fallen]
    out_in_deal = {**state.out_in_deal, **dict.fromkeys(fallen, number)}
    winner = active[0] if len(active) == 1 else None
    won = 0
    if winner is not None:
        won = pot
        if unit and pot:
            transfers.append(Transfer(POT, winner, pot * unit))
        capitals[winner] += pot
        log.append(Line(_("{player} wins the pot ({units})"), player=winner, units=pot))
        pot = 0
    row = DealRow(number, state.dealer, dict(cards), paid, dict(capitals), pot, fallen)
    state = replace(
        state,
        capitals=capitals,
        pot=pot,
        pot_ore=pot * unit,
        active=active,
        out=(*state.out, *fallen),
        out_in_deal=out_in_deal,
        sheet=(*state.sheet, row),
        pot_won=won,
        transfers=tuple(transfers),
        log=tuple(log),
    )
    if winner is not None:
        return _finish(state, winner)
    dealer = next_in(state.players, state.dealer, active)  # whoever went out keeps capital
    return replace(
        state, dealer=dealer, log=(*state.log, Line(_("New deal: {dealer} deals"), dealer=dealer))
    )


def _finish(state: State, winner: str) -> State:
    # The winner first, then the others by when they went out, later is better.
    standings = ranked(
        state.players,
        key=lambda p: (p == winner, state.out_in_deal.get(p, 0)),
        score=state.capitals,
    )
    return replace(
        state,
        winner=winner,
        finished=True,
        standings=standings,
        expected=(),
    )


EVENTS = {
    # The cards each player still in held when the deal ended: 0 to a hand of six.
    "deal": EventType(
        _play_deal,
        _("a deal"),
        {"cards": need(PerPlayer(Whole(0, MAX_LIST)), _("the cards left in each hand"))},
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
    position=100,
)
