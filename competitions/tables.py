"""What a competition's pages show: the standings, a round's tables, its progress, the winners
and the pool. Read-only; a handful of flat queries each (no query per entrant or table).

Standings
- Two-player formats (Swiss, round robin): ``standings.two_player`` over the games the tables'
  results make (seat 0 is the first player), and a bye for each seat at table 0. The match
  rules come from the competition (``match_rules``): cribbage to 121 (or 61, the rules
  option ``target``) with the skunk lines 91/61 (31/1 for a game to 61) and, when the club
  counts skunks (``Competition.skunks``), +1 match point for a skunk and +2 for a double
  skunk; other games: no target, no skunks. A game's points are the engine's final scores
  (``Standing.score``: cribbage the player's points, so the spread is the points won by;
  Kasino a side's points; Tvåmanswhist the deals won). When the engine decided a match on a
  further measure the scores do not show (Tvåmanswhist: equal deals, more points), the winner
  counts one point more than the loser. A drawn match (both placed 1st: Tvåmanswhist ended
  level) counts as played for the pairing (the two do not meet again) but gives neither
  player a win, a loss or spread.
- The ACC's numbers: the rules text (../shared/rules/cribbage.sv.txt, "Vinst och skunk") says
  a skunk gives the winner extra match points in competitions, not how many; the shared notes
  say nothing. An ACC grass-roots club's page gives 2 for a win, 3 for a skunk and names no
  double skunk (the ACC does not count one apart). The core's +2 for a double skunk is kept as
  this app's default (a club that plays strict ACC rules turns skunk bonuses off or asks for
  an option); the hand-worked test uses it.
- Championships: ``championship.championship_places`` over the rounds before the final table
  (each table's results are the entrants' scores in that round; higher is better, as every
  engine's standings rank them) and the final table's results, which decide the top places.
- Entrants who withdrew before the start are not listed; an entrant who dropped later keeps
  what he played.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch

from competitions import championship
from competitions.links import table_link
from competitions.models import Competition, Entrant, Round, Table, TableResult, TableSeat
from competitions.standings import Game, MatchRules, two_player
from ledger.models import Account

CRIBBAGE = "cribbage"


@dataclass(frozen=True)
class StandingRow:
    rank: int
    entrant: Entrant
    # two-player formats
    games: int = 0
    wins: int = 0
    losses: int = 0
    byes: int = 0
    match_points: int = 0
    spread: int = 0
    opponents_wins: int = 0
    skunks: int = 0
    points_for: int = 0
    points_against: int = 0
    # championships: the rounds' total, each round's score (None: not played), the final's
    total: int = 0
    rounds: tuple[int | None, ...] = ()
    final: int | None = None

    @property
    def dropped(self) -> bool:
        return self.entrant.dropped_after is not None


@dataclass(frozen=True)
class TableRow:
    table: Table
    seats: list[tuple[Entrant, TableResult | None]]
    game: object | None  # the table's game (scoring.Game), the latest that is not voided
    finished: bool
    is_bye: bool
    link: str = ""

    @property
    def game_ref(self) -> str | None:
        return f"game:{self.game.pk}" if self.game is not None else None


@dataclass
class _Loaded:
    entrants: list[Entrant]
    tables: list[Table] = field(default_factory=list)


def match_rules(competition: Competition) -> MatchRules:
    """The two-player match rules for the competition's game (module docstring)."""
    if competition.game_key != CRIBBAGE:
        return MatchRules(
            skunk_bonus=0,
            double_skunk_bonus=0,
            skunk_below=0,
            double_skunk_below=0,
            game_to=None,
        )
    target = int((competition.rules or {}).get("target", 121))
    bonus = (1, 2) if competition.skunks else (0, 0)
    return MatchRules(
        skunk_bonus=bonus[0],
        double_skunk_bonus=bonus[1],
        skunk_below=target - 30,
        double_skunk_below=target - 60,
        game_to=target,
    )


def field_entrants(competition: Competition) -> list[Entrant]:
    """The entrants who play or played (not those withdrawn before the start), by seed."""
    return list(
        competition.entrants.exclude(dropped_after=0).select_related("member").order_by("seed")
    )


def _tables(competition: Competition, before: int | None = None) -> list[Table]:
    tables = Table.objects.filter(round__competition=competition).select_related("round")
    if before is not None:
        tables = tables.filter(round__number__lt=before)
    return list(
        tables.prefetch_related(
            Prefetch("seats", queryset=TableSeat.objects.order_by("position")),
            "results",
        ).order_by("round__number", "number")
    )


