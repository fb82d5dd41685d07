"""Nittionio (Ninety-nine): a score sheet for David Parlett's three-player game
(populara_kortspel.sv.txt, "Nittionio regler"; NOTES.md N1–N5).

Each player lays three bid cards face down; their suits encode an exact number of tricks
(♦ 0, ♠ 1, ♥ 2, ♣ 3 — three clubs is nine) out of the nine played. One player may add a premium:
a declaration (30; his bid cards face up) or a showing (60; his hand face up too). Scoring:
1 point a trick for everyone; an exact bid earns 30 if its maker alone succeeded, 20 if two did,
10 if all three (N2: a premium bidder counts among them); a premium goes to its bidder if he
made his bid, else its full value to *each* opponent (N1). The most a player can score in a deal
is 9 + 30 + 60 = 99.

Variants (``Rules.variant``, from the text):

- ``nine_deals`` (default): 37 cards (A–6 and a joker), the turn-up fixes trumps (a nine or
  the joker: no trump); ``Rules.deals`` deals (nine), highest total wins; a tie is reported (N4).
- ``rubber`` ("Poängräkningsvariant"): a game (omgång) ends when somebody reaches 100; its
  winner — and every opponent who reached 100 or more (N4) — gets a 100 bonus, and scores start
  again from nought. Three games win the rubber, with 100 more for each game under eight played.
  Not in the text: a game whose top score is shared plays on until one player leads alone.
- ``pennycook`` (Andrew Pennycook): no premiums, first to 150.
- ``trumps_by_success`` ("Annan variant", Parlett's revised game): 36 cards, no joker and no
  turn-up; the first deal has no trump and each later deal's trump follows how many players made
  their bids in the deal before (♦ none, ♠ one, ♥ two, ♣ all three); first to 100.

In the first-to-N variants, if several pass the target in the same deal the highest wins, and a
shared top score is reported as a tie (as N4 does for the nine-deal game).

Design — one event, the outcome of a deal (the pad records what the table shows, not each card):

``{"type": "deal", "bids": {player: n | [card, card, card], …}, "tricks": {player: n, …},
"calls": {player: "pass" | "declare" | "show", …}, "turn_up": "KS"}``

- ``bids``: 0–9, or the three bid cards as suits (``"C"``, ``"kl"``, ``"♣"``, ``"klöver"``) or
  cards (``"AC"``, ``"hj10"``; a joker ``"JK"`` counts as the turn-up's suit, N3), or ``null`` /
  ``"bet"`` for a player who missed: only those who made their bids turn their bid cards up ("Den
  som misslyckades behöver inte visa sina"), and a missed bid scores the same whatever it was.
  Bid cards given only as suits are always possible: the hands hold nine cards of each suit in
  every variant (with the joker, the one turned-up card is made up by the joker, which counts as
  it), and the three bidders lay nine bid cards in all; cards given as cards must be distinct
  and not the turn-up.
- ``tricks``: each player's tricks, summing to 9.
- ``calls`` (optional; a missing player passed): the premium calls, made clockwise from förhand
  (N5): after a declaration later players may only pass or show, after a show only pass. The
  premium belongs to the last player who called, whose bid cards were turned up: his bid must
  be given (a number or the cards), never as missed.
- ``turn_up`` (optional, not in ``trumps_by_success``): the card turned up, recorded as the
  deal's trump on the sheet.

The deal passes clockwise (to the dealer's left); förhand, left of the dealer, calls and leads
first. The sheet is a tuple of ``DealRow``. No money changes hands (``transfers`` is empty).

Calculators: ``bid_from_cards``, ``bid_cards``, ``score_deal``, ``premium_from_calls``,
``trump_after``, ``rubber_bonus``.

What no table can produce (issue 25). A deal is dealt from one deck — 37 cards (A–6 of the four
suits and a joker, the last card turned up) or 36 (no joker, no turn-up) — 12 cards to each of
the three players, who lay three of them face down as bid cards and play the other nine, one to
each of the nine tricks. Refused:

1. tricks that do not add up to 9, or a count outside 0–9 (nine cards played from each hand);
2. a bid outside 0–9: three bid cards, ♦ 0, ♠ 1, ♥ 2, ♣ 3 (three clubs is nine); bid cards
   that are not three;
3. a bid card that is not a card of the deck in play (a 5, the joker in the 36-card game), a
   card laid twice (by one player or by two), and a bid card that is the turn-up (it lies on
   the table, in no hand);
4. the joker laid as a bid card when it was itself turned up (nobody holds it), or without the
   turn-up recorded (it counts as the turn-up's suit, N3, so the bid cannot be read); a turn-up
   in the 36-card game, which has none;
5. a premium against the calls' order (N5: one premium; after a declaration only pass or show,
   after a show only pass), and the premium bidder's bid recorded as missed and not shown: he
   turned his bid cards up before the play.

Nothing else recorded can contradict the deck: bid cards given as suits always fit (the hands
hold nine cards of each suit, the joker counting as the turned-up card, and nine bid cards are
laid in all); any split of the nine tricks goes with any bids (nobody records who held which
card); a missed bid need not be shown, and a shown one that missed is a missed bid.

``legacy_facts`` (``new_game``, kept on the State) is there for the data migration all games
share (issue 25): a game stored before the checks added then replays without them. Issue 25
added none here — every item above was enforced before — so it changes nothing for Nittionio.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement
from typing import Any, ClassVar, Literal

from engine.base import (
    CardName,
    CardNames,
    Choice,
    Declaration,
    Empty,
    EventType,
    OneOf,
    PerPlayer,
    Standing,
    Transfer,
    Whole,
    check_choices,
    clockwise,
    dispatch,
    event_types,
    is_whole,
    left_of,
    may,
    need,
    placements,
    ranked,
    seat_players,
)
from engine.cards import (
    JOKER,
    Card,
    Suit,
    as_illegal_event,
    parse_card,
    require_distinct,
    stripped_deck,
    suit_word,
)
from engine.errors import IllegalEvent, Line, _, listed

KEY = "nittionio"
NAME = _("Ninety-nine")
MIN_PLAYERS = 3
MAX_PLAYERS = 3

TRICKS = 9
MAX_BID = 9
NO_TRUMP = "NT"
# "En ruter anger 0 stick, En spader anger 1 stick, En hjärter anger 2 stick, En klöver 3"
BID_SUIT_VALUES: dict[Suit, int] = {Suit.DIAMONDS: 0, Suit.SPADES: 1, Suit.HEARTS: 2, Suit.CLUBS: 3}
SUCCESS_BONUS = {1: 30, 2: 20, 3: 10}  # by how many made their bids
PREMIUMS = {"declare": 30, "show": 60}
CALLS = ("pass", "declare", "show")
MISSED_WORDS = ("bet", "x", "-", "?", "missed")  # a missed bid whose cards were not shown

VARIANTS = ("nine_deals", "rubber", "pennycook", "trumps_by_success")
Variant = Literal["nine_deals", "rubber", "pennycook", "trumps_by_success"]
TARGETS = {"rubber": 100, "pennycook": 150, "trumps_by_success": 100}
GAME_BONUS = 100
RUBBER_GAMES = 3  # games to win the rubber
RUBBER_PAR = 8  # 100 more for each game under eight


@dataclass(frozen=True)
class Rules:
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"variant": VARIANTS}
    LABELS: ClassVar[dict[str, str]] = {
        "variant": _("Variant"),
        "deals": _("Deals (in the nine-deal game)"),
    }
    CHOICE_LABELS: ClassVar[dict[str, dict[str, str]]] = {
        "variant": {
            "nine_deals": _("Nine deals, the highest total wins"),
            "rubber": _("Rubber: first to 100 wins a game, three games the rubber"),
            "pennycook": _("Pennycook's: no premiums, first to 150"),
            "trumps_by_success": _("36 cards, trumps by how many made their bids, first to 100"),
        },
    }

    variant: Variant = "nine_deals"
    deals: int = 9  # the length of the nine_deals game

    def __post_init__(self) -> None:
        check_choices(self)
        if self.deals < 1:
            raise ValueError(f"deals must be at least 1, not {self.deals}")

    @property
    def premiums(self) -> bool:
        return self.variant != "pennycook"

    @property
    def joker(self) -> bool:
        """37 cards with the joker and a turn-up; the revised game has 36 and neither."""
        return self.variant != "trumps_by_success"


@dataclass(frozen=True)
class DealRow:
    """One line of the score sheet; tuples are per seat in seat order."""

    number: int
    game: int  # the rubber's game (omgång); 1 outside the rubber
    dealer: str
    bids: tuple[int | None, ...]  # None: missed, the bid cards were not shown
    tricks: tuple[int, ...]
    premium_player: str | None
    premium: str | None  # "declare" or "show"
    trump: str | None  # "H", "D", "C", "S", "NT"; None when not recorded
    made: tuple[bool, ...]
    points: tuple[int, ...]
    bonus: tuple[int, ...]  # game and rubber bonuses (rubber only)
    scores: tuple[int, ...]  # the game's running scores after this deal
    totals: tuple[int, ...]  # running totals including bonuses


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    dealer: str = ""
    forhand: str = ""
    trump: str | None = None  # the coming deal's trump when the rules fix it in advance
    game_number: int = 1
    scores: tuple[int, ...] = (0, 0, 0)
    totals: tuple[int, ...] = (0, 0, 0)
    games_won: tuple[int, ...] = (0, 0, 0)
    sheet: tuple[DealRow, ...] = ()
    winners: tuple[str, ...] = ()
    tie: bool = False
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ()  # new_game sets EVENT_TYPES: a deal is always next
    log: tuple[Line, ...] = ()
    legacy_facts: bool = False  # a game stored before issue 25's checks (see the docstring)

    @property
    def calling_order(self) -> tuple[str, ...]:
        """Who calls a premium in the coming deal, in turn: clockwise from förhand, the
        dealer's left, who also leads first (N5)."""
        return tuple(clockwise(self.players, self.forhand, self.players))


