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
  and never the whole deck (the pile keeps at least the card the winner went out on). With face
  value, a hand's ``pips`` must be a worth the decks' number cards (four each of 2–7 and 9 a
  deck) can make — with exactly ``numbers`` cards if given — and the hands' worths together one
  the number cards can make between them (what one hand holds is not left for the others);
  minus points entered directly must be what some hand of the decks' cards costs.
- Every event is checked against its declared payload (``EVENTS``) first: a key it does not
  take (``"eight"`` for ``"eights"``) is refused by name.
- The sheet is a tuple of ``DealRow`` (penalties and running totals per player still in). The
  deal passes clockwise to the next player still in (the text does not say who deals; the scorer
  picks the first dealer, G2). A finished game has ``winners`` and ``standings``: by total, fewest
  minus points first; with elimination the players still in come first, then the eliminated in
  reverse order of going out, those out in the same deal by total (V3: the deal's winner never
  takes minus points, so someone is always left). No money (``transfers`` is always empty).

What no table can produce (issue 25; each item is refused in ``apply`` and has a worked example
in ``tests/engine/test_vandatta.py``). The pad records the hands at the end of a deal, so these
are the facts about those hands that one shuffled deck (two from five players) cannot yield:

1. The winner holding a card: he played his last one ("Så snart någon spelar sitt sista kort").
2. Another player still in holding nothing: only one player goes out, and the deal ends then.
3. More eights, aces, tens and court cards, or number cards, in all hands together than the
   decks hold (4, 4, 16 and 28 a deck) — a card exists once per deck.
4. More than all but two of the decks' cards in the hands: the pile is never empty (it starts
   with the turned-up card and a new talon leaves its top card, "det översta kortet får ligga
   kvar"), so when the winner plays his last card it lies on at least one other.
5. Every ten, court card and number card in the hands: the winner went out on one of them
   ("man får inte lägga ett ess eller en åtta som sitt sista kort").
6. With face value, number cards worth what no cards of the decks are worth: a hand's worth
   (with its count, if given) must be made of 2–7 and 9 (V1), four of each a deck, and all the
   hands' number cards together from the decks' number cards.
7. Minus points entered directly that no hand of the decks' cards costs.

Items 4 and 5 came with issue 25: a game stored before it replays with ``legacy_facts`` set
(``new_game(..., legacy_facts=True)``), which skips exactly those two checks.

Calculators: ``hand_penalty``, ``decks_for``, ``max_penalty``, ``number_cards_worth``,
``hand_penalties``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from engine.base import (
    Declaration,
    EventType,
    PerPlayer,
    Player,
    Standing,
    Transfer,
    Whole,
    clockwise,
    dispatch,
    event_types,
    may,
    need,
    next_in,
    ranked,
    seat_players,
)
from engine.errors import IllegalEvent, Line, _, listed

KEY = "vandatta"
NAME = _("Crazy eights")
MIN_PLAYERS = 2
MAX_PLAYERS = 8
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
PIPS = "pips"
FEWEST = "fewest"  # hands whose number cards are counted as the fewest their worth needs
FIELDS = (*CATEGORIES, PIPS, "penalty")
UNKNOWN = "unknown"  # cards behind minus points entered directly


