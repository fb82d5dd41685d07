"""Femhundra (Five Hundred): a score sheet for 2–5 players, the classic game being for three
(populara_kortspel.sv.txt, "Femhundra regler"; NOTES.md FH1–FH7).

A bid names 6 to 10 of the ten tricks and a trump suit (♠ ♣ ♦ ♥) or no trump (sang); bids are
worth the standard Avondale values (FH1, ``AVONDALE``): 6♠ 40, 6♣ 60, 6♦ 80, 6♥ 100, 6NT 120,
each further trick 100 more, up to 10NT 520. With ``Rules.misere`` (the Anglo-Saxon variant) two
more bids exist: misère (misär, 250: take no trick) and open misère (öppen misär, 520; 500 in the
four-player game). Scoring a deal:

- the declarer (spelförare) who takes at least his bid's tricks scores the bid's value, no more —
  except that with one-round bidding a bid worth less than 250 that takes all ten tricks scores
  250 (FH7); a declarer who fails loses the value (scores may go below nought);
- the opponents score 10 a trick they took, either way (FH5: also when a misère is made); when a
  misère fails each opponent scores 10 for each trick the *declarer* took;
- with no bid (rundpass) everybody scores 10 a trick.

The game ends when a player reaches 500 or more. Several at 500 or more in the same deal: the
highest wins (FH4; club option ``several_over_500 = "declarer"``: the declarer wins whenever he is
among them); equal totals: the declarer wins (and in the five-player game his called partner, the
declaring side being counted first); otherwise the one who reached 500 first in the order the
tricks were played, which the engine finds from ``trick_order`` (the opponents earn their ten as
each trick is taken; after a failed misère every opponent earns ten on each of the declarer's
tricks at once, so two who reach 500 on the same trick share the win: a tie). It also ends when
someone falls to −500 or below: the best score wins "via bakdörren" (a shared best score is
reported as a tie, FH6).

Other player counts: with 4, partners sit opposite (seats 0 & 2, 1 & 3), each side scores as one
(both partners carry the side's score; ``State.teams`` maps each to his side for the league),
the partner of a misère declarer lays his cards aside, and a side cannot reach 500 on trick
points when the other side fails a contract — it stays at 490. The four-player auction goes
round several times, so (FH7) it has no 250 for ten tricks. With 5, the declarer plays solo or
calls a partner, who then wins or loses the bid's value as he does (never on a misère). With 2
the game is as for three.

Design — one event per deal (the pad records the auction and the tricks, not the cards):

``{"type": "deal", "auction": ["pass", "7S", "8H", "pass", …], "partner": player (five players
only, optional), "tricks": {player: n, …} (summing to 10), "trick_order": [player × 10] (who took
each trick, in play order; optional, needed only when it decides who reached 500 first)}``

The auction (``read_auction``) is the calls in order, each a bid or ``pass``, from förhand
clockwise. "Varje spelare får endast en chans": by default each player calls once; with
``Rules.bidding`` multi-round (the four-player game, "flera varv … tills ett bud följs av tre
pass") the turn goes round again, skipping whoever passed ("så snart en spelare passar får han
därefter inte komma tillbaka") — the text states that for four players; the app applies it to
every multi-round auction. Each bid is higher than the one before (rank: ``bid_order``). In the
four-player game no misère bid may come before someone has bid at least 7♠ ("Undervariant").
The highest bidder declares his bid; if all pass it is rundpass ("ingen spelförare"). The
declarer and contract follow from the auction.

Deals stored before the auction was recorded (issue 14) name ``declarer`` and ``contract``
instead of ``auction`` (and maybe ``first_to_500``, then typed by the scorer); they replay as
before, the typed first-to-500 now having to be one of those tied. A game that has recorded an
auction takes no such deal afterwards, and ``first_to_500`` is refused beside an auction.

What no table can produce (issue 25). The pad records per deal the auction, the called partner
(five players), each player's tricks and perhaps who took each trick — not the cards, the kitty
or the discards. Every recorded fact must be one that a deck for that table could yield (two
players: 24 cards, ace to nine; three: 33, ace to seven and the joker; four: 43, without twos,
threes and black fours, and the joker; five: 53; ten cards to each player, the rest the kitty),
and agree with the other facts of the deal:

1. Ten tricks: each player plays one card to each of the ten tricks, so the tricks add up to
   ten and nobody takes more than ten.
2. The order of the tricks, when given, names ten players at the table, and each took as many
   tricks in it as his count says.
3. A four-player misère is played by the declarer alone: his partner has laid his cards aside,
   so he takes no trick (and stands nowhere in the order of the tricks).
4. A called partner exists only at five, is not the declarer himself, and is never called on a
   misère ("får spelföraren däremot inte utse någon till partner").
5. The auction is one that the table could make: each call a bid or pass in turn from förhand,
   each bid higher than the last, one chance each (or rounds until a bid is followed by passes,
   a passed player staying out), no misère at four before 7♠; the declarer and contract are the
   auction's, and anything typed beside it must agree. Whether the contract was made follows
   from the tricks, never from what is typed.
Nothing else about the cards is recorded, and every split of the ten tricks among the players
who play is reachable with some deal (the simulator, ``tests/engine/simulate/femhundra.py``,
plays real cards: the joker, the bowers, following suit, the kitty). The card values of the
text (FH2) are not part of the game, so no card points are counted or bounded. Issue 25 added
no check that a stored game could fail; ``new_game(..., legacy_facts=True)`` is taken, like
every engine's, and changes nothing.

Contracts are also accepted as people write them: ``8♥``, ``7 sang``, ``6 spader``, ``misär``,
``öppen misär``. The deal passes clockwise; förhand sits left of the dealer. The sheet is a tuple
of ``DealRow`` with each seat's points and running score. No money changes hands.

Calculators: ``bid_value``, ``parse_contract``, ``score_deal``, ``bid_order``, ``bid_table``,
``render_bid_table``, ``read_auction``; the pad asks ``trick_order_may_decide`` whether to offer
the trick-by-trick entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from engine.base import (
    Declaration,
    EventType,
    Kind,
    PerPlayer,
    Player,
    Standing,
    Transfer,
    Whole,
    check_choices,
    clockwise,
    dispatch,
    event_types,
    left_of,
    may,
    need,
    ranked,
    seat_players,
)
from engine.errors import IllegalEvent, Line, _, listed

KEY = "femhundra"
NAME = _("Five Hundred")
MIN_PLAYERS = 2
MAX_PLAYERS = 5

TRICKS = 10
TARGET = 500
BACK_DOOR = -500
SLAM_VALUE = 250  # ten tricks on a bid worth less (one-round bidding only, FH7)
TRICK_POINTS = 10
HELD_AT = 490  # four players: a side cannot win on trick points when the other side fails

TRUMPS = ("S", "C", "D", "H", "NT")  # in rank order, lowest first
TRUMP_LABELS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥", "NT": "NT"}
# FH1, the Avondale schedule: tricks bid → values for ♠ ♣ ♦ ♥ NT.
AVONDALE: tuple[tuple[int, tuple[int, int, int, int, int]], ...] = (
    (6, (40, 60, 80, 100, 120)),
    (7, (140, 160, 180, 200, 220)),
    (8, (240, 260, 280, 300, 320)),
    (9, (340, 360, 380, 400, 420)),
    (10, (440, 460, 480, 500, 520)),
)
BID_VALUES: dict[str, int] = {
    f"{tricks}{trump}": value
    for tricks, values in AVONDALE
    for trump, value in zip(TRUMPS, values, strict=True)
}
MISERE = "misere"
OPEN_MISERE = "open_misere"
PASS = "pass"
MISERE_AFTER = (
    "7S"  # four players: "inget misärbud får avges förrän någon … bjudit minst sju spader"
)
MISERE_VALUE = 250
OPEN_MISERE_VALUE = 520
OPEN_MISERE_VALUE_FOUR = 500  # "Undervariant" for four players

MISERE_RANKS = ("seed", "value")
BIDDINGS = ("auto", "one_round", "multi_round")
SEVERAL_OVER_500 = ("highest", "declarer")


@dataclass(frozen=True)
class Rules:
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "misere_rank": MISERE_RANKS,
        "bidding": BIDDINGS,
        "several_over_500": SEVERAL_OVER_500,
    }
    LABELS: ClassVar[dict[str, str]] = {
        "misere": _("Misère and open misère"),
        "misere_rank": _("Where misère ranks"),
        "bidding": _("Bidding"),
        "several_over_500": _("Several over 500 at once"),
    }
    CHOICE_LABELS: ClassVar[dict[str, dict[str, str]]] = {
        "misere_rank": {
            "seed": _("Between 7NT and 8♠"),
            "value": _("By its value, between 8♠ and 8♣"),
        },
        "bidding": {
            "auto": _("One round, several with four players"),
            "one_round": _("One round"),
            "multi_round": _("Several rounds"),
        },
        "several_over_500": {
            "highest": _("The highest total wins"),
            "declarer": _("The declarer wins if among them"),
        },
    }

    misere: bool = False  # the Anglo-Saxon bids misère and open misère
    # FH3: misère ranks between 7NT and 8♠ (the seed) or by its value, between 8♠ and 8♣.
    misere_rank: Literal["seed", "value"] = "seed"
    # FH7: one round earns 250 for ten tricks; "auto" is one round except with four players,
    # whose auction goes round several times.
    bidding: Literal["auto", "one_round", "multi_round"] = "auto"
    # FH4: several at 500+ with different totals: the highest wins, or the declarer if among them.
    several_over_500: Literal["highest", "declarer"] = "highest"

    def __post_init__(self) -> None:
        check_choices(self)

    def one_round(self, players: int) -> bool:
        """Whether each player calls once ("endast en chans"); the four-player auction goes
        round several times unless the club says otherwise."""
        if self.bidding == "auto":
            return players != 4
        return self.bidding == "one_round"

    def slam_bonus(self, players: int) -> bool:
        return self.one_round(players)  # FH7


@dataclass(frozen=True)
class DealRow:
    """One line of the score sheet; tuples are per seat in seat order."""

    number: int
    dealer: str
    declarer: str | None  # None: rundpass
    partner: str | None  # the five-player called partner, or the four-player partner
    contract: str | None  # "8H", "7NT", "misere", "open_misere"
    value: int
    made: bool | None
    tricks: tuple[int, ...]
    points: tuple[int, ...]  # what each seat's score changed by
    scores: tuple[int, ...]  # running scores after this deal
    held_at_490: bool = False
    # (player, call) in the order called; None for a deal stored before auctions were recorded.
    auction: tuple[tuple[str, str], ...] | None = None


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules = Rules()
    dealer: str = ""
    forhand: str = ""
    scores: tuple[int, ...] = ()
    sheet: tuple[DealRow, ...] = ()
    winners: tuple[str, ...] = ()
    tie: bool = False
    back_door: bool = False
    # Four players: partners (player → side 0 or 1) for the league's team ratings. Empty
    # otherwise — the five-player called partner changes from deal to deal.
    teams: dict[str, int] = field(default_factory=dict)
    # Games started before the auction was recorded (issue 14; marked by a data migration) may
    # go on naming the declarer and contract; every other game records the auction.
    legacy_deals: bool = False
    legacy_facts: bool = False  # issue 25: taken like every engine's; nothing to skip here
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ()  # new_game sets EVENT_TYPES: a deal is always next
    log: tuple[Line, ...] = ()


# --- contracts and the bid table ---------------------------------------------------------------

_TRUMP_WORDS = {
    "S": ("s", "sp", "spader", "spade", "spades", "♠"),
    "C": ("c", "k", "kl", "klöver", "klover", "club", "clubs", "♣"),
    "D": ("d", "ru", "ruter", "diamond", "diamonds", "♦"),
    "H": ("h", "hj", "hjärter", "hjarter", "heart", "hearts", "♥"),
    "NT": ("nt", "n", "sang", "sans", "notrump", "notrumps", "utantrumf", "no"),
}
_TRUMP_BY_WORD = {word: trump for trump, words in _TRUMP_WORDS.items() for word in words}
_MISERE_WORDS = {"misere", "misère", "misär", "misar", "noll", "nullo"}
_OPEN_WORDS = ("open", "öppen", "oppen")
_BID_TEXT = re.compile(r"^(\d+)(\D+)$")
_NOT_A_BID = _("{text} is not a bid; bids are 6–10 tricks in ♠ ♣ ♦ ♥ or NT (e.g. 8H, 7NT, 6♠)")
_NOT_IN_TABLE = _(
    "{text} is not in the bid table; bids are 6–10 tricks in ♠ ♣ ♦ ♥ or NT (e.g. 8H, 7NT, 6♠)"
)
_TRICKS_SUM = _("the tricks add up to {count}, but a deal has {tricks}")
_ONLY_FIVE = _("only the five-player game has a called partner")


def parse_contract(text: str, misere: bool = True) -> str:
    """The canonical contract ("8H", "7NT", "misere", "open_misere") for what was written."""
    if not isinstance(text, str):
        raise IllegalEvent(_NOT_A_BID, text=repr(text))
    word = re.sub(r"[\s_\-]+", "", text.strip().lower())
    contract = _misere_contract(word)
    if contract is not None:
        if not misere:
            raise IllegalEvent(
                _("{text}: misère is not bid at this table (the Anglo-Saxon variant is off)"),
                text=repr(text),
            )
        return contract
    match = _BID_TEXT.match(word)
    trump = _TRUMP_BY_WORD.get(match.group(2)) if match else None
    if match is None or trump is None:
        raise IllegalEvent(_NOT_A_BID, text=repr(text))
    contract = f"{int(match.group(1))}{trump}"
    if contract not in BID_VALUES:
        raise IllegalEvent(_NOT_IN_TABLE, text=repr(text))
    return contract


def _misere_contract(word: str) -> str | None:
    if word in _MISERE_WORDS:
        return MISERE
    for prefix in _OPEN_WORDS:
        if word.startswith(prefix) and word[len(prefix) :] in _MISERE_WORDS:
            return OPEN_MISERE
    return None


def bid_value(contract: str, players: int = 3) -> int:
    """A contract's worth (FH1); open misère is 500 in the four-player game, else 520."""
    if contract == MISERE:
        return MISERE_VALUE
    if contract == OPEN_MISERE:
        return OPEN_MISERE_VALUE_FOUR if players == 4 else OPEN_MISERE_VALUE
    if contract not in BID_VALUES:
        raise IllegalEvent(_NOT_IN_TABLE, text=repr(contract))
    return BID_VALUES[contract]


