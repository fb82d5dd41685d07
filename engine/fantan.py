"""Fan tan ("Sjuan"): the order in which players go out, placement points, and chips as a club
option (populara_kortspel.sv.txt, "Fan tan regler").

3–7 players, the whole deck dealt out from the dealer's left (some get a card more). Players
build the suits up and down from the sevens; whoever first gets rid of his cards has won. In
free fan tan (``variant="free"``) any card may start a suit and suits are built upwards round
the corner; that changes the play, not what the pad records.

Design — the pad records who goes out, one tap each:

- ``{"type": "out", "player": p}`` — p played his last card. With ``play_on`` (default) the
  others play on to settle the remaining places and the deal ends when one player is left (he is
  last). Without it the deal ends when the winner goes out and the others are ranked by the
  cards they hold (equal counts share a place).
- ``{"type": "cards_left", "cards": {p: n, …}}`` — when the winner has gone out and the cards
  matter (chips, or ``play_on`` off): how many cards each player still in holds (1 up to his
  hand size).
- ``{"type": "pass", "player": p}`` — only when playing for chips, before anyone is out.

The payloads are declared in ``EVENTS``: ``dispatch`` refuses an unknown key, a missing one and a
value of the wrong kind, naming it; the handlers refuse what the game forbids now.

Placement points per deal: n − 1 for the first out down to 0 for the last; a tie in cards left
gives each the number of players ranked below them. A game is ``deals`` deals (default 1, the
rules text: the first out has won); the totals give the standings (ties share).

Chips (club option, ``chip_ore`` > 0; the rules text names no stakes, so 0 — no money — is the
default). The common "play or pay" stakes: each player antes a chip per deal, each pass puts a
chip into the pot, and when someone goes out each other player pays a chip per card left and
the winner takes the pot. Passes are transfers to ``pot`` as they happen; the antes, the card
chips and the payout are one settlement when the cards left are recorded, so the pot is empty
again after every deal and never negative. Passes after the winner went out cost nothing.
``league_details`` counts ``firsts`` (deals won).

What no table can produce (issue 25; each item is refused in ``apply`` and has a worked example
in ``tests/engine/test_fantan.py``). The pad records who goes out, the passes while playing for
chips and the cards left; these are the facts about them no deal of one deck can yield:

1. A player going out twice in a deal, or a pass, count or out from a player already out.
2. A player still in holding no card, or more than he was dealt (the deck dealt one at a time
   from the dealer's left: 52 ÷ players, the first ones a card more).
3. Turns that do not go round: a turn is one card played or a pass ("lägga ut ett kort varje gång
   det är ens tur, eller passa"), every pass before the winner went out is recorded when playing
   for chips, and the turns go clockwise from the player who laid the first seven until the
   winner plays his last card. So each other player had as many turns as the winner or one
   fewer: his passes plus the cards he played (dealt less left) are the winner's passes plus his
   whole hand, or one less. (Players before the first seven, who had none, are skipped in the
   first round; whether or not the table records that as a pass, the bound holds.) In free fan
   tan a turn lays one card or a run of several, so a player's turns are his passes plus one to
   as many as the cards he played, and the winner's his passes plus one to his hand; some count
   of turns for the winner must leave every other player his or one fewer.

Item 3 came with issue 25: a game stored before it replays with ``legacy_facts`` set
(``new_game(..., legacy_facts=True)``), which skips exactly that check. Without chips the passes
are not recorded, so the cards left alone are bounded only by item 2 (the winner may have passed
any number of times).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from engine.base import (
    POT,
    Declaration,
    EventType,
    PerPlayer,
    Player,
    Standing,
    Transfer,
    Whole,
    check_choices,
    check_money,
    clockwise,
    dispatch,
    event_types,
    left_of,
    need,
    placements,
    seat_players,
)
from engine.errors import IllegalEvent, Line, _, listed

KEY = "fantan"
NAME = _("Fan tan")
MIN_PLAYERS = 3
MAX_PLAYERS = 7

DECK = 52
VARIANTS = ("fantan", "free")
VARIANT_NAMES = {"fantan": _("fan tan"), "free": _("free fan tan")}


@dataclass(frozen=True)
class Rules:
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"variant": VARIANTS}

    variant: Literal["fantan", "free"] = "fantan"
    deals: int = 1  # deals in a game; placement points add up
    play_on: bool = True  # play on after the winner to settle every place
    chip_ore: int = 0  # club option: the value of a chip (0: no chips, as in the rules text)

    LABELS = {
        "variant": _("Variant"),
        "deals": _("Deals per game"),
        "play_on": _("Play on to settle every place"),
        "chip_ore": _("Value of a chip (0: no chips)"),
    }
    CHOICE_LABELS = {
        "variant": {"fantan": _("Fan tan, from the sevens"), "free": _("Free fan tan")},
    }

    def __post_init__(self) -> None:
        check_choices(self)
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")
        if self.chip_ore < 0:
            raise ValueError(f"chip_ore cannot be negative ({self.chip_ore})")
        check_money(self)


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer: str
    order: tuple[str, ...]  # first out first; players ranked by cards left after the winner
    points: dict[str, int]
    cards_left: dict[str, int] = field(default_factory=dict)
    chips: dict[str, int] = field(default_factory=dict)  # net chips per player in this deal


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    dealer: str = ""
    phase: str = "play"  # "play" | "count" (the winner is out; how many cards are left?)
    out: tuple[str, ...] = ()  # this deal, in the order they went out
    cards_left: dict[str, int] = field(default_factory=dict)  # this deal, once counted
    pot_chips: int = 0  # chips in the pot this deal (passes before the winner went out)
    chips: dict[str, int] = field(default_factory=dict)  # net chips per player this deal
    points: dict[str, int] = field(default_factory=dict)  # placement points over the game
    sheet: tuple[DealRow, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ("out",)
    log: tuple[Line, ...] = ()
    league_details: dict[str, dict[str, int]] = field(default_factory=dict)
    legacy_facts: bool = False  # a game stored before issue 25: skip item 3


def hand_sizes(state: State) -> dict[str, int]:
    """Cards each player was dealt: one at a time from the dealer's left, the dealer last."""
    n = len(state.players)
    order = clockwise(state.players, left_of(state.players, state.dealer), state.players)
    return {p: DECK // n + (i < DECK % n) for i, p in enumerate(order)}


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    legacy_facts: bool = False,
) -> State:
    players, dealer = seat_players(players, "Fan tan", MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    state = State(
        players=players,
        legacy_facts=legacy_facts,
        rules=rules,
        dealer=dealer,
        chips=dict.fromkeys(players, 0),
        points=dict.fromkeys(players, 0),
        league_details={p: {"firsts": 0} for p in players},
    )
    return replace(state, expected=_expected(state))


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; nothing more can be recorded"))
    state = dispatch(replace(state, transfers=(), log=()), event, EVENTS, game=NAME)
    return state if state.finished else replace(state, expected=_expected(state))


def _expected(state: State) -> tuple[str, ...]:
    if state.phase == "count":
        return ("cards_left",)
    if state.rules.chip_ore and not state.out:
        return ("out", "pass")
    return ("out",)


def _still_in(state: State) -> list[str]:
    return [p for p in state.players if p not in state.out]


def _player(state: State, event: Mapping[str, Any]) -> str:
    player = event["player"]
    if player in state.out:
        raise IllegalEvent(_("{player} is already out this deal"), player=player)
    return player


def _needs_count(state: State) -> bool:
    return bool(state.rules.chip_ore) or not state.rules.play_on


# --- events ------------------------------------------------------------------------------------


def _pass(state: State, event: Mapping[str, Any]) -> State:
    player = _player(state, event)
    if not state.rules.chip_ore:
        raise IllegalEvent(_("this game is not played for chips, so passes are not recorded"))
    if state.out:
        raise IllegalEvent(_("the pot is already won this deal; a pass costs nothing now"))
    if state.phase == "count":
        raise IllegalEvent(_("first say how many cards each player has left"))
    chips = dict(state.chips)
    chips[player] -= 1
    return replace(
        state,
        pot_chips=state.pot_chips + 1,
        chips=chips,
        transfers=(Transfer(player, POT, state.rules.chip_ore),),
        log=(
            Line(
                _("{player} passes: 1 chip into the pot ({chips})"),
                player=player,
                chips=state.pot_chips + 1,
            ),
        ),
    )


def _out(state: State, event: Mapping[str, Any]) -> State:
    player = _player(state, event)
    if state.phase == "count":
        raise IllegalEvent(_("first say how many cards each player has left"))
    out = (*state.out, player)
    if len(out) == 1:
        variant = VARIANT_NAMES[state.rules.variant]
        line = Line(
            _("{player} goes out first and wins the deal ({variant})"),
            player=player,
            variant=variant,
        )
        state = replace(state, out=out, log=(line,))
        if _needs_count(state):
            return replace(state, phase="count")
        return state
    line = Line(_("{player} goes out as number {place}"), player=player, place=len(out))
    state = replace(state, out=out, log=(line,))
    remaining = _still_in(state)
    if len(remaining) == 1:
        return _end_deal(replace(state, out=(*out, remaining[0])), ranked_by_cards=False)
    return state


def _cards_left(state: State, event: Mapping[str, Any]) -> State:
    if state.phase != "count":
        raise IllegalEvent(_("the cards left are counted when the first player goes out"))
    given = event["cards"]
    sizes = hand_sizes(state)
    still_in = _still_in(state)
    for player in given:
        if player not in still_in:
            raise IllegalEvent(
                _("cards left: {player} is out and holds no cards"), player=repr(player)
            )
    cards = {}
    for player in still_in:
        if player not in given:
            raise IllegalEvent(_("cards left: {player} is missing"), player=repr(player))
        count = given[player]
        if not 1 <= count <= sizes[player]:
            raise IllegalEvent(
                _(
                    "cards left: {player} is still in, so he holds 1 to {most} cards "
                    "(his hand), not {count}"
                ),
                player=player,
                most=sizes[player],
                count=count,
            )
        cards[player] = count
    if state.rules.chip_ore and not state.legacy_facts:
        _check_turns(state, cards, sizes)
    state = replace(state, phase="play", cards_left=cards)
    if state.rules.chip_ore:
        state = _settle_chips(state)
    if state.rules.play_on:
        return state
    ranked = sorted(still_in, key=lambda p: cards[p])
    return _end_deal(replace(state, out=(*state.out, *ranked)), ranked_by_cards=True)


def _check_turns(state: State, cards: Mapping[str, int], sizes: Mapping[str, int]) -> None:
    """Item 3: with chips every pass before the winner went out is recorded, so the turns of
    the players still in must go round with the winner's."""
    winner = state.out[0]
    passes = {p: -state.chips[p] for p in state.players}  # a chip paid per pass, nothing else
    if state.rules.variant == "fantan":
        most = passes[winner] + sizes[winner]
        for player, left in cards.items():
            played = sizes[player] - left
            turns = passes[player] + played
            if not most - 1 <= turns <= most:
                raise IllegalEvent(
                    _(
                        "{player} had {turns} turns ({passes} passes, {played} cards played), "
                        "but {winner} went out on his turn {most} ({winner_passes} passes, "
                        "{hand} cards), so every player had {most} turns or one fewer"
                    ),
                    player=player,
                    passes=passes[player],
                    played=played,
                    turns=turns,
                    winner=winner,
                    most=most,
                    winner_passes=passes[winner],
                    hand=sizes[winner],
                )
        return
    low, high = passes[winner] + 1, passes[winner] + sizes[winner]
    spans = {
        p: (passes[p] + min(1, sizes[p] - left), passes[p] + sizes[p] - left)
        for p, left in cards.items()
    }
    if not any(all(a <= t and b >= t - 1 for a, b in spans.values()) for t in range(low, high + 1)):
        raise IllegalEvent(
            _(
                "these passes and cards left cannot be: {winner} went out after {low} to {high} "
                "turns (his passes, then one card or a run a turn), and every other player had "
                "as many turns or one fewer"
            ),
            winner=winner,
            low=low,
            high=high,
        )


def _settle_chips(state: State) -> State:
    """Antes, a chip per card left, and the whole pot to the winner, in one settlement."""
    chip = state.rules.chip_ore
    winner = state.out[0]
    transfers = []
    chips = dict(state.chips)
    pot = state.pot_chips
    for player in state.players:
        paid = 1 + state.cards_left.get(player, 0)
        transfers.append(Transfer(player, POT, paid * chip))
        chips[player] -= paid
        pot += paid
    transfers.append(Transfer(POT, winner, pot * chip))
    chips[winner] += pot
    line = Line(_("{player} takes the pot: {chips} chips"), player=winner, chips=pot)
    return replace(
        state,
        pot_chips=0,
        chips=chips,
        transfers=tuple(transfers),
        log=(*state.log, line),
    )


def _end_deal(state: State, ranked_by_cards: bool) -> State:
    order = state.out
    n = len(state.players)
    if ranked_by_cards:
        cards = {**state.cards_left, order[0]: 0}
        points = {p: sum(cards[q] > cards[p] for q in order) for p in order}
    else:
        points = {p: n - 1 - i for i, p in enumerate(order)}
    points = {p: points[p] for p in state.players}
    row = DealRow(
        number=len(state.sheet) + 1,
        dealer=state.dealer,
        order=order,
        points=points,
        cards_left=state.cards_left,
        chips=state.chips if state.rules.chip_ore else {},
    )
    totals = {p: state.points[p] + points[p] for p in state.players}
    details = {
        p: {"firsts": state.league_details[p]["firsts"] + (p == order[0])} for p in state.players
    }
    line = Line(
        _("Deal {number}: {points}"),
        number=row.number,
        points=listed(Line(_("{player} {value}"), player=p, value=points[p]) for p in order),
    )
    dealer = left_of(state.players, state.dealer)
    state = replace(
        state,
        sheet=(*state.sheet, row),
        points=totals,
        league_details=details,
        out=(),
        cards_left={},
        chips=dict.fromkeys(state.players, 0),
        dealer=dealer,
        log=(*state.log, line),
    )
    if len(state.sheet) < state.rules.deals:
        return replace(state, log=(*state.log, Line(_("New deal: {player} deals"), player=dealer)))
    standings = placements(totals)
    return replace(
        state,
        finished=True,
        standings=standings,
        expected=(),
        log=(
            *state.log,
            Line(
                _("{player} wins with {points} points"),
                player=standings[0].player,
                points=standings[0].score,
            ),
        ),
    )


EVENTS = {
    "out": EventType(
        _out, _("a player going out"), {"player": need(Player(), _("the player who went out"))}
    ),
    # The cards each player still in holds; the handler checks 1 to his hand (a whole deck is
    # the most any form can mean).
    "cards_left": EventType(
        _cards_left,
        _("the count of cards left"),
        {"cards": need(PerPlayer(Whole(0, DECK)), _("the cards each player still holds"))},
    ),
    "pass": EventType(_pass, _("a pass"), {"player": need(Player(), _("the player who passes"))}),
}
EVENT_TYPES = event_types(EVENTS)
GAME = Declaration(
    KEY,
    NAME,
    MIN_PLAYERS,
    MAX_PLAYERS,
    EVENT_TYPES,
    draws_first_dealer=True,
    position=140,
)
