"""The evening board: every table, what it plays, its leader, its pot, and the running ranking.

What a table's game looks like (who leads, the score, the pad's address) is scoring's business:
scoring registers one function with ``register_table_status`` (in its ``AppConfig.ready``), so
``evenings`` never imports ``scoring``. Without one the board still lists tables, players and
pots.

The big screen (``?tv=1``) is the club room's TV: the whole board at once, without scrolling,
for 4 people or 40 at any number of tables. ``tv_layout`` picks the largest type at which the
tables and the ranking (in one to four columns) fit a 16:9 screen; the stylesheet sizes the type
in viewport units, so 1280×720 and 1920×1080 show the same picture.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

import ledger
from engine import registry
from evenings import pots, tonight
from evenings.models import Evening, Table


@dataclass(frozen=True)
class GameStatus:
    """A game at a table as the board shows it."""

    game_id: int
    game_name: str
    leader: str
    score: str
    url: str
    is_open: bool


# (games) -> {game_id: GameStatus}: one call for every game of the evening; the games come
# with their seats (and members) and their club loaded.
StatusProvider = Callable[[list], dict[int, GameStatus]]
_PROVIDERS: list[StatusProvider] = []


def register_table_status(provider: StatusProvider) -> StatusProvider:
    if provider not in _PROVIDERS:
        _PROVIDERS.append(provider)
    return provider


@dataclass
class TableRow:
    table: Table
    game_name: str
    players: list[str]
    pot_ore: int | None
    current: GameStatus | None = None
    finished: list[GameStatus] = field(default_factory=list)


def board(evening: Evening) -> dict:
    """Everything the board shows, in a handful of queries."""
    tables = list(
        evening.tables.prefetch_related("seats__attendee__member", "games__seats__member")
    )
    games = [game for table in tables for game in table.games.all()]
    for game in games:
        game.club = evening.club  # the evening's club, already loaded: no query per game
    statuses: dict[int, GameStatus] = {}
    for provider in _PROVIDERS:
        statuses.update(provider(games))
    pot_of = _pots(evening, tables)
    rows = []
    for table in tables:
        row = TableRow(
            table=table,
            game_name=_(registry.display_name(table.game_key)),
            players=[seat.attendee.name for seat in table.seats.all()],
            pot_ore=pot_of.get(table.pk),
        )
        for game in sorted(table.games.all(), key=lambda g: g.pk, reverse=True):
            status = statuses.get(game.pk)
            if status is None:
                continue
            if status.is_open and row.current is None:
                row.current = status
            else:
                row.finished.append(status)
        rows.append(row)
    ranking = tonight.summary(evening, [g.pk for g in games])
    longest = max((len(night.attendee.name) for night in ranking), default=0)
    layout = tv_layout(len(ranking), len(rows), longest)
    return {
        "tables": rows,
        # What the board follows live (live.tokens): its open games.
        "open_games": [
            game for game in games if statuses.get(game.pk) and statuses[game.pk].is_open
        ],
        "ranking": ranking,
        "ranking_placed": list(enumerate(ranking, start=1)),
        "tv": layout,
        "ranking_columns": columns(ranking, layout.ranking_columns),
    }


# --- the big screen ----------------------------------------------------------------------------

# The TV's picture in units of 1 % of its height (the stylesheet's vh): a 16:9 screen is 177.7
# wide. Each figure below is what the stylesheet gives the element, in em of the board's type.
TV_WIDTH, TV_HEIGHT = 177.7 - 3.0, 100.0 - 3.0  # less the board's padding
TV_TYPE = tuple(t / 10 for t in range(40, 15, -2))  # 4.0 … 1.6 vh: the classes tv-f40 … tv-f16
HEADING_EM = 2.4  # the title and its margin
RANKING_HEAD_EM = 1.6 + 1.5  # "Tonight's ranking" and the table's header row
ROW_EM = 1.5  # a ranking row
CHAR_EM = 0.56  # a name's letter, on average and then some
ROW_FIXED_EM = 11.5  # a row but the name: place, won, tonight's money (−1 234,00 kr), padding
CARD_EM = (17.0, 8.8)  # a table's card, at least: wide, high (its players wrap to two lines)
GAP_EM = 1.0  # between the tables and the ranking, between ranking columns, between cards


@dataclass(frozen=True)
class TvLayout:
    type_class: str  # tv-f40 … tv-f16: the board's type, in tenths of the screen's height
    ranking_columns: int
    table_columns: int


def tv_layout(people: int, tables: int, longest_name: int = 20) -> TvLayout:
    """The largest type (and the fewest columns at it) at which the big screen holds every
    table and every attendee of the ranking: the smallest type if nothing fits."""
    row_em = ROW_FIXED_EM + CHAR_EM * max(longest_name, 8)
    for size in TV_TYPE:
        height = TV_HEIGHT / size - HEADING_EM  # in em of this type
        width = TV_WIDTH / size
        for ranking_columns in range(1, 5):
            rows = math.ceil(max(people, 1) / ranking_columns)
            if RANKING_HEAD_EM + rows * ROW_EM > height:
                continue
            ranking_width = ranking_columns * row_em + (ranking_columns - 1) * GAP_EM
            left = width - ranking_width - GAP_EM
            for table_columns in range(1, 6):
                card_width = (left - (table_columns - 1) * GAP_EM) / table_columns
                table_rows = math.ceil(max(tables, 1) / table_columns)
                card_height = (height - (table_rows - 1) * GAP_EM) / table_rows
                if card_width >= CARD_EM[0] and card_height >= CARD_EM[1]:
                    return TvLayout(f"tv-f{round(size * 10)}", ranking_columns, table_columns)
    return TvLayout(f"tv-f{round(TV_TYPE[-1] * 10)}", 4, 5)


def columns(ranking: Sequence, count: int) -> list[list[tuple[int, object]]]:
    """The ranking with its places, in ``count`` columns read down then across."""
    placed = list(enumerate(ranking, start=1))
    per_column = max(math.ceil(len(placed) / max(count, 1)), 1)
    return [placed[i : i + per_column] for i in range(0, len(placed), per_column)] or [[]]


def _pots(evening: Evening, tables: list[Table]) -> dict[int, int]:
    """Each pot game's table's pot balance, by table id: one query per pot game played."""
    balances: dict[int, int] = {}
    for game_key in {t.game_key for t in tables if pots.is_pot_game(t.game_key)}:
        accounts = ledger.table_pots(evening.club, game_key)
        for table in tables:
            if table.game_key == game_key:
                account = accounts.get(table.number)
                balances[table.pk] = account.balance_ore if account else 0
    return balances