def contract_tricks(contract: str) -> int:
    """Tricks the declarer's side must take (a misère: none — it must take exactly none)."""
    if contract in (MISERE, OPEN_MISERE):
        return 0
    return int(contract.rstrip("SCDHNT"))


def contract_label(contract: str | None) -> str:
    if contract is None:
        return "rundpass"
    if contract == MISERE:
        return "misär"
    if contract == OPEN_MISERE:
        return "öppen misär"
    tricks = contract_tricks(contract)
    return f"{tricks}{TRUMP_LABELS[contract[len(str(tricks)) :]]}"


def bid_order(rules: Rules = Rules()) -> tuple[str, ...]:
    """Every contract from lowest to highest rank (FH3 decides where misère goes)."""
    order = list(BID_VALUES)
    if rules.misere:
        after = "7NT" if rules.misere_rank == "seed" else "8S"
        order.insert(order.index(after) + 1, MISERE)
        order.append(OPEN_MISERE)  # "rangordnas som det högsta möjliga"
    return tuple(order)


def bid_table(rules: Rules = Rules(), players: int = 3) -> tuple[tuple[str, str, int], ...]:
    """(contract, label, value) in rank order, for the help page."""
    return tuple((c, contract_label(c), bid_value(c, players)) for c in bid_order(rules))