# --- calculators -----------------------------------------------------------------------------


def bid_from_cards(
    cards: Sequence[str | Suit | Card], turn_up: str | Card | None = None, joker: bool = True
) -> int:
    """The bid three bid cards encode (the cards' values do not matter, only their suits)."""
    return sum(BID_SUIT_VALUES[s] for s in _bid_suits(cards, _turn_up_card(turn_up, joker), joker))


def bid_cards(bid: int) -> tuple[tuple[str, str, str], ...]:
    """Every way to lay ``bid`` with three bid cards, as suit letters, highest suits first."""
    if not 0 <= bid <= MAX_BID:
        raise IllegalEvent(_("a bid is 0–{most} tricks, not {bid}"), most=MAX_BID, bid=bid)
    by_value = sorted(BID_SUIT_VALUES, key=BID_SUIT_VALUES.__getitem__, reverse=True)
    return tuple(
        (a.value, b.value, c.value)
        for a, b, c in combinations_with_replacement(by_value, 3)
        if BID_SUIT_VALUES[a] + BID_SUIT_VALUES[b] + BID_SUIT_VALUES[c] == bid
    )


def score_deal(
    bids: Sequence[int | None], tricks: Sequence[int], premium: tuple[int, str] | None = None
) -> tuple[int, ...]:
    """Points per seat for one deal; ``premium`` is (seat, "declare" | "show") or None.

    A bid of None is a missed bid whose cards were not shown.
    """
    if len(bids) != 3 or len(tricks) != 3:
        raise IllegalEvent(_("a deal has three bids and three trick counts"))
    if sum(tricks) != TRICKS:
        raise IllegalEvent(
            _("the tricks add up to {count}, but a deal has {tricks}"),
            count=sum(tricks),
            tricks=TRICKS,
        )
    made = [bid is not None and bid == took for bid, took in zip(bids, tricks, strict=True)]
    bonus = SUCCESS_BONUS.get(sum(made), 0)
    points = [took + (bonus if ok else 0) for took, ok in zip(tricks, made, strict=True)]
    if premium is not None:
        seat, kind = premium
        value = PREMIUMS[kind]
        if made[seat]:
            points[seat] += value
        else:  # N1: the full value to each opponent
            for other in range(3):
                if other != seat:
                    points[other] += value
    return tuple(points)


