"""A table's result, from its game: written when the game finishes, removed when it reopens.

Scoring calls these from the game's own transaction (``scoring/recording/competition_games``),
so a table's results and its game's state never disagree. A corrected result (the game
reopened by undo and finished again) replaces the table's rows; the rounds made before the
correction keep their pairings and seats, and only a round made after it sees the new result
(``running.next_round`` reads the results as they are when it runs).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from competitions.models import Entrant, Table, TableResult
from competitions.refusals import CompetitionRefused


@dataclass(frozen=True)
class Row:
    entrant: Entrant
    score: int
    placement: int
    details: dict = field(default_factory=dict)


def record(table: Table, game_ref: str, rows: Iterable[Row]) -> list[TableResult]:
    """The table's results from its finished game ``game_ref``, replacing any the table had.
    Every seated entrant has one row, and nobody else."""
    rows = list(rows)
    seated = set(table.seats.values_list("entrant_id", flat=True))
    if {row.entrant.pk for row in rows} != seated or len(rows) != len(seated):
        raise CompetitionRefused(
            _("The game's players are not the players seated at this table."), code="seats"
        )
    TableResult.objects.filter(table=table).delete()
    return TableResult.objects.bulk_create(
        TableResult(
            table=table,
            entrant=row.entrant,
            game_ref=game_ref,
            score=row.score,
            placement=row.placement,
            details=row.details or {},
        )
        for row in rows
    )


def remove(table: Table, game_ref: str) -> int:
    """Take back the results the game ``game_ref`` gave the table (it reopened)."""
    deleted, _by_model = TableResult.objects.filter(table=table, game_ref=game_ref).delete()
    return deleted