@dataclass(frozen=True)
class BidTable:
    """The bid table as data for a page to lay out in the reader's language: the trump columns
    (``TRUMP_LABELS``: symbols and "NT"), one row per number of tricks with its five values, and
    the misère bids as ``Line``s (English templates, translated at the edge)."""

    trumps: tuple[str, ...]
    rows: tuple[tuple[int, tuple[int, ...]], ...]
    notes: tuple[Line, ...] = ()

    def text(self) -> str:
        """Fixed-width English text (a shell or a log); pages render ``rows`` and ``notes``."""
        lines = ["      " + "".join(f"{t:>6}" for t in self.trumps)]
        lines += [f"{n:>4}  " + "".join(f"{v:>6}" for v in values) for n, values in self.rows]
        return "\n".join([*lines, *self.notes])


def render_bid_table(rules: Rules = Rules(), players: int = 3) -> BidTable:
    """The bid table: a grid of the Avondale values, then the misères (when bid)."""
    notes: tuple[Line, ...] = ()
    if rules.misere:
        where = (
            _("Misère {value} (ranks between 7NT and 8♠)")
            if rules.misere_rank == "seed"
            else _("Misère {value} (ranks by its value, between 8♠ and 8♣)")
        )
        notes = (
            Line(where, value=MISERE_VALUE),
            Line(_("Open misère {value} (the highest bid)"), value=bid_value(OPEN_MISERE, players)),
        )
    return BidTable(
        trumps=tuple(TRUMP_LABELS[t] for t in TRUMPS),
        rows=tuple((tricks, values) for tricks, values in AVONDALE),
        notes=notes,
    )