def premium_from_calls(calls: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The premium (player, kind) from the calls in turn order, checking N5; None if all pass."""
    premium: tuple[str, str] | None = None
    for player, call in calls:
        if call not in CALLS:
            raise IllegalEvent(
                _("{player} called {call}; a call is one of {calls}"),
                player=player,
                call=repr(call),
                calls=", ".join(CALLS),
            )
        if call == "pass":
            continue
        if premium is not None and premium[1] == "show":
            raise IllegalEvent(
                _("{player} may only pass after {other} showed"), player=player, other=premium[0]
            )
        if premium is not None and call == "declare":
            raise IllegalEvent(
                _("{player} may only pass or show after {other} declared"),
                player=player,
                other=premium[0],
            )
        premium = (player, call)
    return premium


def trump_after(successes: int) -> str:
    """Revised game: the next trump from how many made their bids (♦ 0, ♠ 1, ♥ 2, ♣ 3)."""
    return next(s.value for s, v in BID_SUIT_VALUES.items() if v == successes)


def rubber_bonus(games_played: int) -> int:
    """The rubber winner's extra bonus: 100 for each game under eight ("(8 - 6) x 100 = 200")."""
    return max(0, RUBBER_PAR - games_played) * GAME_BONUS


# --- bid cards -------------------------------------------------------------------------------


def _deck(joker: bool) -> frozenset[Card]:
    return frozenset(stripped_deck(36, jokers=1 if joker else 0))


def _card_in_deck(text: str | Card, joker: bool) -> Card:
    with as_illegal_event():
        card = text if isinstance(text, Card) else parse_card(str(text))
    if card not in _deck(joker):
        if joker:
            raise IllegalEvent(
                _("{card} is not in the 37-card deck (A–6 and a joker)"), card=card.pretty
            )
        raise IllegalEvent(_("{card} is not in the 36-card deck (A–6, no joker)"), card=card.pretty)
    return card


def _turn_up_card(turn_up: str | Card | None, joker: bool) -> Card | None:
    if turn_up is None:
        return None
    if not joker:
        raise IllegalEvent(_("the 36-card game has no turn-up card"))
    return _card_in_deck(turn_up, joker)


def _bid_suits(cards: Sequence[str | Suit | Card], turn_up: Card | None, joker: bool) -> list[Suit]:
    if isinstance(cards, str) or len(cards) != 3:
        raise IllegalEvent(_("a bid is laid with three bid cards, not {cards}"), cards=repr(cards))
    suits: list[Suit] = []
    laid: list[Card] = []
    for item in cards:
        if isinstance(item, Suit):
            suits.append(item)
            continue
        if isinstance(item, str) and (suit := suit_word(item)) is not None:
            suits.append(suit)
            continue
        if not isinstance(item, str | Card):
            raise IllegalEvent(
                _("{item} is not a bid card; give a suit (♦ ♠ ♥ ♣) or a card"), item=repr(item)
            )
        card = _card_in_deck(item, joker)
        laid.append(card)
        if card.suit is None:  # the joker
            suits.append(_joker_suit(turn_up))
        else:
            suits.append(card.suit)
    _check_distinct([*laid, *([turn_up] if turn_up else [])])
    return suits


def _joker_suit(turn_up: Card | None) -> Suit:
    # N3: the joker takes the turn-up's identity, also when that is a nine (no trump).
    if turn_up is None:
        raise IllegalEvent(_("a joker bid card counts as the turn-up's suit: give the turn-up"))
    if turn_up.rank == JOKER:
        raise IllegalEvent(_("the joker was turned up, so nobody holds it to lay as a bid card"))
    assert turn_up.suit is not None
    return turn_up.suit


def _check_distinct(cards: list[Card]) -> None:
    with as_illegal_event():
        require_distinct(cards)


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
        dealer=dealer,
        forhand=left_of(players, dealer),
        trump=None if rules.joker else NO_TRUMP,  # revised game: "Första given … utan trumf"
        expected=EVENT_TYPES,
        legacy_facts=bool(legacy_facts),
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


def _read_bids(
    state: State, event: Mapping[str, Any], turn_up: Card | None
) -> tuple[int | None, ...]:
    """The bids in seat order (their form is declared in ``EVENTS``): None for a missed bid."""
    joker = state.rules.joker
    bids: list[int | None] = []
    laid: list[Card] = []
    for player in state.players:
        value = event["bids"][player]
        if value is None or isinstance(value, str):  # one of MISSED_WORDS
            bids.append(None)
        elif is_whole(value):
            bids.append(value)
        else:  # the bid cards
            try:
                suits = _bid_suits(value, turn_up, joker)
            except IllegalEvent as error:
                raise IllegalEvent(
                    _("bids: {player}: {problem}"), player=player, problem=str(error)
                ) from None
            bids.append(sum(BID_SUIT_VALUES[s] for s in suits))
            laid.extend(_card_in_deck(v, joker) for v in value if _is_card_text(v))
    _check_distinct([*laid, *([turn_up] if turn_up else [])])
    return tuple(bids)


def _is_card_text(value: Any) -> bool:
    if isinstance(value, Card):
        return True
    return isinstance(value, str) and suit_word(value) is None


def _read_tricks(state: State, event: Mapping[str, Any]) -> tuple[int, ...]:
    tricks = tuple(event["tricks"][p] for p in state.players)
    if sum(tricks) != TRICKS:
        raise IllegalEvent(
            _("the tricks add up to {count}, but a deal has {tricks}"),
            count=sum(tricks),
            tricks=TRICKS,
        )
    return tricks


def _read_premium(state: State, event: Mapping[str, Any]) -> tuple[str, str] | None:
    calls = event.get("calls") or {}
    premium = premium_from_calls([(p, calls.get(p, "pass")) for p in state.calling_order])
    if premium is not None and not state.rules.premiums:
        raise IllegalEvent(_("Pennycook's variant has no declaration or showing"))
    return premium


def _check_premium_bid(
    state: State, bids: Sequence[int | None], premium: tuple[str, str] | None
) -> None:
    """A premium bidder turned his bid cards up before the play ("vända upp sina budkort"), so
    his bid is known: it cannot be recorded as a missed bid that was not shown."""
    if premium is None or bids[state.players.index(premium[0])] is not None:
        return
    template = (
        _("{player} declared, so his bid cards were turned up: give his bid, not a missed one")
        if premium[1] == "declare"
        else _("{player} showed, so his bid cards were turned up: give his bid, not a missed one")
    )
    raise IllegalEvent(template, player=premium[0])


def _deal_trump(state: State, turn_up: Card | None) -> str | None:
    if not state.rules.joker:
        return state.trump
    if turn_up is None:
        return None
    if turn_up.rank in (JOKER, 9):  # "Om detta kort är jokern eller en nia … utan trumf"
        return NO_TRUMP
    assert turn_up.suit is not None
    return turn_up.suit.value


def _play_deal(state: State, event: Mapping[str, Any]) -> State:
    turn_up = _turn_up_card(event.get("turn_up"), state.rules.joker)
    bids = _read_bids(state, event, turn_up)
    tricks = _read_tricks(state, event)
    premium = _read_premium(state, event)
    _check_premium_bid(state, bids, premium)
    seat_premium = None if premium is None else (state.players.index(premium[0]), premium[1])
    points = score_deal(bids, tricks, seat_premium)
    made = tuple(b is not None and b == t for b, t in zip(bids, tricks, strict=True))
    scores = _add(state.scores, points)
    row = DealRow(
        number=len(state.sheet) + 1,
        game=state.game_number,
        dealer=state.dealer,
        bids=bids,
        tricks=tricks,
        premium_player=None if premium is None else premium[0],
        premium=None if premium is None else premium[1],
        trump=_deal_trump(state, turn_up),
        made=made,
        points=points,
        bonus=(0, 0, 0),
        scores=scores,
        totals=_add(state.totals, points),
    )
    log = [_deal_line(state, row, seat) for seat in range(3)]
    dealer = left_of(state.players, state.dealer)
    state = replace(
        state,
        dealer=dealer,
        forhand=left_of(state.players, dealer),
        trump=None if state.rules.joker else trump_after(sum(made)),
        scores=scores,
        totals=row.totals,
        transfers=(),
    )
    if state.rules.variant == "nine_deals":
        return _end_of_nine_deals(state, row, log)
    if state.rules.variant == "rubber":
        return _rubber(state, row, log)
    return _first_to_target(state, row, log)


def _add(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _deal_line(state: State, row: DealRow, seat: int) -> Line:
    player = state.players[seat]
    bid: int | str | Line = "?" if row.bids[seat] is None else row.bids[seat]
    if row.premium_player == player:
        premium = _("{bid} (declaration)") if row.premium == "declare" else _("{bid} (showing)")
        bid = Line(premium, bid=bid)
    template = (
        _("{player}: bid {bid}, {tricks} tricks, made, {points} = {total}")
        if row.made[seat]
        else _("{player}: bid {bid}, {tricks} tricks, missed, {points} = {total}")
    )
    return Line(
        template,
        player=player,
        bid=bid,
        tricks=row.tricks[seat],
        points=f"{row.points[seat]:+d}",
        total=row.totals[seat],
    )


def _end_of_nine_deals(state: State, row: DealRow, log: list[Line]) -> State:
    state = replace(state, sheet=(*state.sheet, row), log=tuple(log))
    if len(state.sheet) < state.rules.deals:
        return state
    return _finish(state, _top(state.players, state.totals))


def _first_to_target(state: State, row: DealRow, log: list[Line]) -> State:
    state = replace(state, sheet=(*state.sheet, row), log=tuple(log))
    if max(state.totals) < TARGETS[state.rules.variant]:
        return state
    return _finish(state, _top(state.players, state.totals))


def _top(players: tuple[str, ...], scores: tuple[int, ...]) -> tuple[str, ...]:
    best = max(scores)
    return tuple(p for p, s in zip(players, scores, strict=True) if s == best)


def _finish(state: State, best: tuple[str, ...]) -> State:
    tie = len(best) > 1
    line = (
        Line(_("Tie: {players} (a draw)"), players=listed(best, last_and=True))
        if tie
        else Line(_("{player} wins"), player=best[0])
    )
    return replace(
        state,
        finished=True,
        winners=() if tie else best,
        tie=tie,
        standings=placements(dict(zip(state.players, state.totals, strict=True))),
        expected=(),
        log=(*state.log, line),
    )


def _rubber(state: State, row: DealRow, log: list[Line]) -> State:
    target = TARGETS["rubber"]
    leaders = _top(state.players, state.scores)
    if max(state.scores) < target or len(leaders) > 1:
        if max(state.scores) >= target:
            log.append(
                Line(_("Tied for the lead ({score}): the game plays on"), score=max(state.scores))
            )
        return replace(state, sheet=(*state.sheet, row), log=tuple(log))
    winner = state.players.index(leaders[0])
    # N4: the game's winner and every opponent at 100 or more get 100.
    bonus = [GAME_BONUS if score >= target else 0 for score in state.scores]
    games_won = tuple(w + (seat == winner) for seat, w in enumerate(state.games_won))
    log.append(Line(_("{player} wins game {number}"), player=leaders[0], number=state.game_number))
    rubber_won = games_won[winner] == RUBBER_GAMES
    if rubber_won:
        bonus[winner] += rubber_bonus(state.game_number)
        log.append(
            Line(
                _("{player} wins the rubber after {games} games"),
                player=leaders[0],
                games=state.game_number,
            )
        )
    totals = _add(state.totals, bonus)
    row = replace(row, bonus=tuple(bonus), totals=totals)
    state = replace(
        state,
        sheet=(*state.sheet, row),
        totals=totals,
        games_won=games_won,
        log=tuple(log),
    )
    if not rubber_won:
        return replace(state, scores=(0, 0, 0), game_number=state.game_number + 1)
    total = dict(zip(state.players, totals, strict=True))
    # The rubber's winner first, then the others by total.
    standings = ranked(state.players, key=lambda p: (p == leaders[0], total[p]), score=total)
    return replace(state, finished=True, winners=leaders, standings=standings, expected=())


# A bid is a number of tricks, the three bid cards (as suits or cards), or "missed".
_BID = OneOf(Whole(0, MAX_BID), CardNames(least=1, most=3), Choice(MISSED_WORDS), Empty())

EVENTS = {
    "deal": EventType(
        _play_deal,
        _("a deal"),
        {
            "bids": need(PerPlayer(_BID, every=True), _("the bids")),
            "tricks": need(PerPlayer(Whole(0, TRICKS), every=True), _("the tricks taken")),
            "calls": may(PerPlayer(Choice(CALLS)), _("the premium calls")),
            "turn_up": may(CardName(), _("the turned-up card")),
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
    position=70,
)
