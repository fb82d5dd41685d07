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


# (games) -> {game_id: GameStatus}: one call for every game of the evening.
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
    tables = list(evening.tables.prefetch_related("seats__attendee__member", "games"))
    games = [game for table in tables for game in table.games.all()]
    statuses: dict[int, GameStatus] = {}
    for provider in _PROVIDERS:
        statuses.update(provider(games))
    rows = []
    for table in tables:
        row = TableRow(
            table=table,
            game_name=_(registry.display_name(table.game_key)),
            players=[seat.attendee.name for seat in table.seats.all()],
            pot_ore=_pot(evening, table),
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
    return {"tables": rows, "ranking": services.summary(evening)}


def _pot(evening: Evening, table: Table) -> int | None:
    if not services.is_pot_game(table.game_key):
        return None
    pot = ledger.game_pot(evening.club, table.game_key, table=table.number, create=False)
    return pot.balance_ore if pot else 0