# --- the auction ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Auction:
    """A finished auction: the calls as (player, call), and what they make of the deal."""

    calls: tuple[tuple[str, str], ...]
    declarer: str | None  # None: rundpass
    contract: str | None


def read_auction(
    calls: Sequence[str], players: Sequence[str], forhand: str, rules: Rules = Rules()
) -> Auction:
    """The auction of the calls in order from ``forhand``, each a bid or ``pass``; refuses a
    bid that is not higher, a misère too early (four players), a call after the end and an
    auction that is not over."""
    order = bid_order(rules)
    made: list[tuple[str, str]] = []
    passed: set[str] = set()
    high: tuple[str, str] | None = None  # (bidder, bid)
    for number, text in enumerate(calls, start=1):
        caller = _next_caller(players, forhand, made, passed, high, rules)
        if caller is None:
            raise IllegalEvent(
                _(
                    "the auction is over after {count} calls; call {number} ({call}) is one "
                    "too many"
                ),
                count=len(made),
                number=number,
                call=repr(text),
            )
        call = _read_call(text, rules)
        if call == PASS:
            passed.add(caller)
        else:
            _check_bid(number, caller, call, high, order, len(players))
            high = (caller, call)
        made.append((caller, call))
    caller = _next_caller(players, forhand, made, passed, high, rules)
    if caller is not None:
        raise IllegalEvent(
            _("the auction is not over: {player} has still to call (bid or pass)"), player=caller
        )
    return Auction(
        calls=tuple(made),
        declarer=None if high is None else high[0],
        contract=None if high is None else high[1],
    )


def _read_call(text: str, rules: Rules) -> str:
    if isinstance(text, str) and text.strip().lower() in (PASS, "p", "passar"):
        return PASS
    return parse_contract(text, misere=rules.misere)


def _next_caller(
    players: Sequence[str],
    forhand: str,
    made: Sequence[tuple[str, str]],
    passed: set[str],
    high: tuple[str, str] | None,
    rules: Rules,
) -> str | None:
    """Who calls next, or None when the auction is over."""
    if rules.one_round(len(players)):
        # "Varje spelare får endast en chans att yttra sig."
        turns = clockwise(players, forhand, players)
        return turns[len(made)] if len(made) < len(turns) else None
    # Several rounds: over when all have passed, or all but the highest bidder.
    still_in = [p for p in players if p not in passed]
    if not still_in or (high is not None and still_in == [high[0]]):
        return None
    start = forhand if not made else left_of(players, made[-1][0])
    return clockwise(players, start, still_in)[0]


