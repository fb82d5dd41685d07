"""Fyrtioett: a score sheet for the Syrian/Lebanese partnership game (populara_kortspel.sv.txt,
"Fyrtioett regler"; NOTES.md F1–F5).

Four players, partners opposite: seats 0 & 2 against 1 & 3. Each player bids how many of the 13
tricks (hearts permanent trumps) he will take; a bid of 1–6 is worth its number, 7 or more double
(7 = 14 points). The four bids must be worth at least 11 points (F3) or the cards are thrown in.
A player who takes at least his bid scores its worth (no overtricks), else loses it. Each player
keeps his own score; the first to reach 41 (F1: 41 exactly counts) wins for his side.

Design — one state, two events (the pad records the outcome of each deal, not the cards):

- ``{"type": "deal", "bids": {player: n, …}, "tricks": {player: n, …}}`` — a played deal: all
  four bids (``Rules.min_bid``–13, together worth ≥ 11) and the tricks each took (summing to 13).
- ``{"type": "throw_in", "bids": {player: n, …}}`` — the bids were worth less than 11 and the
  cards were thrown in. ``bids`` is optional and may stop short (the last bidder throws in rather
  than bid); if given they are the first bids in bidding order.

After either event the deal passes counter-clockwise (F5): the next dealer is the seat to the
dealer's right, ``(dealer - 1) % 4`` in the clockwise seat order, and förhand (first to bid) sits
to the new dealer's right; ``State.bidding_order`` lists the coming deal's bidders in turn.
The score sheet is a tuple of ``DealRow`` (bids, tricks, points and running scores per seat).
When someone reaches 41 the game is over: if only one side has players
at 41 or more it wins; if both do, the side whose best player has more wins, and if those are
equal the partners' scores decide. If that is equal too (F4) the state reports a tie (``tie``;
all four share first place) rather than guessing. ``teams`` maps each player to his side (0
for seats 0 & 2, 1 for seats 1 & 3), so the league rates the partners as a team. No money
changes hands (``transfers`` is always empty): clubs that play for stakes settle on the
standings.

Every event is checked against its declared payload (``EVENTS``) before its handler runs.

What no table can produce (issue 25). A deal is played with one 52-card deck, 13 cards to each
player, one card each to every trick; the pad records each player's bid and tricks, or that
the cards were thrown in. Refused:

1. a bid outside ``Rules.min_bid``–13: a bid is a number of the 13 tricks a hand can take;
2. tricks that do not add up to 13, or a count outside 0–13 (13 tricks, one per card of a
   hand). Within that every split can happen: nothing recorded says who held which card (the
   bids are the players' hopes, not their cards), and any four counts adding up to 13 come
   from some deal — e.g. the player who takes t tricks holds t of the hearts (trumps) in a run
   of the top ones, and each trick is led so that exactly one heart falls in it;
3. a played deal whose bids are worth less than 11 (F3: the cards were thrown in instead), and
   a throw-in whose bids are worth 11 or more (then it was played) or skip a bidder (the bids
   go in turn from förhand, counter-clockwise; the last may throw in rather than bid);
4. tricks recorded for a deal thrown in: the cards were thrown in before anyone played one, so
   nobody took a trick (tricks of nought may come with it, as a pad's blank row does).

Item 4 is new in issue 25; it concerns a payload that was refused before (a throw-in took no
tricks at all), so no stored game holds it. ``legacy_facts`` (``new_game``, kept on the State)
is there for the data migration all games share: a game stored before issue 25 replays without
the checks added then — for Fyrtioett none that an old game could fail.

Calculators: ``bid_worth``, ``bids_worth``, ``deal_is_played``, ``score_deal``, ``decide_winner``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.base import (
    Declaration,
    EventType,
    PerPlayer,
    Standing,
    Transfer,
    Whole,
    dispatch,
    event_types,
    may,
    need,
    right_of,
    seat_players,
)
from engine.errors import IllegalEvent, Line, _

KEY = "fyrtioett"
NAME = _("Forty-one")
MIN_PLAYERS = 4
MAX_PLAYERS = 4

TRICKS = 13
TARGET = 41
MIN_WORTH = 11  # F3: the bids' worth, a 7-bid counting 14
DOUBLE_FROM = 7
SIDES = ((0, 2), (1, 3))


@dataclass(frozen=True)
class Rules:
    min_bid: int = 1  # F2: the text allows 1; many tables require 2 (club option)

    LABELS = {"min_bid": _("Lowest bid (tricks)")}

    def __post_init__(self) -> None:
        if not 1 <= self.min_bid <= TRICKS:
            raise ValueError(f"min_bid must be 1–{TRICKS}, not {self.min_bid}")


@dataclass(frozen=True)
class DealRow:
    """One line of the score sheet, per seat in seat order."""

    number: int
    dealer: str
    bids: tuple[int | None, ...]  # None: that player never bid (thrown in)
    tricks: tuple[int, ...]  # () when thrown in
    points: tuple[int, ...]
    scores: tuple[int, ...]  # running scores after this deal
    thrown_in: bool = False


@dataclass(frozen=True)
class Outcome:
    """Who won once someone reached 41: the winning seats (one side), or a tie (F4)."""

    winners: tuple[int, ...] = ()
    tie: bool = False


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    dealer: str = ""
    forhand: str = ""
    scores: tuple[int, ...] = (0, 0, 0, 0)
    sheet: tuple[DealRow, ...] = ()
    winners: tuple[str, ...] = ()
    tie: bool = False
    # Partners (player → side 0 or 1), read by the league so ratings treat each side as a team.
    teams: dict[str, int] = field(default_factory=dict)
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ()  # new_game sets EVENT_TYPES: a deal or a throw-in is next
    log: tuple[Line, ...] = ()
    legacy_facts: bool = False  # a game stored before issue 25's checks (see the docstring)

    @property
    def bidding_order(self) -> tuple[str, ...]:
        """Who bids in the coming deal, in turn: förhand (right of the dealer) first, then on
        counter-clockwise, each time to the right (F5); the dealer bids last."""
        order = [self.forhand]
        while len(order) < len(self.players):
            order.append(right_of(self.players, order[-1]))
        return tuple(order)


# --- calculators -----------------------------------------------------------------------------


def bid_worth(bid: int) -> int:
    """A bid of 1–6 is worth its number, 7 or more double ("7 stick =14 poäng")."""
    return 2 * bid if bid >= DOUBLE_FROM else bid


def bids_worth(bids: Sequence[int]) -> int:
    return sum(bid_worth(b) for b in bids)


def deal_is_played(bids: Sequence[int]) -> bool:
    """Whether four bids are worth the 11 points it takes to play (F3)."""
    return bids_worth(bids) >= MIN_WORTH


def score_deal(bids: Sequence[int], tricks: Sequence[int]) -> tuple[int, ...]:
    """Points per seat for one played deal: the bid's worth if made (no overtricks), else minus."""
    if len(bids) != 4 or len(tricks) != 4:
        raise IllegalEvent(_("a deal has four bids and four trick counts"))
    if sum(tricks) != TRICKS:
        raise IllegalEvent(
            _("the tricks add up to {count}, but a deal has {tricks}"),
            count=sum(tricks),
            tricks=TRICKS,
        )
    return tuple(
        bid_worth(bid) if took >= bid else -bid_worth(bid)
        for bid, took in zip(bids, tricks, strict=True)
    )


