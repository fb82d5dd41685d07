"""A competition's game stored: tell ``competitions`` (issue 29) when a game at one of its
tables finishes or reopens, in the game's own transaction.

A finished game's standings (the snapshot's ``standings``: each seat's score and placement)
become the table's results (``competitions.results.record``), each seat matched to the
table's entrant by member, or by name for a guest; a game that reopens (an undo of the event
that finished it) takes them back (``competitions.results.remove``), and finishing it again
writes the corrected ones. Rounds made in between keep their pairings.
"""

from __future__ import annotations

from competitions import results
from scoring.models import Game


def game_stored(game: Game, *, finished: bool, was_finished: bool) -> None:
    """The table's results follow the game's state (see the module docstring)."""
    if game.competition_table_id is None or finished == was_finished:
        return
    table = game.competition_table
    if not finished:
        results.remove(table, game.ref)
        return
    entrants = {}
    for seat in table.seats.select_related("entrant"):
        entrant = seat.entrant
        entrants[("m", entrant.member_id) if entrant.member_id else ("g", entrant.guest_name)] = (
            entrant
        )
    seats = game.seats_by_key
    details = game.snapshot.get("league_details") or {}
    rows = []
    for standing in game.snapshot.get("standings", []):
        seat = seats[standing["player"]]
        who = ("m", seat.member_id) if seat.member_id else ("g", seat.guest_name)
        rows.append(
            results.Row(
                entrant=entrants.get(who),
                score=int(standing["score"]),
                placement=int(standing["placement"]),
                details=details.get(standing["player"], {}) or {},
            )
        )
    results.record(table, game.ref, [row for row in rows if row.entrant is not None])