def _check_bid(
    number: int,
    caller: str,
    bid: str,
    high: tuple[str, str] | None,
    order: Sequence[str],
    players: int,
) -> None:
    if high is not None and order.index(bid) <= order.index(high[1]):
        raise IllegalEvent(
            _(
                "auction, call {number}: {player} bids {bid}, but {highest} is already bid; a "
                "bid must be higher, or pass"
            ),
            number=number,
            player=caller,
            bid=_contract_words(bid),
            highest=_contract_words(high[1]),
        )
    misere = bid in (MISERE, OPEN_MISERE)
    early = high is None or order.index(high[1]) < order.index(MISERE_AFTER)
    if players == 4 and misere and early:
        raise IllegalEvent(
            _(
                "auction, call {number}: {player} bids {bid}, but in the four-player game no "
                "misère may be bid until someone has bid 7♠ or higher"
            ),
            number=number,
            player=caller,
            bid=_contract_words(bid),
        )


# --- scoring one deal -----------------------------------------------------------------------------


def teams(players: int) -> tuple[tuple[int, ...], ...]:
    """Who scores together: partners opposite with four players, else everybody alone."""
    if players == 4:
        return ((0, 2), (1, 3))
    return tuple((seat,) for seat in range(players))


def score_deal(
    tricks: Sequence[int],
    declarer: int | None = None,
    contract: str | None = None,
    partner: int | None = None,
    rules: Rules = Rules(),
) -> tuple[int, ...]:
    """Points per seat for one deal (before the four-player 490 rule, which needs the scores).

    ``tricks`` per seat (their number is the number of players); ``declarer`` a seat or None for
    rundpass; ``partner`` the five-player called partner (with four, the partner is opposite).
    """
    players = len(tricks)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalEvent(
            _("{game} is for {allowed} players, not {count}"),
            game=NAME,
            allowed=f"{MIN_PLAYERS}–{MAX_PLAYERS}",
            count=players,
        )
    if any(t < 0 for t in tricks) or sum(tricks) != TRICKS:
        raise IllegalEvent(_TRICKS_SUM, count=sum(tricks), tricks=TRICKS)
    side_of = {seat: team for team in teams(players) for seat in team}
    if declarer is None:
        return tuple(
            TRICK_POINTS * sum(tricks[s] for s in side_of[seat]) for seat in range(players)
        )
    if contract is None:
        raise IllegalEvent(_("a declarer needs a contract"))
    declaring = _declaring_seats(players, declarer, contract, partner)
    value = bid_value(contract, players)
    made, taken = _contract_made(tricks, declarer, contract, declaring)
    if made and taken == TRICKS and value < SLAM_VALUE and rules.slam_bonus(players):
        value = SLAM_VALUE
    points = []
    for seat in range(players):
        if seat in declaring:
            points.append(value if made else -value)
        elif contract in (MISERE, OPEN_MISERE) and not made:
            points.append(TRICK_POINTS * tricks[declarer])  # "för varje stick som spelföraren tar"
        else:
            points.append(TRICK_POINTS * sum(tricks[s] for s in side_of[seat]))
    return tuple(points)


def _declaring_seats(
    players: int, declarer: int, contract: str, partner: int | None
) -> frozenset[int]:
    if players == 4:
        return frozenset({declarer, (declarer + 2) % 4})
    if partner is None:
        return frozenset({declarer})
    if players != 5:
        raise IllegalEvent(_ONLY_FIVE)
    if contract in (MISERE, OPEN_MISERE):
        raise IllegalEvent(_("a misère declarer may not call a partner"))
    if partner == declarer:
        raise IllegalEvent(_("the declarer cannot call himself as partner"))
    return frozenset({declarer, partner})


def _contract_made(
    tricks: Sequence[int], declarer: int, contract: str, declaring: frozenset[int]
) -> tuple[bool, int]:
    if contract in (MISERE, OPEN_MISERE):
        # With four players the misère declarer's partner lays his cards aside.
        if len(declaring) > 1 and any(tricks[s] for s in declaring if s != declarer):
            raise IllegalEvent(_("the misère declarer's partner lays his cards aside: 0 tricks"))
        return tricks[declarer] == 0, tricks[declarer]
    taken = sum(tricks[s] for s in declaring)
    return taken >= contract_tricks(contract), taken


# --- the game ----------------------------------------------------------------------------------