def decide_winner(scores: Sequence[int]) -> Outcome:
    """The outcome after a deal in which nobody had 41 before (the rules' last paragraph)."""
    crossing = [side for side in SIDES if any(scores[seat] >= TARGET for seat in side)]
    if not crossing:
        return Outcome()
    if len(crossing) == 1:  # F5: both crossers on the same side
        return Outcome(winners=crossing[0])

    def strength(side: tuple[int, ...]) -> tuple[int, int]:
        # The side's best player, then his partner ("avgörs … av hur många poäng partnern har").
        best, partner = sorted((scores[s] for s in side), reverse=True)
        return best, partner

    first, second = (strength(side) for side in SIDES)
    if first == second:
        return Outcome(tie=True)  # F4: not resolved by the text
    return Outcome(winners=SIDES[0] if first > second else SIDES[1])


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
        forhand=right_of(players, dealer),
        teams={player: seat % 2 for seat, player in enumerate(players)},
        expected=EVENT_TYPES,
        legacy_facts=bool(legacy_facts),
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


def _check_bids(state: State, bids: Mapping[str, int]) -> None:
    low = state.rules.min_bid
    for player, bid in bids.items():
        if not low <= bid <= TRICKS:
            raise IllegalEvent(
                _("{player} bid {bid}, but bids are at least {low} and at most {high}"),
                player=player,
                bid=bid,
                low=low,
                high=TRICKS,
            )


