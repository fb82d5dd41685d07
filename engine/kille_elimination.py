"""Kille, the elimination game: a score sheet (kille_elimination.en.txt; NOTES.md E1–E7).

Every deal is four tricks and then one round of calls; the aim is to keep one's score low, and a
player whose total reaches the limit (50, E3: exactly 50 is out) leaves the game. The last player
remaining wins. No money changes hands (E7): ``transfers`` is always empty and clubs that play
for stakes settle on the standings.

Card values (E1: the text's order is backwards; blaren is lowest, kille highest): blaren,
blompottan and kransen 0, the liljor 1–12 their number, värdshus 13, kavall 14, svin 15, husar
16, gök 17, kille 50 (``card_value``). "Lowest" is by rank, not by value (E4).

Scoring a deal (``score_deal``, a pure calculator):
- a declarer with the lowest card alone scores 0, everyone else his card's value;
- a wrong declarer (someone holds an equal or lower card) scores 10 + his card; the other
  holders of the lowest card score 0 (E5), everyone else his card's value;
- no declaration: a player alone with the lowest card scores 10 + its value, everyone else 0;
  with a tie for lowest nobody scores.
Someone always scores 0, so a deal never eliminates every player left.

Events — the pad records what the table sees, step by step:
- ``{"type": "fourth_trick", "player": p}``: who won the fourth trick (the tricks themselves are
  not recorded);
- ``{"type": "pass" | "declare", "player": p}``: the calls, clockwise from the fourth-trick
  winner among the players still in (E6); a declaration ends the calls, as do passes all round;
- ``{"type": "reveal", "cards": {p: card}}``: every player still in shows his card; the deal is
  scored, players at the limit are out, and the deal passes to the next player still in on the
  dealer's left (E6).
Each type's payload is declared in ``EVENTS``; ``dispatch`` refuses an unknown type, an unknown
or missing key and a value of the wrong kind before the handler runs.

What no table can produce (issue 25: the facts the pad records for a deal — who took the fourth
trick, the calls, each player's last card — agree with the 42-card Kille deck, two of each rank):

1. A card exists twice: no rank is shown by three players in one deal (``check_copies``).
2. A player who is out plays no more: he takes no fourth trick, makes no call and shows no card;
   every player still in shows exactly one card.
3. The calls follow the fourth trick: clockwise from its winner among the players still in, one
   call each, a declaration ending them; the declarer is one of the players who show.
4. The fourth-trick winner agrees with the cards shown: as the tricks are not recorded, whoever
   won the third trick led the fourth, and every player still in can have taken it with any last
   cards the deck allows (worked through in the tests: the leader leads a low card, a player
   whose last card reaches it plays the lowest card that does, the winner plays last), so
   nothing more is refused here. The simulator (``tests/engine/simulate/kille_elimination.py``)
   checks this against dealt cards.
The calculator scores only what these facts decide; issue 25 added no check that a stored game
could fail, so ``new_game(..., legacy_facts=True)`` changes nothing.

Standings: the winner first, then the others by when they went out (later is better); players
out in the same deal are ranked by their totals (lower is better), equal totals sharing a place.
``Standing.score`` is the player's total.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine import kille
from engine.base import (
    CardName,
    Declaration,
    EventType,
    OneOf,
    PerPlayer,
    Player,
    Standing,
    Transfer,
    Whole,
    clockwise,
    dispatch,
    event_types,
    is_whole,
    need,
    next_in,
    ranked,
    seat_players,
)
from engine.cards import KilleRank
from engine.errors import IllegalEvent, Line, _, listed
from engine.kille import card, check_copies

KEY = "kille_elimination"
NAME = _("Kille (elimination)")
IMPOSSIBLE_PRIZE_HAND = kille.IMPOSSIBLE_PRIZE_HAND  # the same deck (engine.honours)
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # E2

_FACE = {
    KilleRank.VARDSHUS: 13,
    KilleRank.KAVALL: 14,
    KilleRank.SVIN: 15,
    KilleRank.HUSAR: 16,
    KilleRank.GOK: 17,
    KilleRank.KILLE: 50,
}


@dataclass(frozen=True)
class Rules:
    limit: int = 50  # "If a player reaches 50 points they are eliminated" (E3)
    wrong_penalty: int = 10  # "10 plus their card's value"

    LABELS = {
        "limit": _("Out at"),
        "wrong_penalty": _("Penalty for a wrong declaration"),
    }

    def __post_init__(self) -> None:
        for name in ("limit", "wrong_penalty"):
            value = getattr(self, name)
            if not is_whole(value) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")


@dataclass(frozen=True)
class DealRow:
    number: int
    dealer: str
    fourth_trick: str
    declarer: str | None
    cards: dict[str, str]
    points: dict[str, int]
    scores: dict[str, int]  # totals after the deal
    out: tuple[str, ...]  # eliminated by this deal


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules
    dealer: str
    scores: dict[str, int]
    phase: str = "fourth_trick"  # then "calls", "reveal"; "over" at the end
    deal_no: int = 1
    fourth_trick: str | None = None
    calls: tuple[tuple[str, str], ...] = ()
    declarer: str | None = None
    to_act: str | None = None
    out: tuple[str, ...] = ()  # in the order they went out
    out_in_deal: dict[str, int] = field(default_factory=dict)
    deals: tuple[DealRow, ...] = ()
    winner: str | None = None
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ("fourth_trick",)
    log: tuple[Line, ...] = ()
    legacy_facts: bool = False  # issue 25: nothing is skipped (see "What no table can produce")

    @property
    def players_in(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p not in self.out)


# --- calculators -----------------------------------------------------------------------------


def card_value(rank: KilleRank) -> int:
    if rank <= KilleRank.KRANSEN:
        return 0
    return rank.number if rank.number is not None else _FACE[rank]


def score_deal(
    cards: Mapping[str, KilleRank | str], declarer: str | None, rules: Rules = Rules()
) -> dict[str, int]:
    """Points for one deal from the shown cards and the declarer (None: all passed)."""
    ranks = {p: card(c) for p, c in cards.items()}
    if len(ranks) < 2:
        raise IllegalEvent(_("a deal needs at least two players"))
    if declarer is not None and declarer not in ranks:
        raise IllegalEvent(_("the declarer {player} showed no card"), player=repr(declarer))
    check_copies(ranks.values())
    lowest = min(ranks.values())
    holders = [p for p, rank in ranks.items() if rank == lowest]
    values = {p: card_value(rank) for p, rank in ranks.items()}
    if declarer is None:
        if len(holders) > 1:
            return dict.fromkeys(ranks, 0)
        return {p: rules.wrong_penalty + values[p] if p in holders else 0 for p in ranks}
    if holders == [declarer]:
        return {p: 0 if p == declarer else values[p] for p in ranks}
    points = {p: 0 if p in holders else values[p] for p in ranks}
    points[declarer] = rules.wrong_penalty + values[declarer]  # E5, also when tied for lowest
    return points


# --- the game --------------------------------------------------------------------------------


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    legacy_facts: bool = False,
) -> State:
    """``legacy_facts`` (issue 25) is taken like every engine's; this one added no check for
    it to skip, so a stored game replays the same either way."""
    seated, dealer = seat_players(
        players, "Kille (elimination)", MIN_PLAYERS, MAX_PLAYERS, first_dealer
    )
    return State(
        players=seated,
        rules=rules,
        dealer=dealer,
        scores=dict.fromkeys(seated, 0),
        legacy_facts=bool(legacy_facts),
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over: only one player remains"))
    return _with_turn(dispatch(replace(state, transfers=(), log=()), event, EVENTS, game=NAME))


def _player(state: State, event: Mapping[str, Any]) -> str:
    player = event["player"]  # a player at the table (EVENTS)
    if player in state.out:
        raise IllegalEvent(_("{player} is out of the game"), player=player)
    return player


def _call_order(state: State) -> list[str]:
    if state.fourth_trick is None:
        return []
    return clockwise(state.players, state.fourth_trick, state.players_in)


def _with_turn(state: State) -> State:
    to_act = None
    if state.phase == "calls":
        to_act = _call_order(state)[len(state.calls)]
    expected = {
        "fourth_trick": ("fourth_trick",),
        "calls": ("pass", "declare"),
        "reveal": ("reveal",),
        "over": (),
    }[state.phase]
    return replace(state, to_act=to_act, expected=expected)


def _on_fourth_trick(state: State, event: Mapping[str, Any]) -> State:
    if state.phase != "fourth_trick":
        raise IllegalEvent(_("the fourth trick is already recorded for this deal"))
    player = _player(state, event)
    return replace(
        state,
        phase="calls",
        fourth_trick=player,
        log=(Line(_("{player} took the fourth trick"), player=player),),
    )


def _call(state: State, event: Mapping[str, Any], kind: str) -> State:
    if state.phase == "fourth_trick":
        raise IllegalEvent(_("first record who took the fourth trick: the calls start with him"))
    if state.phase != "calls":
        if state.declarer:
            raise IllegalEvent(
                _("the calls are over: {player} declared; record the shown cards"),
                player=state.declarer,
            )
        raise IllegalEvent(_("the calls are over: everyone passed; record the shown cards"))
    player = _player(state, event)
    if player != state.to_act:
        raise IllegalEvent(
            _(
                "it is {turn}'s turn, not {player}'s: the calls go clockwise from {first}, who "
                "took the fourth trick"
            ),
            turn=state.to_act,
            player=player,
            first=state.fourth_trick,
        )
    calls = (*state.calls, (player, kind))
    if kind == "declare":
        return replace(
            state,
            calls=calls,
            declarer=player,
            phase="reveal",
            log=(Line(_("{player} declares lowest"), player=player),),
        )
    state = replace(state, calls=calls, log=(Line(_("{player} passes"), player=player),))
    if len(calls) == len(_call_order(state)):
        state = replace(state, phase="reveal", log=(*state.log, Line(_("Everyone passes"))))
    return state


def _on_pass(state: State, event: Mapping[str, Any]) -> State:
    return _call(state, event, "pass")


def _on_declare(state: State, event: Mapping[str, Any]) -> State:
    return _call(state, event, "declare")


def _on_reveal(state: State, event: Mapping[str, Any]) -> State:
    if state.phase != "reveal":
        raise IllegalEvent(_("the cards are shown after the calls: finish the calls first"))
    cards = event["cards"]  # players at the table, each with a card's text (EVENTS)
    for player in cards:
        if player in state.out:
            raise IllegalEvent(_("{player} is out of the game and shows no card"), player=player)
    missing = [p for p in state.players_in if p not in cards]
    if missing:
        raise IllegalEvent(_("the card of {players} is missing"), players=", ".join(missing))
    ranks = {p: card(cards[p]) for p in state.players_in}
    points = score_deal(ranks, state.declarer, state.rules)
    scores = {p: state.scores[p] + points.get(p, 0) for p in state.players}
    newly_out = tuple(p for p in state.players_in if scores[p] >= state.rules.limit)
    out = (*state.out, *newly_out)
    out_in_deal = {**state.out_in_deal, **dict.fromkeys(newly_out, state.deal_no)}
    assert state.fourth_trick is not None
    row = DealRow(
        number=state.deal_no,
        dealer=state.dealer,
        fourth_trick=state.fourth_trick,
        declarer=state.declarer,
        cards={p: r.label for p, r in ranks.items()},
        points=points,
        scores=scores,
        out=newly_out,
    )
    shown = [
        Line(_("{player} {card} +{points}"), player=p, card=ranks[p].label, points=points[p])
        for p in state.players_in
    ]
    lines = [Line(_("Shown: {cards}"), cards=listed(shown))]
    lines += [Line(_("{player} is out ({score})"), player=p, score=scores[p]) for p in newly_out]
    state = replace(
        state,
        scores=scores,
        out=out,
        out_in_deal=out_in_deal,
        deals=(*state.deals, row),
        phase="fourth_trick",
        deal_no=state.deal_no + 1,
        fourth_trick=None,
        calls=(),
        declarer=None,
    )
    remaining = state.players_in
    if len(remaining) == 1:
        return _finish(state, remaining[0], lines)
    # E6: the deal passes to the next player still in on the dealer's left.
    dealer = next_in(state.players, state.dealer, remaining)
    return replace(
        state, dealer=dealer, log=(*lines, Line(_("New deal: {player} deals"), player=dealer))
    )


def _finish(state: State, winner: str, lines: list[Line]) -> State:
    standings = ranked(
        state.players,
        key=lambda p: (p == winner, state.out_in_deal.get(p, 0), -state.scores[p]),
        score=state.scores,
    )
    return replace(
        state,
        phase="over",
        finished=True,
        winner=winner,
        standings=standings,
        log=(*lines, Line(_("{player} wins"), player=winner)),
    )


# A card as text, or a lilja's number as a number (a form sends "3" as 3).
CARD = OneOf(CardName(), Whole(1, 12))

EVENTS = {
    "fourth_trick": EventType(
        _on_fourth_trick,
        _("the fourth trick"),
        {"player": need(Player(), _("the player who took the fourth trick"))},
    ),
    "pass": EventType(
        _on_pass, _("a pass"), {"player": need(Player(), _("the player who passes"))}
    ),
    "declare": EventType(
        _on_declare,
        _("a declaration"),
        {"player": need(Player(), _("the player who declares"))},
    ),
    "reveal": EventType(
        _on_reveal, _("the showing"), {"cards": need(PerPlayer(CARD), _("the cards shown"))}
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
    position=30,
)
