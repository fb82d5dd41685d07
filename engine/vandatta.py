"""Vändåtta: the score sheet of the Swedish crazy-eights game (populara_kortspel.sv.txt,
"Vändåtta"; NOTES.md V1–V3).

2–8 players, one 52-card deck (two decks, 104 cards, from five players). A deal ends when
someone plays his last card; everyone else takes minus points for the cards left in hand: an
eight −25, an ace −15, a ten or court card −10, a number card (2–7 and 9, V1) −5 — or, as a club
option, the number card's face value. The game ends as soon as someone is at −100 or lower (V2)
and the fewest minus points win (a tie shares first place). Club option: elimination — a player
at −100 or lower is out and the last one left wins.

Design — the pad records what was left in the hands, not the play. A deal is one event, or
the same thing step by step (one thumb, one question at a time):

- ``{"type": "deal", "winner": p, "eights": {p: n}, "aces": {…}, "courts": {…},
  "numbers": {…}, "pips": {…}, "penalty": {…}}``: a whole deal. Each map is keyed by player; a
  player missing from a map holds none of that category. ``courts`` counts tens and court cards
  together; ``pips`` is the summed face value of a hand's number cards (needed, and only
  allowed, with the face-value option; ``numbers`` is then optional and checks it).
  ``penalty`` is the minus points entered directly instead of the cards (either sign; under the
  standard values a multiple of five).
- ``{"type": "out", "player": p}`` then ``{"type": "hand", "player": q, "eights": n, …}`` for
  each other player still in (flat fields, the pad's ``p_eights`` …): the deal is scored when
  the last hand is in. The state offers ``to_record`` (the next hand, clockwise from the
  winner) and keeps the hands so far in ``pending``.
- Every player still in must be accounted for: the winner with nothing (zeros are fine, the pad
  sends them), every other player with at least one card. Counts are checked against the decks:
  no more eights, aces, tens/courts or number cards in all hands together than the decks hold,
  and never the whole deck (the pile keeps at least the card the winner went out on).
- The sheet is a tuple of ``DealRow`` (penalties and running totals per player still in). The
  deal passes clockwise to the next player still in (the text does not say who deals; the scorer
  picks the first dealer, G2). A finished game has ``winners`` and ``standings``: by total, fewest
  minus points first; with elimination the players still in come first, then the eliminated in
  reverse order of going out, those out in the same deal by total (V3: the deal's winner never
  takes minus points, so someone is always left). No money (``transfers`` is always empty).

Calculators: ``hand_penalty``, ``decks_for``, ``max_penalty``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.base import Standing, Transfer, clockwise, is_whole, next_in, ranked, seat_players
from engine.errors import IllegalEvent, _

KEY = "vandatta"
NAMES = {"sv": "Vändåtta", "en": "Crazy eights"}
MIN_PLAYERS = 2
MAX_PLAYERS = 8
EVENT_TYPES = ("out", "hand", "deal")
IDLE = ("out", "deal")

LIMIT = -100  # V2: "ned i −100 eller mer" = a total of −100 or lower
TWO_DECKS_FROM = 5
DECK = 52
CATEGORIES = ("eights", "aces", "courts", "numbers")
VALUES = {"eights": 25, "aces": 15, "courts": 10, "numbers": 5}
PER_DECK = {"eights": 4, "aces": 4, "courts": 16, "numbers": 28}  # courts: 10 J Q K
NUMBER_RANKS = (2, 3, 4, 5, 6, 7, 9)  # V1
PIPS_PER_DECK = 4 * sum(NUMBER_RANKS)
TOO_MANY = {
    "eights": _("{count} eights in the hands, but the game has only {most}"),
    "aces": _("{count} aces in the hands, but the game has only {most}"),
    "courts": _("{count} tens and court cards in the hands, but the game has only {most}"),
    "numbers": _("{count} number cards in the hands, but the game has only {most}"),
}
OUT_OF_GAME = _("{player} is out of the game (−100 or worse) and holds no cards")
WENT_OUT = _("{player} went out and holds no cards; leave that hand empty")
FIELDS = (*CATEGORIES, "pips", "penalty")
UNKNOWN = "unknown"  # cards behind minus points entered directly


@dataclass(frozen=True)
class Rules:
    face_value: bool = False  # number cards cost their face value instead of 5 (V1)
    elimination: bool = False  # at −100 a player is out; the last one left wins (V2, V3)

    LABELS = {
        "face_value": {"sv": "Nummerkort efter valör", "en": "Number cards at face value"},
        "elimination": {"sv": "Utslagning vid −100", "en": "Eliminated at −100"},
    }


@dataclass(frozen=True)
class DealRow:
    """One line of the score sheet: minus points (≤ 0) and totals of the players in the deal."""

    number: int
    dealer: str
    winner: str
    penalties: dict[str, int]
    totals: dict[str, int]
    eliminated: tuple[str, ...] = ()


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    decks: int = 1
    dealer: str = ""
    totals: dict[str, int] = field(default_factory=dict)
    active: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()  # in the order they went out
    out_in_deal: dict[str, int] = field(default_factory=dict)  # eliminated → deal number
    sheet: tuple[DealRow, ...] = ()
    pending_winner: str | None = None  # went out in the deal being recorded hand by hand
    pending: dict[str, int] = field(default_factory=dict)  # hands recorded so far
    pending_counts: dict[str, int] = field(default_factory=dict)  # their cards, for the decks
    to_record: str | None = None  # the next hand the pad asks for
    winners: tuple[str, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = IDLE
    log: tuple[str, ...] = ()


# --- calculators -----------------------------------------------------------------------------


def decks_for(players: int) -> int:
    """ "52 (dock 104, dvs, två lekar, om ni är fem eller flera spelare)"."""
    return 2 if players >= TWO_DECKS_FROM else 1


def hand_penalty(
    eights: int = 0,
    aces: int = 0,
    courts: int = 0,
    numbers: int = 0,
    pips: int | None = None,
    face_value: bool = False,
) -> int:
    """The minus points (≤ 0) for a hand; with ``face_value`` the number cards cost ``pips``."""
    points = VALUES["eights"] * eights + VALUES["aces"] * aces + VALUES["courts"] * courts
    points += (pips or 0) if face_value else VALUES["numbers"] * numbers
    return -points


def max_penalty(decks: int, face_value: bool = False) -> int:
    """The most a hand can cost: every card of the decks (as a positive number)."""
    numbers = (
        PIPS_PER_DECK * decks if face_value else VALUES["numbers"] * PER_DECK["numbers"] * decks
    )
    return numbers + sum(VALUES[c] * PER_DECK[c] * decks for c in ("eights", "aces", "courts"))


# --- the game --------------------------------------------------------------------------------


def new_game(
    players: Sequence[str], rules: Rules = Rules(), first_dealer: str | None = None
) -> State:
    players, dealer = seat_players(players, "Vändåtta", MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    return State(
        players=players,
        rules=rules,
        decks=decks_for(len(players)),
        dealer=dealer,
        totals=dict.fromkeys(players, 0),
        active=players,
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    kind = event.get("type")
    handler = (
        {"deal": _deal, "out": _out, "hand": _one_hand}.get(kind) if isinstance(kind, str) else None
    )
    if handler is None:
        raise IllegalEvent(
            _("unknown event type {kind}; Vändåtta records {types}"),
            kind=repr(kind),
            types=", ".join(EVENT_TYPES),
        )
    return handler(replace(state, transfers=(), log=()), event)


def _number(name: str, player: str, value: Any) -> int:
    if not is_whole(value):
        raise IllegalEvent(
            _("{field}: {player} has {value}, not a whole number"),
            field=name,
            player=player,
            value=repr(value),
        )
    if name != "penalty" and value < 0:
        raise IllegalEvent(
            _("{field}: {player} cannot hold {count} cards"), field=name, player=player, count=value
        )
    return value


def _maps(state: State, event: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """The per-player maps of a whole deal, checked for shape, players and whole numbers."""
    maps: dict[str, dict[str, int]] = {}
    for name in FIELDS:
        value = event.get(name)
        if value is None:
            maps[name] = {}
            continue
        if not isinstance(value, Mapping):
            raise IllegalEvent(_("'{field}' must map each player to a number"), field=name)
        for player, number in value.items():
            if player not in state.players:
                raise IllegalEvent(
                    _("{field}: {player} is not a player in this game"),
                    field=name,
                    player=repr(player),
                )
            _number(name, player, number)
            if player not in state.active and number:
                raise IllegalEvent(OUT_OF_GAME, player=player)
        maps[name] = dict(value)
    return maps


def _check_winner(state: State, winner: Any) -> str:
    if state.pending_winner is not None:
        raise IllegalEvent(
            _(
                "a deal is being recorded hand by hand ({player} went out); finish it "
                "(or undo) first"
            ),
            player=state.pending_winner,
        )
    if winner is None:
        raise IllegalEvent(_("say who went out (the winner of the deal)"))
    if winner not in state.players:
        raise IllegalEvent(
            _("the winner {player} is not a player in this game"), player=repr(winner)
        )
    if winner not in state.active:
        raise IllegalEvent(OUT_OF_GAME, player=winner)
    return winner


def _deal(state: State, event: Mapping[str, Any]) -> State:
    winner = _check_winner(state, event.get("winner"))
    maps = _maps(state, event)
    hands = {p: {f: maps[f].get(p, 0) for f in FIELDS} for p in state.active}
    if any(hands[winner].values()):
        raise IllegalEvent(WENT_OUT, player=winner)
    penalties = {winner: 0}
    counted = dict.fromkeys(CATEGORIES, 0)
    for player in _losers(state, winner):
        points, counts = _hand(state, player, hands[player])
        penalties[player] = points
        counted = _add_up(state, counted, counts)
    return _score(state, winner, penalties)


def _out(state: State, event: Mapping[str, Any]) -> State:
    winner = _check_winner(state, event.get("player"))
    state = replace(state, pending_winner=winner, log=(f"{winner} går ut",))
    return _next_hand(state)


def _one_hand(state: State, event: Mapping[str, Any]) -> State:
    winner = state.pending_winner
    if winner is None:
        raise IllegalEvent(_("say who went out before recording the hands"))
    player = event.get("player")
    if player not in state.players:
        raise IllegalEvent(_("{player} is not a player in this game"), player=repr(player))
    if player not in state.active:
        raise IllegalEvent(OUT_OF_GAME, player=player)
    if player == winner:
        raise IllegalEvent(WENT_OUT, player=winner)
    if player in state.pending:
        raise IllegalEvent(
            _("{player} is already recorded in this deal ({points})"),
            player=player,
            points=state.pending[player],
        )
    hand = {name: _number(name, player, event.get(name, 0)) for name in FIELDS}
    points, counts = _hand(state, player, hand)
    counted = _add_up(state, state.pending_counts, counts)
    pending = {**state.pending, player: points}
    if len(pending) < len(state.active) - 1:
        state = replace(state, pending=pending, pending_counts=counted, log=(f"{player} {points}",))
        return _next_hand(state)
    penalties = {winner: 0, **pending}
    state = replace(state, pending_winner=None, pending={}, pending_counts={}, to_record=None)
    return _score(state, winner, penalties)


def _losers(state: State, winner: str) -> list[str]:
    """The other players still in, clockwise from the winner's left."""
    return clockwise(state.players, winner, state.active)[1:]  # the winner is still in


