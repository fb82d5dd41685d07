"""The evening board: every table, what it plays, its leader, its pot, and the running ranking.

What a table's game looks like (who leads, the score, the pad's address) is scoring's business:
scoring registers one function with ``register_table_status`` (in its ``AppConfig.ready``), so
``evenings`` never imports ``scoring``. Without one the board still lists tables, players and
pots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from engine import registry
from evenings import services
from evenings.models import Evening, Table
from ledger import services as ledger


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
    pots = _pots(evening, tables)
    rows = []
    for table in tables:
        row = TableRow(
            table=table,
            game_name=_(registry.display_name(table.game_key)),
            players=[seat.attendee.name for seat in table.seats.all()],
            pot_ore=pots.get(table.pk),
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
    return {"tables": rows, "ranking": services.summary(evening, [g.pk for g in games])}


def _pots(evening: Evening, tables: list[Table]) -> dict[int, int]:
    """Each pot game's table's pot balance, by table id: one query per pot game played."""
    pots: dict[int, int] = {}
    for game_key in {t.game_key for t in tables if services.is_pot_game(t.game_key)}:
        accounts = ledger.table_pots(evening.club, game_key)
        for table in tables:
            if table.game_key == game_key:
                account = accounts.get(table.number)
                pots[table.pk] = account.balance_ore if account else 0
    return pots
