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
among them); equal totals: the declarer wins, and if he is not among them (or there was none) the
one who reached 500 first in trick order, which the event then names (``first_to_500``). It also
ends when someone falls to −500 or below: the best score wins "via bakdörren" (a shared best
score is reported as a tie, FH6).

Other player counts: with 4, partners sit opposite (seats 0 & 2, 1 & 3), each side scores as one
(both partners carry the side's score; ``State.teams`` maps each to his side for the league),
the partner of a misère declarer lays his cards aside, and a side cannot reach 500 on trick
points when the other side fails a contract — it stays at 490. The four-player auction goes
round several times, so (FH7) it has no 250 for ten tricks. With 5, the declarer plays solo or
calls a partner, who then wins or loses the bid's value as he does (never on a misère). With 2
the game is as for three.

Design — one event per deal (the pad records the contract and the tricks, not the cards):

``{"type": "deal", "declarer": player | null, "contract": "8H" | "7NT" | "misere" |
"open_misere" | null, "partner": player (five players only, optional),
"tricks": {player: n, …} (summing to 10), "first_to_500": player (only when needed)}``

Contracts are also accepted as people write them: ``8♥``, ``7 sang``, ``6 spader``, ``misär``,
``öppen misär``. The deal passes clockwise; förhand sits left of the dealer. The sheet is a tuple
of ``DealRow`` with each seat's points and running score. No money changes hands.

Calculators: ``bid_value``, ``parse_contract``, ``score_deal``, ``bid_order``, ``bid_table``,
``render_bid_table``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from engine.base import Standing, Transfer, check_choices, is_whole, left_of, ranked, seat_players
from engine.errors import IllegalEvent, _

KEY = "femhundra"
NAMES = {"sv": "Femhundra", "en": "Five Hundred"}
MIN_PLAYERS = 2
MAX_PLAYERS = 5
EVENT_TYPES = ("deal",)

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

    def slam_bonus(self, players: int) -> bool:
        if self.bidding == "auto":
            return players != 4
        return self.bidding == "one_round"


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
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = EVENT_TYPES
    log: tuple[str, ...] = ()


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


def render_bid_table(rules: Rules = Rules(), players: int = 3) -> str:
    """The bid table as fixed-width text: a grid of the Avondale values, then the misères."""
    header = "      " + "".join(f"{TRUMP_LABELS[t]:>6}" for t in TRUMPS)
    lines = [header]
    for tricks, values in AVONDALE:
        lines.append(f"{tricks:>4}  " + "".join(f"{v:>6}" for v in values))
    if rules.misere:
        where = "mellan 7NT och 8♠" if rules.misere_rank == "seed" else "mellan 8♠ och 8♣"
        lines.append(f"Misär {MISERE_VALUE} (rangordnas {where})")
        lines.append(f"Öppen misär {bid_value(OPEN_MISERE, players)} (högsta budet)")
    return "\n".join(lines)


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
            game="Femhundra",
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
    players: Sequence[str], rules: Rules = Rules(), first_dealer: str | None = None
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
    )


def apply(state: State, event: Mapping[str, Any]) -> State:
    if state.finished:
        raise IllegalEvent(_("the game is over; no more deals can be recorded"))
    if event.get("type") != "deal":
        raise IllegalEvent(
            _("unknown event type {kind}; Femhundra records {types}"),
            kind=event.get("type"),
            types=", ".join(EVENT_TYPES),
        )
    return _play_deal(state, event)


def _seat(state: State, event: Mapping[str, Any], field: str) -> int | None:
    player = event.get(field)
    if player is None:
        return None
    if player not in state.players:
        raise IllegalEvent(
            _("{field}: {player} is not a player in this game"), field=field, player=player
        )
    return state.players.index(player)