def two_player_games(tables: list[Table]) -> tuple[list[Game], list[tuple]]:
    """The games for ``standings.two_player`` and every pairing so far (for the Swiss)."""
    games: list[Game] = []
    history: list[tuple] = []
    for table in tables:
        seats = [seat.entrant_id for seat in table.seats.all()]
        if table.is_bye:
            for entrant_id in seats:
                games.append(Game(entrant_id, None))
                history.append((entrant_id, None))
            continue
        if len(seats) != 2:
            continue
        history.append((seats[0], seats[1]))
        results = {r.entrant_id: r for r in table.results.all()}
        if len(results) != 2:
            continue
        a, b = results[seats[0]], results[seats[1]]
        if a.placement == b.placement:
            continue  # a drawn match: played, no win
        points = [a.score, b.score]
        winner = 0 if a.placement < b.placement else 1
        if points[winner] <= points[1 - winner]:
            points[winner] = points[1 - winner] + 1
        games.append(Game(seats[0], seats[1], points[0], points[1]))
    return games, history


def standings(competition: Competition, *, before: int | None = None) -> list[StandingRow]:
    """The ranking (module docstring); ``before``: only the rounds before that number."""
    entrants = field_entrants(competition)
    return _standings(competition, entrants, _tables(competition, before))


def _standings(
    competition: Competition, entrants: list[Entrant], tables: list[Table]
) -> list[StandingRow]:
    by_id = {e.pk: e for e in entrants}
    players = list(by_id)
    if competition.is_two_player:
        games, _history = two_player_games(tables)
        lines = two_player(
            [g for g in games if g.first in by_id and (g.second is None or g.second in by_id)],
            match_rules(competition),
            players=players,
        )
        return [
            StandingRow(
                rank=line.rank,
                entrant=by_id[line.player],
                games=line.games,
                wins=line.wins,
                losses=line.losses,
                byes=line.byes,
                match_points=line.match_points,
                spread=line.spread,
                opponents_wins=line.opponents_wins,
                skunks=line.skunks,
                points_for=line.points_for,
                points_against=line.points_against,
            )
            for line in lines
        ]
    rounds: dict[int, dict[int, int]] = defaultdict(dict)
    final: dict[int, int] | None = None
    numbers: list[int] = []
    for table in tables:
        number = table.round.number
        if table.round.is_final:
            final = final if final is not None else {}
            target = final
        else:
            if number not in numbers:
                numbers.append(number)
            target = rounds[number]
        for result in table.results.all():
            if result.entrant_id in by_id:
                target[result.entrant_id] = result.score
    played = [rounds[n] for n in numbers]
    places = championship.championship_places(played, final or None, players)
    return [
        StandingRow(
            rank=place.rank,
            entrant=by_id[place.player],
            total=place.total,
            rounds=tuple(r.get(place.player) for r in played),
            final=place.final,
        )
        for place in places
    ]


def round_view(round_: Round) -> list[TableRow]:
    """The round's tables, by number (the byes, table 0, last), each with its seats and their
    results, its game and whether it is finished."""
    tables = list(
        round_.tables.prefetch_related(
            Prefetch(
                "seats",
                queryset=TableSeat.objects.select_related("entrant__member").order_by("position"),
            ),
            "results",
            "games",
        )
    )
    rows = []
    for table in sorted(tables, key=lambda t: (t.is_bye, t.number)):
        results = {r.entrant_id: r for r in table.results.all()}
        seats = [(seat.entrant, results.get(seat.entrant_id)) for seat in table.seats.all()]
        games = sorted(
            (g for g in table.games.all() if g.status != "voided"),
            key=lambda g: (g.started_at, g.pk),
        )
        rows.append(
            TableRow(
                table=table,
                seats=seats,
                game=games[-1] if games else None,
                finished=table.is_bye or (bool(seats) and len(results) == len(seats)),
                is_bye=table.is_bye,
                link="" if table.is_bye else table_link(table),
            )
        )
    return rows


def unfinished_tables(round_: Round) -> int:
    """Tables of the round (byes aside) without their results."""
    count = 0
    for table in round_.tables.exclude(number=0).prefetch_related("seats", "results"):
        if len(table.results.all()) != len(table.seats.all()):
            count += 1
    return count


def progress(round_: Round) -> tuple[int, int]:
    """(tables finished, tables) of the round, byes aside."""
    total = round_.tables.exclude(number=0).count()
    return total - unfinished_tables(round_), total


def winners(competition: Competition) -> list[tuple[Entrant, int, int]]:
    """(entrant, place, prize öre) as the prize payment paid them, best first (the order of
    the ranking they were paid by: place, then seed)."""
    won = competition.entrants.filter(prize_ore__gt=0).select_related("member")
    return [(e, e.place, e.prize_ore) for e in won.order_by("place", "seed")]


def pool_ore(competition: Competition) -> int:
    """What the pool holds now (the fees in; after the finish, 0)."""
    balance = (
        Account.objects.filter(club_id=competition.club_id, key=competition.ref)
        .values_list("balance_ore", flat=True)
        .first()
    )
    return balance or 0