def _play_deal(state: State, event: Mapping[str, Any]) -> State:
    _check_bids(state, event["bids"])
    bids = tuple(event["bids"][p] for p in state.players)
    worth = bids_worth(bids)
    if worth < MIN_WORTH:
        raise IllegalEvent(
            _(
                "the bids are worth only {worth} points; with less than {least} the cards are "
                "thrown in: record the deal as thrown in"
            ),
            worth=worth,
            least=MIN_WORTH,
        )
    tricks = tuple(event["tricks"][p] for p in state.players)
    points = score_deal(bids, tricks)
    scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
    row = DealRow(len(state.sheet) + 1, state.dealer, bids, tricks, points, scores)
    log = [
        Line(
            _("{player}: bid {bid}, {tricks} tricks, {points} = {score}"),
            player=p,
            bid=b,
            tricks=t,
            points=f"{pts:+d}",
            score=s,
        )
        for p, b, t, pts, s in zip(state.players, bids, tricks, points, scores, strict=True)
    ]
    state = _next_deal(state, row, tuple(log))
    return _finish_if_won(state)


def _throw_in(state: State, event: Mapping[str, Any]) -> State:
    took = [p for p, n in (event.get("tricks") or {}).items() if n]
    if took:  # item 4: a pad sends the trick row with the throw-in button
        raise IllegalEvent(
            _(
                "the cards were thrown in before anyone played, so nobody took a trick, but "
                "{player} has {tricks}: clear the tricks, or record the deal as played"
            ),
            player=took[0],
            tricks=event["tricks"][took[0]],
        )
    bids_given = dict(event.get("bids") or {})
    _check_bids(state, bids_given)
    order = state.bidding_order
    if set(bids_given) != set(order[: len(bids_given)]):
        expected = ", ".join(order[: len(bids_given)])
        raise IllegalEvent(
            _(
                "bids are made in turn from eldest hand (förhand), {expected} first; these bids "
                "skip a player"
            ),
            expected=expected,
        )
    worth = bids_worth(bids_given.values())
    if worth >= MIN_WORTH:
        raise IllegalEvent(
            _("the bids are worth {worth} points, at least {least}, so the deal is played"),
            worth=worth,
            least=MIN_WORTH,
        )
    row = DealRow(
        number=len(state.sheet) + 1,
        dealer=state.dealer,
        bids=tuple(bids_given.get(p) for p in state.players),
        tricks=(),
        points=(0, 0, 0, 0),
        scores=state.scores,
        thrown_in=True,
    )
    line = Line(
        _("Deal thrown in: the bids were worth {worth} points (under {least})"),
        worth=worth,
        least=MIN_WORTH,
    )
    return _next_deal(state, row, (line,))


def _next_deal(state: State, row: DealRow, log: tuple[Line, ...]) -> State:
    dealer = right_of(state.players, state.dealer)
    return replace(
        state,
        dealer=dealer,
        forhand=right_of(state.players, dealer),
        scores=row.scores,
        sheet=(*state.sheet, row),
        transfers=(),
        log=(*log, Line(_("New deal: {dealer} deals"), dealer=dealer)),
    )


def _finish_if_won(state: State) -> State:
    outcome = decide_winner(state.scores)
    if not outcome.winners and not outcome.tie:
        return state
    players, scores = state.players, state.scores
    if outcome.tie:
        standings = tuple(Standing(p, 1, s) for p, s in zip(players, scores, strict=True))
        line = Line(
            _("Tie: the players over {target} and their partners have as many points – a draw"),
            target=TARGET,
        )
    else:
        losers = next(side for side in SIDES if side != outcome.winners)
        standings = tuple(
            Standing(players[seat], placement, scores[seat])
            for seats, placement in ((outcome.winners, 1), (losers, 3))
            for seat in sorted(seats, key=lambda s: -scores[s])
        )
        first, second = (players[s] for s in outcome.winners)
        line = Line(
            _("{first} and {second} win ({points} points)"),
            first=first,
            second=second,
            points=max(scores[s] for s in outcome.winners),
        )
    return replace(
        state,
        finished=True,
        winners=tuple(players[s] for s in outcome.winners),
        tie=outcome.tie,
        standings=standings,
        expected=(),
        log=(*state.log[:-1], line),  # no next dealer once the game is over
    )


# A bid's form is 0–13 tricks; the club's least bid (F2) is the handler's to check.
_COUNTS = PerPlayer(Whole(0, TRICKS))

EVENTS = {
    "deal": EventType(
        _play_deal,
        _("a deal"),
        {
            "bids": need(PerPlayer(Whole(0, TRICKS), every=True), _("the bids")),
            "tricks": need(PerPlayer(Whole(0, TRICKS), every=True), _("the tricks taken")),
        },
    ),
    # The bids are optional and may stop short: the last bidder throws in rather than bid.
    # Tricks are taken (the pad's one form sends its trick row with the throw-in button) only
    # to say, in words, that a deal thrown in has none — not "a throw-in records nothing
    # called 'tricks'".
    "throw_in": EventType(
        _throw_in,
        _("a throw-in"),
        {"bids": may(_COUNTS, _("the bids")), "tricks": may(_COUNTS, _("the tricks taken"))},
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
    position=60,
)