def _read_tricks(state: State, event: Mapping[str, Any]) -> tuple[int, ...]:
    given = event.get("tricks")
    if not isinstance(given, Mapping):
        raise IllegalEvent(_("'tricks' must map each player to the tricks he took"))
    for player in given:
        if player not in state.players:
            raise IllegalEvent(
                _("{field}: {player} is not a player in this game"), field="tricks", player=player
            )
    for player in state.players:
        took = given.get(player)
        if not is_whole(took) or not 0 <= took <= TRICKS:
            raise IllegalEvent(
                _("tricks: {player} cannot take {count} tricks"), player=player, count=repr(took)
            )
    tricks = tuple(given[p] for p in state.players)
    if sum(tricks) != TRICKS:
        raise IllegalEvent(_TRICKS_SUM, count=sum(tricks), tricks=TRICKS)
    return tricks


def _play_deal(state: State, event: Mapping[str, Any]) -> State:
    players = state.players
    declarer = _seat(state, event, "declarer")
    partner = _seat(state, event, "partner")
    tricks = _read_tricks(state, event)
    contract = None
    if declarer is None:
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
    return _finish_if_over(state, declarer, event)


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


def _deal_log(state: State, row: DealRow) -> tuple[str, ...]:
    if row.declarer is None:
        head = "Rundpass: 10 poäng per stick"
    else:
        outcome = "hemma" if row.made else "bet"
        with_partner = f" med {row.partner}" if row.partner else ""
        head = f"{row.declarer}{with_partner} spelar {contract_label(row.contract)}: {outcome}"
    lines = [head]
    lines += [
        f"{p}: {t} stick, {pts:+d} = {s}"
        for p, t, pts, s in zip(state.players, row.tricks, row.points, row.scores, strict=True)
    ]
    if row.held_at_490:
        lines.append("Motspelarna står kvar på 490 (kan inte vinna på stickpoäng)")
    return tuple(lines)


def _finish_if_over(state: State, declarer: int | None, event: Mapping[str, Any]) -> State:
    groups = teams(len(state.players))
    score = {team: state.scores[team[0]] for team in groups}
    reached = [team for team in groups if score[team] >= TARGET]
    if reached:
        winner = _winner_at_500(state, reached, score, declarer, event)
        line = f"{' och '.join(state.players[s] for s in winner)} vinner ({score[winner]})"
        return _finish(state, winner, tie=False, back_door=False, line=line)
    if min(score.values()) <= BACK_DOOR:
        best = max(score.values())
        tops = [team for team in groups if score[team] == best]
        tie = len(tops) > 1  # FH6: not resolved
        winner = tuple(s for team in tops for s in team)
        names = " och ".join(state.players[s] for s in winner)
        line = (
            f"Någon nådde −500: lika i toppen ({names}, {best}) – oavgjort"
            if tie
            else f"{names} vinner via bakdörren ({best})"
        )
        return _finish(state, winner, tie=tie, back_door=True, line=line)
    return state


def _winner_at_500(
    state: State,
    reached: list[tuple[int, ...]],
    score: dict[tuple[int, ...], int],
    declarer: int | None,
    event: Mapping[str, Any],
) -> tuple[int, ...]:
    declaring = next((t for t in reached if declarer in t), None)
    if declaring is not None and state.rules.several_over_500 == "declarer":
        return declaring  # FH4, the alternative
    best = max(score[t] for t in reached)
    tops = [t for t in reached if score[t] == best]
    if len(tops) == 1:
        return tops[0]  # FH4: the highest total
    if declaring in tops:
        return declaring  # "vinner den som var spelförare i den given"
    # "… vinner den som först nådde upp till 500 poäng i den ordning som sticken spelades."
    names = [state.players[s] for t in tops for s in t]
    first = event.get("first_to_500")
    if first is None and declarer is None:
        raise IllegalEvent(
            _(
                "{names} reached {best} in the same deal and nobody declared: say who reached "
                "500 first, in the order the tricks were played"
            ),
            names=", ".join(names),
            best=best,
        )
    if first is None:
        raise IllegalEvent(
            _(
                "{names} reached {best} in the same deal and the declarer is not one of them: "
                "say who reached 500 first, in the order the tricks were played"
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


def _finish(state: State, winner: tuple[int, ...], tie: bool, back_door: bool, line: str) -> State:
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
