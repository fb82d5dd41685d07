"""Whist drive (progressive whist): the movement, the scores and the prizes of a club evening of
whist at several tables. Pure rules; the evening module stores what the tables report and asks
this module where everyone sits, who leads and who wins what. It is not a game of the registry:
each table's deals are played at the table and only the round's tricks are reported.

The rules text (populara_kortspel.sv.txt, "Whist regler") describes whist at one table and says
nothing of drives; these are the classic British drive's rules, with the choices stated here.

- **Tables.** Tables of four, numbered 1 (the top table) to n; the players must be a multiple
  of four, at least eight (two tables). Seats are N, E, S, W clockwise; partners sit opposite:
  N/S against E/W. Round 1 seats the players in the order given, four to a table: the first
  four at table 1 as N, E, S, W, the next four at table 2, and so on (the host's draw).
- **Rounds.** Each table plays ``Rules.deals_per_round`` deals a round (default 4: "an even
  number of deals, usually four, is the rule for each round before moving", Foster's Hoyle on
  progressive games; each player deals once) and ``Rules.rounds`` rounds (default 6, 24 deals).
- **Reporting.** A table reports its round once, as two totals: the tricks N/S took and the
  tricks E/W took (``record_round``); they must add up to 13 × deals. The pair with more tricks
  wins the round. A tie (possible only with an even number of deals) is won by the pair that
  took more tricks in the round's last deal — 13 is odd, so a deal never ties — and only then
  does the table say which pair that was (``last_deal="ns"`` or ``"ew"``).
- **Movement** after every table has reported: at each table but the top one the winners move
  up one table and the losers stay; at the top table the winners stay and the losers go down
  to the last table. So table 1 has its own winners and table 2's, table t (1 < t < n) its own
  losers and table t+1's winners, and table n its own losers and table 1's.
- **Seats, and why partners always change.** At every table one pair stays and one arrives.
  The staying pair takes N and E: the one of them who sat N or E keeps his seat and his
  partner moves to the other of N and E. The arriving pair takes S and W: the one of them
  who sat N or E at his old table takes S, his partner W. The new pairs are N/S and E/W, each
  one stayer with one arrival, so nobody keeps the partner he had — the top table's winners,
  who stay, included.
- **Scores.** Each player scores the tricks his pair took; his total over all rounds decides
  the evening (``tricks``, ``standings``: more is better, equal totals share a place, 1, 1, 3,
  listed in the order the players were given). The standings are also the running ranking
  while the drive goes on.
- **Prizes** (``prizes``): the pool (the entry fees, whole öre) is split by the club's list of
  percentages over the top places (``Rules.prize_percent``, default 50/30/20; whole
  percentages, each place at most the one above it, adding up to 100). Each prize is its
  percentage of the pool rounded down; the öre left over go to the first prize. Players sharing
  a place share the prizes of the places they cover (two tied for second share the second and
  the third prize) evenly: each gets the sum divided by their number rounded down, and the odd
  öre go one each to the first of them in the standings' order. Only players who win something
  are listed. The prizes add up to the pool exactly; a list of more prizes than players is
  refused.

- **Corrections** (``correct_round``): a table's report can be corrected at any time, the
  drive's last round included; the correction replaces the result, never the seats the players
  already took. The players sat where the page told them, so a round that a table has begun
  reporting keeps its seating. Only the round after the corrected one, when it is seated but no
  table has reported it yet, is seated again from the corrected results (the winners may now
  be the other pair, and the movement follows the winners): ``Round.reseated_from`` keeps the
  seats it replaced, and ``reseated`` names who moves. The tricks, the standings and the
  prizes are always the sums of the results as corrected.

The drive is plain frozen data (``Drive``, ``Round``, ``Result``); ``record_round`` returns a new
drive. A round's seating is fixed when the round before it is complete, so a table's report
names its round: a second tap, or a phone that missed the move, is refused rather than counted
in the next round.

API: ``new_drive``, ``record_round``, ``correct_round``, ``reseated``, ``seating`` (player →
(table, seat)), ``partners``, ``tricks``, ``standings`` (``engine.base.Standing``), ``prizes``,
``drive_prizes``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.base import Standing, check_pot, is_whole, placements
from engine.errors import IllegalEvent, RulesError, _

SEATS = ("N", "E", "S", "W")
TRICKS = 13  # a deal
TABLE = 4
MIN_TABLES = 2
MAX_DEALS_PER_ROUND = 24
MAX_ROUNDS = 40
PAIRS = ("ns", "ew")


@dataclass(frozen=True)
class Rules:
    deals_per_round: int = 4
    rounds: int = 6
    prize_percent: tuple[int, ...] = (50, 30, 20)

    LABELS = {
        "deals_per_round": _("Deals per round"),
        "rounds": _("Rounds"),
        "prize_percent": _("Prizes, % of the pool"),
    }

    def __post_init__(self) -> None:
        if (
            not is_whole(self.deals_per_round)
            or not 1 <= self.deals_per_round <= MAX_DEALS_PER_ROUND
        ):
            raise RulesError(
                _("deals per round must be a whole number from 1 to {most}, not {value}"),
                most=MAX_DEALS_PER_ROUND,
                value=repr(self.deals_per_round),
            )
        if not is_whole(self.rounds) or not 1 <= self.rounds <= MAX_ROUNDS:
            raise RulesError(
                _("rounds must be a whole number from 1 to {most}, not {value}"),
                most=MAX_ROUNDS,
                value=repr(self.rounds),
            )
        object.__setattr__(self, "prize_percent", check_percents(self.prize_percent))


def check_percents(percents: Any) -> tuple[int, ...]:
    """The prize list as a tuple, or a ``RulesError``: whole percentages 1–100, each at most the
    one before, adding up to 100 (so that the whole pool is paid out)."""
    if isinstance(percents, str | bytes) or not isinstance(percents, Sequence):
        raise RulesError(
            _("each prize must be a whole percentage from 1 to 100, not {value}"),
            value=repr(percents),
        )
    for value in percents:
        if not is_whole(value) or not 1 <= value <= 100:
            raise RulesError(
                _("each prize must be a whole percentage from 1 to 100, not {value}"),
                value=repr(value),
            )
    if sum(percents) != 100:
        raise RulesError(_("the prizes must add up to 100 %, not {total} %"), total=sum(percents))
    if any(lower > higher for higher, lower in zip(percents, percents[1:], strict=False)):
        raise RulesError(
            _("a place cannot win more than the place above it: {percents}"),
            percents=" / ".join(map(str, percents)),
        )
    return tuple(percents)


@dataclass(frozen=True)
class Result:
    """One table's round: the tricks of each pair, and on a tie the pair that took the last
    deal (``None`` when the totals decide)."""

    table: int
    ns_tricks: int
    ew_tricks: int
    last_deal: str | None = None

    @property
    def winners(self) -> str:
        if self.ns_tricks != self.ew_tricks:
            return "ns" if self.ns_tricks > self.ew_tricks else "ew"
        return self.last_deal or "ns"  # record_round never stores a tie without it


@dataclass(frozen=True)
class Round:
    """A round's seating (per table, table 1 first: the players at N, E, S, W) and the results
    reported so far, in the order they came."""

    number: int
    tables: tuple[tuple[str, str, str, str], ...]
    results: tuple[Result, ...] = ()
    # The seats this round had before a correction of the round before re-seated it.
    reseated_from: tuple[tuple[str, str, str, str], ...] | None = None

    @property
    def complete(self) -> bool:
        return len(self.results) == len(self.tables)

    @property
    def waiting(self) -> tuple[int, ...]:
        """The tables still to report."""
        done = {result.table for result in self.results}
        return tuple(t for t in range(1, len(self.tables) + 1) if t not in done)

    def result(self, table: int) -> Result | None:
        return next((r for r in self.results if r.table == table), None)


@dataclass(frozen=True)
class Drive:
    """The players in the order given (round 1's seating), the rules, and the rounds begun so
    far: the last one is being played unless the drive is finished."""

    players: tuple[str, ...]
    rules: Rules
    rounds: tuple[Round, ...]

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.rules.rounds and self.rounds[-1].complete

    @property
    def current_round(self) -> int | None:
        """The round being played, or None when the drive is over."""
        return None if self.finished else len(self.rounds)

    @property
    def table_count(self) -> int:
        return len(self.players) // TABLE


def new_drive(players: Sequence[str], rules: Rules | None = None) -> Drive:
    """A drive with round 1 seated: the players in the order given, four to a table."""
    rules = rules or Rules()
    seated = tuple(players)
    if len(seated) < MIN_TABLES * TABLE or len(seated) % TABLE:
        raise IllegalEvent(
            _("a whist drive needs a multiple of four players, at least eight, not {count}"),
            count=len(seated),
        )
    for player in seated:
        if seated.count(player) > 1:
            raise IllegalEvent(_("player {player} is seated twice"), player=player)
    _check_prize_count(len(rules.prize_percent), len(seated))
    tables = tuple(_seats(seated[i : i + TABLE]) for i in range(0, len(seated), TABLE))
    return Drive(players=seated, rules=rules, rounds=(Round(1, tables),))


def record_round(
    drive: Drive,
    round_no: int,
    table: int,
    ns_tricks: int,
    ew_tricks: int,
    last_deal: str | None = None,
) -> Drive:
    """Table ``table``'s report of round ``round_no``: the tricks N/S and E/W took in the round,
    and on a tie which pair took the last deal. The report that completes a round seats the
    next one."""
    tables = drive.table_count
    if not is_whole(table) or not 1 <= table <= tables:
        raise IllegalEvent(
            _("there is no table {table}: the drive has tables 1 to {tables}"),
            table=repr(table),
            tables=tables,
        )
    _check_round(drive, round_no, for_seating=False)
    current = drive.rounds[-1]
    if round_no < len(drive.rounds) or drive.finished or current.result(table):
        raise IllegalEvent(
            _("table {table} is already recorded in round {round}"), table=table, round=round_no
        )
    result = _result(drive, table, ns_tricks, ew_tricks, last_deal)
    played = replace(current, results=(*current.results, result))
    rounds = (*drive.rounds[:-1], played)
    if played.complete and len(rounds) < drive.rules.rounds:
        rounds = (*rounds, Round(played.number + 1, _move(played)))
    return replace(drive, rounds=rounds)


def _result(
    drive: Drive, table: int, ns_tricks: Any, ew_tricks: Any, last_deal: str | None
) -> Result:
    """A table's report checked against the rules: whole tricks adding up to the round's deals,
    and on a tie the pair that took the last deal."""
    if not (is_whole(ns_tricks) and is_whole(ew_tricks) and ns_tricks >= 0 and ew_tricks >= 0):
        raise IllegalEvent(
            _("tricks must be whole numbers, 0 or more, not {ns} and {ew}"),
            ns=repr(ns_tricks),
            ew=repr(ew_tricks),
        )
    total = TRICKS * drive.rules.deals_per_round
    if ns_tricks + ew_tricks != total:
        raise IllegalEvent(
            _("{ns} + {ew} tricks is not {total}: a round is {deals} deals of 13 tricks"),
            ns=ns_tricks,
            ew=ew_tricks,
            total=total,
            deals=drive.rules.deals_per_round,
        )
    if ns_tricks == ew_tricks:
        if last_deal is None:
            raise IllegalEvent(
                _("a tie, {ns}–{ew}: say which pair took more tricks in the last deal"),
                ns=ns_tricks,
                ew=ew_tricks,
            )
        if last_deal not in PAIRS:
            raise IllegalEvent(
                _("say which pair took the last deal, N/S or E/W, not {value}"),
                value=repr(last_deal),
            )
    else:
        last_deal = None  # the totals decide; the last deal is not kept
    return Result(table, ns_tricks, ew_tricks, last_deal)


def correct_round(
    drive: Drive,
    round_no: int,
    table: int,
    ns_tricks: int,
    ew_tricks: int,
    last_deal: str | None = None,
) -> Drive:
    """Table ``table``'s report of round ``round_no`` corrected (see "Corrections" above): the
    result replaced, and the next round seated again if no table has reported it yet."""
    tables = drive.table_count
    if not is_whole(table) or not 1 <= table <= tables:
        raise IllegalEvent(
            _("there is no table {table}: the drive has tables 1 to {tables}"),
            table=repr(table),
            tables=tables,
        )
    _check_round(drive, round_no, for_seating=True)
    corrected = drive.rounds[round_no - 1]
    if corrected.result(table) is None:
        raise IllegalEvent(
            _("table {table} has not reported round {round}: there is nothing to correct"),
            table=table,
            round=round_no,
        )
    result = _result(drive, table, ns_tricks, ew_tricks, last_deal)
    corrected = replace(
        corrected,
        results=tuple(result if r.table == table else r for r in corrected.results),
    )
    rounds = list(drive.rounds)
    rounds[round_no - 1] = corrected
    if round_no < len(rounds) and not rounds[round_no].results:
        following = rounds[round_no]
        seats = _move(corrected)
        if seats != following.tables:
            before = following.reseated_from or following.tables
            rounds[round_no] = replace(
                following, tables=seats, reseated_from=None if seats == before else before
            )
    return replace(drive, rounds=tuple(rounds))


def reseated(drive: Drive, round_no: int) -> dict[str, tuple[tuple[int, str], tuple[int, str]]]:
    """Who moves because a correction seated round ``round_no`` again: player → (the table and
    seat he was given first, the one he has now); only the players whose place changed."""
    _check_round(drive, round_no, for_seating=True)
    round_ = drive.rounds[round_no - 1]
    if round_.reseated_from is None:
        return {}
    first = {
        player: (table, seat)
        for table, seats in enumerate(round_.reseated_from, start=1)
        for seat, player in zip(SEATS, seats, strict=True)
    }
    now = seating(drive, round_no)
    return {p: (first[p], now[p]) for p in drive.players if first[p] != now[p]}


def seating(drive: Drive, round_no: int) -> dict[str, tuple[int, str]]:
    """Where each player sits in round ``round_no`` (begun or played): player → (table, seat)."""
    _check_round(drive, round_no, for_seating=True)
    return {
        player: (table, seat)
        for table, seats in enumerate(drive.rounds[round_no - 1].tables, start=1)
        for seat, player in zip(SEATS, seats, strict=True)
    }


def partners(drive: Drive, round_no: int) -> dict[str, str]:
    """Each player's partner in round ``round_no``."""
    _check_round(drive, round_no, for_seating=True)
    result = {}
    for n, e, s, w in drive.rounds[round_no - 1].tables:
        result.update({n: s, s: n, e: w, w: e})
    return result


def tricks(drive: Drive) -> dict[str, int]:
    """Each player's tricks so far (his pairs' tricks in the rounds reported), in player order."""
    totals = dict.fromkeys(drive.players, 0)
    for round_ in drive.rounds:
        for result in round_.results:
            n, e, s, w = round_.tables[result.table - 1]
            for player in (n, s):
                totals[player] += result.ns_tricks
            for player in (e, w):
                totals[player] += result.ew_tricks
    return totals


def standings(drive: Drive) -> tuple[Standing, ...]:
    """The ranking by tricks, best first; equal totals share a place (1, 1, 3 …) and keep the
    players' order. ``Standing.score`` is the player's tricks. The final result once
    ``drive.finished``, the running ranking before."""
    return placements(tricks(drive))


def prizes(
    standings: Sequence[Standing], pool_ore: int, percents: Sequence[int] = (50, 30, 20)
) -> dict[str, int]:
    """The pool split over the top places (see the module's docstring): player → öre, only the
    players who win something; the amounts add up to ``pool_ore``."""
    percents = check_percents(percents)
    if not is_whole(pool_ore) or pool_ore < 0:
        raise IllegalEvent(
            _("the prize pool must be a whole number of öre, 0 or more, not {value}"),
            value=repr(pool_ore),
        )
    check_pot(pool_ore)
    _check_prize_count(len(percents), len(standings))
    amounts = [pool_ore * percent // 100 for percent in percents]
    amounts[0] += pool_ore - sum(amounts)
    order = sorted(standings, key=lambda s: s.placement)  # stable: ties keep their order
    groups: dict[int, list[str]] = {}
    for standing in order:
        groups.setdefault(standing.placement, []).append(standing.player)
    won: dict[str, int] = {}
    position = 0  # prizes already given out
    for group in groups.values():
        pot = sum(amounts[position : position + len(group)])
        position += len(group)
        share, odd = divmod(pot, len(group))
        for index, player in enumerate(group):
            amount = share + (1 if index < odd else 0)
            if amount:
                won[player] = amount
    return won


def drive_prizes(drive: Drive, pool_ore: int) -> dict[str, int]:
    """The prizes of a finished drive by its rules' percentages."""
    if not drive.finished:
        raise IllegalEvent(
            _("prizes are given after the last round; round {round} is being played"),
            round=drive.current_round,
        )
    return prizes(standings(drive), pool_ore, drive.rules.prize_percent)


# --- movement --------------------------------------------------------------------------------


def _seats(four: Sequence[str]) -> tuple[str, str, str, str]:
    n, e, s, w = four
    return (n, e, s, w)


def _pairs(seats: tuple[str, str, str, str], result: Result) -> tuple[tuple[str, str], ...]:
    """(winners, losers) of a table, each pair as (the one at N or E, his partner)."""
    n, e, s, w = seats
    return ((n, s), (e, w)) if result.winners == "ns" else ((e, w), (n, s))


def _move(played: Round) -> tuple[tuple[str, str, str, str], ...]:
    """The next round's tables from a complete round (see "Movement" and "Seats" above)."""
    count = len(played.tables)
    winners, losers = {}, {}
    for result in played.results:
        winners[result.table], losers[result.table] = _pairs(
            played.tables[result.table - 1], result
        )
    tables = []
    for table in range(1, count + 1):
        if table == 1:
            stay, arrive = winners[1], winners[2]
        else:
            stay = losers[table]
            arrive = losers[1] if table == count else winners[table + 1]
        keeper, mover = stay
        # The stayer who sat N or E keeps his seat; his partner takes the other of N and E.
        n, e = (keeper, mover) if played.tables[table - 1][0] == keeper else (mover, keeper)
        s, w = arrive
        tables.append((n, e, s, w))
    return tuple(tables)


def _check_round(drive: Drive, round_no: Any, *, for_seating: bool) -> None:
    """Refuse a round outside the drive, or one that has not begun."""
    rounds = drive.rules.rounds
    if not is_whole(round_no) or not 1 <= round_no <= rounds:
        if not for_seating and drive.finished and is_whole(round_no) and round_no > rounds:
            raise IllegalEvent(
                _("the drive is over: all {rounds} rounds are recorded"), rounds=rounds
            )
        raise IllegalEvent(
            _("the drive has {rounds} rounds, not {round}"), rounds=rounds, round=repr(round_no)
        )
    if round_no > len(drive.rounds):
        current = drive.rounds[-1]
        raise IllegalEvent(
            _("round {round} has not begun: tables {tables} still play round {current}"),
            round=round_no,
            tables=", ".join(map(str, current.waiting)),
            current=current.number,
        )


def _check_prize_count(prizes: int, players: int) -> None:
    if prizes > players:
        raise IllegalEvent(
            _("{prizes} prizes for {players} players"), prizes=prizes, players=players
        )