def _next_hand(state: State) -> State:
    assert state.pending_winner is not None
    waiting = [p for p in _losers(state, state.pending_winner) if p not in state.pending]
    return replace(state, to_record=waiting[0], expected=("hand",))


def _add_up(state: State, counted: Mapping[str, int], counts: Mapping[str, int]) -> dict[str, int]:
    """The deal's cards so far plus one hand, checked against what the decks hold."""
    total = {c: counted.get(c, 0) + counts.get(c, 0) for c in (*CATEGORIES, UNKNOWN)}
    decks = state.decks
    for category in CATEGORIES:
        most = PER_DECK[category] * decks
        if total[category] > most:
            raise IllegalEvent(TOO_MANY[category], count=total[category], most=most)
    held = sum(total.values())
    if held >= DECK * decks:
        raise IllegalEvent(
            _("the hands hold {count} cards, but the pile keeps at least one of the {deck} cards"),
            count=held,
            deck=DECK * decks,
        )
    return total


def _hand(state: State, player: str, hand: dict[str, int]) -> tuple[int, dict[str, int]]:
    """A loser's minus points and the fewest cards per category he must hold for them."""
    face_value, decks = state.rules.face_value, state.decks
    counts = {c: hand[c] for c in CATEGORIES}
    entered = abs(hand["penalty"])
    if entered:
        if any(counts.values()) or hand["pips"]:
            raise IllegalEvent(
                _("give either the cards or the minus points for {player}, not both"),
                player=player,
            )
        if not face_value and entered % VALUES["numbers"]:
            raise IllegalEvent(
                _(
                    "{player}: −{points} cannot be; minus points come in fives (eight 25, "
                    "ace 15, ten or court card 10, number card 5)"
                ),
                player=player,
                points=entered,
            )
        top = max_penalty(decks, face_value)
        if entered > top:
            raise IllegalEvent(
                _("{player}: −{points} cannot be; a hand costs at most {most}"),
                player=player,
                points=entered,
                most=top,
            )
        if face_value and entered < min(NUMBER_RANKS):
            raise IllegalEvent(
                _("{player}: −{points} cannot be; the cheapest card costs 2"),
                player=player,
                points=entered,
            )
        # The cards behind the minus points are unknown: at least one, of no known category.
        return -entered, dict.fromkeys(CATEGORIES, 0) | {UNKNOWN: 1}
    pips = hand["pips"]
    if face_value:
        if counts["numbers"] and not pips:
            raise IllegalEvent(
                _(
                    "{player}: with face value, give the number cards' total value, not only "
                    "how many there are"
                ),
                player=player,
            )
        if pips:
            low, high = min(NUMBER_RANKS), max(NUMBER_RANKS)
            n = counts["numbers"]
            if n and not low * n <= pips <= high * n:
                raise IllegalEvent(
                    _("{player}: {count} number cards are worth {low}–{high}, not {pips}"),
                    player=player,
                    count=n,
                    low=low * n,
                    high=high * n,
                    pips=pips,
                )
            if pips < low or pips > PIPS_PER_DECK * decks:
                raise IllegalEvent(
                    _("{player}: number cards cannot be worth {pips} together"),
                    player=player,
                    pips=pips,
                )
            counts["numbers"] = max(n, -(-pips // high))  # at least this many number cards
    elif pips:
        raise IllegalEvent(
            _(
                "the number cards' face value only counts with the face-value option; give how "
                "many number cards instead"
            )
        )
    if not sum(counts.values()):
        raise IllegalEvent(
            _(
                "{player} holds no cards, but only the winner can have gone out; how many "
                "cards were left?"
            ),
            player=player,
        )
    points = hand_penalty(**{c: hand[c] for c in CATEGORIES}, pips=pips, face_value=face_value)
    return points, counts


def _score(state: State, winner: str, penalties: dict[str, int]) -> State:
    number = len(state.sheet) + 1
    totals = dict(state.totals)
    for player, points in penalties.items():
        totals[player] += points
    in_deal = {p: totals[p] for p in state.active}
    fallen = tuple(p for p in state.active if totals[p] <= LIMIT)
    log = [f"Giv {number}: {winner} går ut"]
    log += [f"{p} {penalties[p]} = {totals[p]}" for p in state.active if p != winner]
    eliminated, active = state.eliminated, state.active
    out_in_deal = dict(state.out_in_deal)
    if state.rules.elimination and fallen:
        eliminated = (*eliminated, *fallen)
        active = tuple(p for p in active if p not in fallen)
        out_in_deal.update(dict.fromkeys(fallen, number))
        log += [f"{p} utslagen ({totals[p]})" for p in fallen]
    row = DealRow(
        number=number,
        dealer=state.dealer,
        winner=winner,
        penalties=dict(penalties),
        totals=in_deal,
        eliminated=fallen if state.rules.elimination else (),
    )
    state = replace(
        state,
        totals=totals,
        active=active,
        eliminated=eliminated,
        out_in_deal=out_in_deal,
        sheet=(*state.sheet, row),
        transfers=(),
        expected=IDLE,
        log=tuple(log),
    )
    over = len(active) <= 1 if state.rules.elimination else bool(fallen)
    if over:
        return _finish(state)
    dealer = next_in(state.players, state.dealer, active)  # the deal's winner is still in
    return replace(state, dealer=dealer, log=(*state.log, f"Ny giv: {dealer} ger"))


def _finish(state: State) -> State:
    totals, out_in = state.totals, state.out_in_deal
    last = len(state.sheet) + 1  # still in: ranked above everyone who went out
    standings = ranked(state.players, key=lambda p: (out_in.get(p, last), totals[p]), score=totals)
    winners = tuple(s.player for s in standings if s.placement == 1)
    line = " och ".join(winners) + (" vinner" if len(winners) == 1 else " delar segern")
    return replace(
        state,
        finished=True,
        winners=winners,
        standings=standings,
        expected=(),
        log=(*state.log, f"{line} ({totals[winners[0]]})"),
    )