def new_game(
    players: Sequence[str],
    rules: Rules = Rules(),
    first_dealer: str | None = None,
    legacy_deals: bool = False,
    legacy_facts: bool = False,
) -> State:
    players, dealer = seat_players(players, "Femhundra", MIN_PLAYERS, MAX_PLAYERS, first_dealer)
    sides = teams(len(players)) if len(players) == 4 else ()
    return State(
        players=players,
        rules=rules,
        dealer=dealer,
        forhand=left_of(players, dealer),
        scores=(0,) * len(players),
        teams={players[seat]: side for side, seats in enumerate(sides) for seat in seats},
        legacy_deals=legacy_deals,
        legacy_facts=bool(legacy_facts),
        expected=EVENT_TYPES,
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    return dispatch(state, event, EVENTS, game=NAME)


def _seat(state: State, event: Mapping[str, Any], field: str) -> int | None:
    player = event.get(field)  # the declaration checked it is a player at the table
    return None if player is None else state.players.index(player)


def _read_tricks(state: State, event: Mapping[str, Any]) -> tuple[int, ...]:
    tricks = tuple(event["tricks"][p] for p in state.players)  # declared: 0–10 for everyone
    if sum(tricks) != TRICKS:
        raise IllegalEvent(_TRICKS_SUM, count=sum(tricks), tricks=TRICKS)
    order = call_list(event.get("trick_order"))
    if order is not None:
        for player, took in zip(state.players, tricks, strict=True):
            if order.count(player) != took:
                raise IllegalEvent(
                    _(
                        "the order of the tricks gives {player} {count} tricks, but his tricks "
                        "are recorded as {given}"
                    ),
                    player=player,
                    count=order.count(player),
                    given=took,
                )
    return tricks


def _contract_of(state: State, event: Mapping[str, Any]) -> tuple[Auction | None, int | None]:
    """The auction (None for a deal stored before auctions) and the declarer's seat."""
    if event.get("auction") is None:
        if not state.legacy_deals or any(row.auction is not None for row in state.sheet):
            raise IllegalEvent(
                _(
                    "this game records the auction: give the calls in order from eldest hand "
                    "(förhand), not the declarer and contract alone"
                )
            )
        return None, _seat(state, event, "declarer")
    if event.get("first_to_500") is not None:
        raise IllegalEvent(
            _(
                "who reached 500 first is not typed with an auction: the app finds it from the "
                "order of the tricks"
            )
        )
    auction = read_auction(call_list(event["auction"]), state.players, state.forhand, state.rules)
    _check_agrees(state, event, auction)
    return auction, None if auction.declarer is None else state.players.index(auction.declarer)


def _check_agrees(state: State, event: Mapping[str, Any], auction: Auction) -> None:
    """A declarer or contract given beside the auction must be what the auction made."""
    given, typed = event.get("declarer"), event.get("contract")
    if given is not None and given != auction.declarer:
        raise IllegalEvent(
            _("declarer: the auction makes {player} the declarer, not {given}"),
            player=auction.declarer or _("nobody (rundpass)"),
            given=given,
        )
    if typed is not None and parse_contract(typed, state.rules.misere) != auction.contract:
        raise IllegalEvent(
            _("contract: the auction's contract is {contract}, not {given}"),
            contract=_contract_words(auction.contract),
            given=typed,
        )


def _play_deal(state: State, event: Mapping[str, Any]) -> State:
    players = state.players
    auction, declarer = _contract_of(state, event)
    partner = _seat(state, event, "partner")
    tricks = _read_tricks(state, event)
    contract = None
    if auction is not None:
        contract = auction.contract
        if declarer is None and partner is not None:
            raise IllegalEvent(_("a contract needs a declarer (no declarer means rundpass)"))
    elif declarer is None:
        if event.get("contract") is not None or partner is not None:
            raise IllegalEvent(_("a contract needs a declarer (no declarer means rundpass)"))
    else:
        if event.get("contract") is None:
            raise IllegalEvent(
                _("{player} declares, but the contract is missing"), player=players[declarer]
            )
        contract = parse_contract(event["contract"], misere=state.rules.misere)
    if partner is not None and len(players) != 5:
        raise IllegalEvent(_ONLY_FIVE)
    points = score_deal(tricks, declarer, contract, partner, state.rules)
    points, held = _hold_at_490(state, declarer, points)
    scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
    made = None if declarer is None else points[declarer] > 0
    if declarer is not None and len(players) == 4:
        partner = (declarer + 2) % 4
    row = DealRow(
        number=len(state.sheet) + 1,
        dealer=state.dealer,
        declarer=None if declarer is None else players[declarer],
        partner=None if partner is None else players[partner],
        contract=contract,
        value=0 if contract is None else bid_value(contract, len(players)),
        made=made,
        tricks=tricks,
        points=points,
        scores=scores,
        held_at_490=held,
        auction=None if auction is None else auction.calls,
    )
    dealer = left_of(players, state.dealer)
    state = replace(
        state,
        dealer=dealer,
        forhand=left_of(players, dealer),
        scores=scores,
        sheet=(*state.sheet, row),
        transfers=(),
        log=_deal_log(state, row),
    )
    return _finish_if_over(state, row, event)


def _hold_at_490(
    state: State, declarer: int | None, points: tuple[int, ...]
) -> tuple[tuple[int, ...], bool]:
    # Four players: "det är inte tillåtet att uppnå 500 poäng genom stickpoäng när
    # motståndarsidan går bet i ett kontrakt … står den sidan kvar på 490 poäng".
    if len(state.players) != 4 or declarer is None or points[declarer] > 0:
        return points, False
    held = False
    adjusted = list(points)
    for seat in range(4):
        if seat % 2 != declarer % 2 and state.scores[seat] + points[seat] >= TARGET:
            adjusted[seat] = max(0, HELD_AT - state.scores[seat])
            held = True
    return tuple(adjusted), held


def _deal_log(state: State, row: DealRow) -> tuple[Line, ...]:
    lines = []
    if row.auction is not None:
        calls = listed(
            Line(
                _("{player} {value}"),
                player=player,
                value="pass" if call == PASS else _contract_words(call),
            )
            for player, call in row.auction
        )
        lines.append(Line(_("Bidding: {calls}"), calls=calls))
    if row.declarer is None:
        lines.append(Line(_("Passed round: 10 points per trick")))
    else:
        lines.append(_contract_line(row))
    lines += [
        Line(
            _("{player}: tricks {tricks}, {points} = {score}"),
            player=p,
            tricks=t,
            points=f"{pts:+d}",
            score=s,
        )
        for p, t, pts, s in zip(state.players, row.tricks, row.points, row.scores, strict=True)
    ]
    if row.held_at_490:
        lines.append(Line(_("The opponents stay at 490 (they cannot win on trick points)")))
    return tuple(lines)


def _contract_words(contract: str | None) -> str:
    """A contract in a log line or a refusal: the misères and the pass round as words the
    reader's language has (translated at the edge), else "7♠" (``contract_label`` is Swedish:
    the bid table's own words)."""
    return _CONTRACT_WORDS.get(contract) or contract_label(contract)


_CONTRACT_WORDS = {
    MISERE: _("misère"),
    OPEN_MISERE: _("open misère"),
    None: _("a pass round (rundpass)"),
}


def _contract_line(row: DealRow) -> Line:
    assert row.contract is not None
    contract = _contract_words(row.contract)
    if row.partner:
        template = (
            _("{player} with {partner} plays {contract}: made")
            if row.made
            else _("{player} with {partner} plays {contract}: set")
        )
        return Line(template, player=row.declarer, partner=row.partner, contract=contract)
    template = (
        _("{player} plays {contract}: made") if row.made else _("{player} plays {contract}: set")
    )
    return Line(template, player=row.declarer, contract=contract)


def _finish_if_over(state: State, row: DealRow, event: Mapping[str, Any]) -> State:
    groups = teams(len(state.players))
    score = {team: state.scores[team[0]] for team in groups}
    reached = [team for team in groups if score[team] >= TARGET]
    if reached:
        winners = _winners_at_500(state, reached, score, row, event)
        names = listed((state.players[s] for team in winners for s in team), last_and=True)
        if len(winners) > 1:
            line = Line(
                _("{players} reach {score} on the same trick – a draw"),
                players=names,
                score=score[winners[0]],
            )
            seats = tuple(s for team in winners for s in team)
            return _finish(state, seats, tie=True, back_door=False, line=line)
        line = Line(_("Winner: {players} ({score})"), players=names, score=score[winners[0]])
        return _finish(state, winners[0], tie=False, back_door=False, line=line)
    if min(score.values()) <= BACK_DOOR:
        best = max(score.values())
        tops = [team for team in groups if score[team] == best]
        tie = len(tops) > 1  # FH6: not resolved
        winner = tuple(s for team in tops for s in team)
        names = listed((state.players[s] for s in winner), last_and=True)
        template = (
            _("Someone reached −500: a tie at the top ({players}, {score}) – a draw")
            if tie
            else _("Winner through the back door: {players} ({score})")
        )
        line = Line(template, players=names, score=best)
        return _finish(state, winner, tie=tie, back_door=True, line=line)
    return state


def _winners_at_500(
    state: State,
    reached: list[tuple[int, ...]],
    score: dict[tuple[int, ...], int],
    row: DealRow,
    event: Mapping[str, Any],
) -> list[tuple[int, ...]]:
    """The side (or player) who wins at 500 — several only when they got there together."""
    seat = {player: s for s, player in enumerate(state.players)}
    declaring = next((t for t in reached if seat.get(row.declarer) in t), None)
    if declaring is not None and state.rules.several_over_500 == "declarer":
        return [declaring]  # FH4, the alternative
    best = max(score[t] for t in reached)
    tops = [t for t in reached if score[t] == best]
    if len(tops) == 1:
        return tops  # FH4: the highest total
    # "… vinner den som var spelförare i den given": the declaring side is counted first (with
    # five players that includes the partner he called).
    for player in (row.declarer, row.partner):
        side = next((t for t in tops if seat.get(player) in t), None)
        if side is not None:
            return [side]
    # "Var ingen spelförare, vinner den som först nådde upp till 500 poäng i den ordning som
    # sticken spelades."
    order = call_list(event.get("trick_order"))
    if order is not None:
        return first_to_500(state, row, order, tops)
    return [_typed_first_to_500(state, tops, best, event)]


def first_to_500(
    state: State, row: DealRow, trick_order: Sequence[str], tops: Sequence[tuple[int, ...]]
) -> list[tuple[int, ...]]:
    """Of the opponents (or, with rundpass, players) ``tops``, who tie at 500 or more after
    ``row``, those who got there first, going through the tricks in the order played.

    ``state`` is after the deal. Each earns his ten as his side takes a trick — after a failed
    misère, as the declarer takes one (all opponents at once, so several can get there on the
    same trick: they share the win). The four-player 490 hold caps the running score."""
    running = {t: state.scores[t[0]] - row.points[t[0]] for t in tops}
    failed_misere = row.contract in (MISERE, OPEN_MISERE) and not row.made
    for taker in trick_order:
        took = state.players.index(taker)
        for team in tops:
            earns = taker == row.declarer if failed_misere else took in team
            if earns:
                running[team] = min(running[team] + TRICK_POINTS, state.scores[team[0]])
        there = [team for team in tops if running[team] >= TARGET]
        if there:
            return there
    return list(tops)  # not reached: the order adds up to the tricks, so this is a safeguard


def _typed_first_to_500(
    state: State, tops: list[tuple[int, ...]], best: int, event: Mapping[str, Any]
) -> tuple[int, ...]:
    """A deal stored before the trick order was recorded names the first to 500 itself."""
    names = [state.players[s] for t in tops for s in t]
    first = event.get("first_to_500")
    if first is None:
        raise IllegalEvent(
            _(
                "{names} reached {best} in the same deal: give who took each trick, in the "
                "order they were played, to find who reached 500 first"
            ),
            names=", ".join(names),
            best=best,
        )
    if first not in names:
        raise IllegalEvent(
            _("{player} is not among those who reached {best}; the first to 500 is one of {names}"),
            player=first,
            best=best,
            names=", ".join(names),
        )
    return next(t for t in tops if state.players.index(first) in t)


def trick_order_may_decide(state: State) -> tuple[str, ...]:
    """The players who could tie at 500 or more in the next deal with nobody's contract to
    decide it — those within one deal's trick points of 500 (opponents gain at most 100),
    when there are at least two sides of them; else nobody. The pad offers the trick order
    for them."""
    reach = TARGET - TRICKS * TRICK_POINTS
    near = [t for t in teams(len(state.players)) if state.scores[t[0]] >= reach]
    if state.finished or len(near) < 2:
        return ()
    return tuple(state.players[s] for t in near for s in t)


def _finish(state: State, winner: tuple[int, ...], tie: bool, back_door: bool, line: Line) -> State:
    # Winners first, then the rest by score.
    score = dict(zip(state.players, state.scores, strict=True))
    won = {state.players[s] for s in winner}
    standings = ranked(state.players, key=lambda p: (p in won, score[p]), score=score)
    return replace(
        state,
        finished=True,
        winners=() if tie else tuple(state.players[s] for s in sorted(winner)),
        tie=tie,
        back_door=back_door,
        standings=standings,
        expected=(),
        log=(*state.log, line),
    )


# --- the event table -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Calls(Kind):
    """The auction: a list of calls in order, each a short text (a bid such as 7S or pass),
    or the same numbered from "1" (``{"1": "pass", "2": "7S"}``, as the pad's rows send it);
    ``read_auction`` says what is wrong with a call it cannot read."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        calls = call_list(value)
        return (
            calls is not None
            and 0 < len(calls) <= MAX_CALLS
            and all(isinstance(c, str) and 0 < len(c.strip()) <= 24 for c in calls)
        )

    def describe(self) -> Any:
        return _("a list of calls in order, each a bid (e.g. 7S, 8♥) or pass")


def call_list(value: Any) -> list[Any] | None:
    """The calls of an auction given as a list or numbered from "1"; None if neither."""
    if isinstance(value, list):
        return value
    if isinstance(value, Mapping) and set(value) == {str(n) for n in range(1, len(value) + 1)}:
        return [value[str(n)] for n in range(1, len(value) + 1)]
    return None


@dataclass(frozen=True)
class TrickWinners(Kind):
    """Who took each of the ten tricks, in the order they were played (a player may recur): a
    list, or numbered from "1" as the pad's rows send it."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        order = call_list(value)
        return (
            order is not None
            and len(order) == TRICKS
            and all(Player().accepts(p, players) for p in order)
        )

    def describe(self) -> Any:
        return IllegalEvent(
            _("the player who took each of the {tricks} tricks, in the order played"),
            tricks=TRICKS,
        )


@dataclass(frozen=True)
class ContractText(Kind):
    """A contract as written (``parse_contract`` reads it)."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return isinstance(value, str) and 0 < len(value.strip()) <= 24

    def describe(self) -> Any:
        return _("a contract (e.g. 8H, 7NT, misère)")


# Every bid is higher than the last, so an auction holds at most the bids of the table and one
# pass from each player.
MAX_CALLS = len(BID_VALUES) + 2 + MAX_PLAYERS

EVENTS = {
    "deal": EventType(
        _play_deal,
        _("a deal"),
        {
            "auction": may(Calls(), _("the auction")),
            "partner": may(Player(), _("the called partner")),
            "tricks": need(PerPlayer(Whole(0, TRICKS), every=True), _("the tricks taken")),
            "trick_order": may(TrickWinners(), _("the order of the tricks")),
            # Deals stored before the auction was recorded (issue 14):
            "declarer": may(Player(), _("the declarer")),
            "contract": may(ContractText(), _("the contract")),
            "first_to_500": may(Player(), _("who reached 500 first")),
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
    position=80,
)