@dataclass(frozen=True)
class Rules:
    face_value: bool = False  # number cards cost their face value instead of 5 (V1)
    elimination: bool = False  # at −100 a player is out; the last one left wins (V2, V3)

    LABELS = {
        "face_value": _("Number cards at face value"),
        "elimination": _("Eliminated at −100"),
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
    log: tuple[Line, ...] = ()
    legacy_facts: bool = False  # a game stored before issue 25: skip items 4 and 5


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


@cache
def _number_card_hands(decks: int) -> frozenset[tuple[int, int]]:
    """Every (how many, worth) a set of the decks' number cards can have: four of each number
    rank (2–7 and 9, V1) per deck."""
    hands = {(0, 0)}
    for rank in NUMBER_RANKS:
        hands = {(n + k, worth + k * rank) for n, worth in hands for k in range(4 * decks + 1)}
    return frozenset(hands)


def number_cards_worth(pips: int, decks: int = 1) -> tuple[int, ...]:
    """How many of the decks' number cards can be worth ``pips`` together, fewest first; empty
    if none can (one deck: 1 and 143, the whole 144 less a card worth 1)."""
    return tuple(sorted(n for n, worth in _number_card_hands(decks) if worth == pips and n))


@cache
def hand_penalties(decks: int, face_value: bool = False) -> frozenset[int]:
    """Every minus points (as a positive number) a hand of the decks' cards can cost."""
    if face_value:
        numbers = {worth for _n, worth in _number_card_hands(decks)}
    else:
        numbers = {VALUES["numbers"] * n for n in range(PER_DECK["numbers"] * decks + 1)}
    costs = {0}
    for category in ("eights", "aces", "courts"):
        steps = range(PER_DECK[category] * decks + 1)
        costs = {cost + VALUES[category] * k for cost in costs for k in steps}
    return frozenset(cost + worth for cost in costs for worth in numbers) - {0}


# --- the game --------------------------------------------------------------------------------


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
        decks=decks_for(len(players)),
        dealer=dealer,
        totals=dict.fromkeys(players, 0),
        active=players,
        legacy_facts=legacy_facts,
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    return dispatch(replace(state, transfers=(), log=()), event, EVENTS, game=NAME)


def _maps(state: State, event: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """The per-player maps of a whole deal (their form is declared in ``EVENTS``)."""
    maps = {name: dict(event.get(name) or {}) for name in FIELDS}
    for values in maps.values():
        for player, number in values.items():
            if player not in state.active and number:
                raise IllegalEvent(OUT_OF_GAME, player=player)
    return maps


def _check_winner(state: State, winner: str) -> str:
    if state.pending_winner is not None:
        raise IllegalEvent(
            _(
                "a deal is being recorded hand by hand ({player} went out); finish it "
                "(or undo) first"
            ),
            player=state.pending_winner,
        )
    if winner not in state.active:
        raise IllegalEvent(OUT_OF_GAME, player=winner)
    return winner


def _deal(state: State, event: Mapping[str, Any]) -> State:
    winner = _check_winner(state, event["winner"])
    maps = _maps(state, event)
    hands = {p: {f: maps[f].get(p, 0) for f in FIELDS} for p in state.active}
    if any(hands[winner].values()):
        raise IllegalEvent(WENT_OUT, player=winner)
    penalties = {winner: 0}
    counted: dict[str, int] = {}
    for player in _losers(state, winner):
        points, counts = _hand(state, player, hands[player])
        penalties[player] = points
        counted = _add_up(state, player, counted, counts, winner)
    return _score(state, winner, penalties)


def _out(state: State, event: Mapping[str, Any]) -> State:
    winner = _check_winner(state, event["player"])
    state = replace(
        state, pending_winner=winner, log=(Line(_("{player} goes out"), player=winner),)
    )
    return _next_hand(state)


def _one_hand(state: State, event: Mapping[str, Any]) -> State:
    winner = state.pending_winner
    if winner is None:
        raise IllegalEvent(_("say who went out before recording the hands"))
    player = event["player"]
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
    hand = {name: event.get(name) or 0 for name in FIELDS}
    points, counts = _hand(state, player, hand)
    counted = _add_up(state, player, state.pending_counts, counts, winner)
    pending = {**state.pending, player: points}
    if len(pending) < len(state.active) - 1:
        line = Line(_("{player}: {points}"), player=player, points=points)
        state = replace(state, pending=pending, pending_counts=counted, log=(line,))
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


def _add_up(
    state: State,
    player: str,
    counted: Mapping[str, int],
    counts: Mapping[str, int],
    winner: str,
) -> dict[str, int]:
    """The deal's cards so far plus ``player``'s hand, checked against what the decks hold: the
    cards of each category, all the cards, and (face value) the number cards' worth."""
    total = {c: counted.get(c, 0) + counts.get(c, 0) for c in (*CATEGORIES, UNKNOWN, PIPS, FEWEST)}
    decks = state.decks
    for category in CATEGORIES:
        most = PER_DECK[category] * decks
        if total[category] > most:
            raise IllegalEvent(TOO_MANY[category], count=total[category], most=most)
    held = sum(total[c] for c in (*CATEGORIES, UNKNOWN))
    if not state.legacy_facts:
        _check_pile(total, held, decks, winner)
    if held >= DECK * decks:
        raise IllegalEvent(
            _("the hands hold {count} cards, but the pile keeps at least one of the {deck} cards"),
            count=held,
            deck=DECK * decks,
        )
    if counts.get(PIPS) and not any(
        n == total["numbers"] or (total[FEWEST] and n > total["numbers"])
        for n in number_cards_worth(total[PIPS], decks)
    ):
        raise IllegalEvent(
            _(
                "{player}: the number cards the other hands left cannot be worth {pips}; "
                "the hands' number cards would be worth {total} together"
            ),
            player=player,
            pips=counts[PIPS],
            total=total[PIPS],
        )
    return total


def _check_pile(total: Mapping[str, int], held: int, decks: int, winner: str) -> None:
    """Items 4 and 5: the winner's last card lies on the pile, on at least one other card, and
    it is a ten, a court card or a number card."""
    if held > DECK * decks - 2:
        raise IllegalEvent(
            _(
                "the hands hold {count} of the {deck} cards, but at least two lie on the pile: "
                "the card {player} went out on and the one under it"
            ),
            count=held,
            deck=DECK * decks,
            player=winner,
        )
    plain = total["courts"] + total["numbers"]
    if plain >= (PER_DECK["courts"] + PER_DECK["numbers"]) * decks:
        raise IllegalEvent(
            _(
                "the hands hold all {count} tens, court cards and number cards, but {player} "
                "went out on one of them (never on an ace or an eight)"
            ),
            count=plain,
            player=winner,
        )


def _hand(state: State, player: str, hand: dict[str, int]) -> tuple[int, dict[str, int]]:
    """A loser's minus points and the fewest cards per category he must hold for them (with
    the number cards' worth under ``PIPS`` when they count their face value)."""
    face_value = state.rules.face_value
    counts = {c: hand[c] for c in CATEGORIES}
    if hand["penalty"]:
        if any(counts.values()) or hand["pips"]:
            raise IllegalEvent(
                _("give either the cards or the minus points for {player}, not both"),
                player=player,
            )
        return _entered(state, player, abs(hand["penalty"]))
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
            counts["numbers"] = _number_cards(state, player, counts["numbers"], pips)
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
    return points, counts | {PIPS: pips, FEWEST: int(bool(pips) and not hand["numbers"])}


def _entered(state: State, player: str, entered: int) -> tuple[int, dict[str, int]]:
    """Minus points entered instead of the cards: refused unless a hand can cost them."""
    face_value, decks = state.rules.face_value, state.decks
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
    if entered not in hand_penalties(decks, face_value):
        raise IllegalEvent(
            _("{player}: −{points} cannot be; no hand of the game's cards costs that"),
            player=player,
            points=entered,
        )
    # The cards behind the minus points are unknown: at least one, of no known category.
    return -entered, dict.fromkeys(CATEGORIES, 0) | {UNKNOWN: 1}


def _number_cards(state: State, player: str, count: int, pips: int) -> int:
    """How many number cards are worth ``pips`` (``count`` if given, else the fewest that can
    be); refuses a worth the decks' number cards (2–7 and 9, V1) cannot make."""
    low, high = min(NUMBER_RANKS), max(NUMBER_RANKS)
    if count and not low * count <= pips <= high * count:
        raise IllegalEvent(
            _("{player}: {count} number cards are worth {low}–{high}, not {pips}"),
            player=player,
            count=count,
            low=low * count,
            high=high * count,
            pips=pips,
        )
    counts = number_cards_worth(pips, state.decks)
    if not counts:
        raise IllegalEvent(
            _("{player}: number cards cannot be worth {pips} together"),
            player=player,
            pips=pips,
        )
    if count and count not in counts:
        raise IllegalEvent(
            _("{player}: {count} number cards (2–7 and 9) cannot be worth {pips} together"),
            player=player,
            count=count,
            pips=pips,
        )
    return count or counts[0]


def _score(state: State, winner: str, penalties: dict[str, int]) -> State:
    number = len(state.sheet) + 1
    totals = dict(state.totals)
    for player, points in penalties.items():
        totals[player] += points
    in_deal = {p: totals[p] for p in state.active}
    fallen = tuple(p for p in state.active if totals[p] <= LIMIT)
    log = [Line(_("Deal {number}: {player} goes out"), number=number, player=winner)]
    log += [
        Line(_("{player}: {points} = {total}"), player=p, points=penalties[p], total=totals[p])
        for p in state.active
        if p != winner
    ]
    eliminated, active = state.eliminated, state.active
    out_in_deal = dict(state.out_in_deal)
    if state.rules.elimination and fallen:
        eliminated = (*eliminated, *fallen)
        active = tuple(p for p in active if p not in fallen)
        out_in_deal.update(dict.fromkeys(fallen, number))
        log += [
            Line(_("{player} is eliminated ({total})"), player=p, total=totals[p]) for p in fallen
        ]
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
    return replace(
        state, dealer=dealer, log=(*state.log, Line(_("New deal: {dealer} deals"), dealer=dealer))
    )


def _finish(state: State) -> State:
    totals, out_in = state.totals, state.out_in_deal
    last = len(state.sheet) + 1  # still in: ranked above everyone who went out
    standings = ranked(state.players, key=lambda p: (out_in.get(p, last), totals[p]), score=totals)
    winners = tuple(s.player for s in standings if s.placement == 1)
    line = (
        Line(_("{player} wins ({score})"), player=winners[0], score=totals[winners[0]])
        if len(winners) == 1
        else Line(
            _("{players} share the win ({score})"),
            players=listed(winners, last_and=True),
            score=totals[winners[0]],
        )
    )
    return replace(
        state,
        finished=True,
        winners=winners,
        standings=standings,
        expected=(),
        log=(*state.log, line),
    )


COUNT = Whole(0, DECK * 2)  # the form of a count; the decks in play are the rules' to check
WORTH = Whole(0, PIPS_PER_DECK * 2)
MINUS = Whole(-max_penalty(2, face_value=True), max_penalty(2, face_value=True))
HAND = {
    "eights": may(COUNT, _("the eights")),
    "aces": may(COUNT, _("the aces")),
    "courts": may(COUNT, _("the tens and court cards")),
    "numbers": may(COUNT, _("the number cards")),
    PIPS: may(WORTH, _("the worth of the number cards")),
    "penalty": may(MINUS, _("the minus points")),
}

EVENTS = {
    "out": EventType(
        _out, _("a player going out"), {"player": need(Player(), _("the player who went out"))}
    ),
    "hand": EventType(
        _one_hand,
        _("a hand left"),
        {"player": need(Player(), _("the player whose hand it is")), **HAND},
    ),
    "deal": EventType(
        _deal,
        _("a whole deal"),
        {
            "winner": need(Player(), _("the player who went out")),
            **{key: may(PerPlayer(f.kind), f.words) for key, f in HAND.items()},
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
    position=90,
)
