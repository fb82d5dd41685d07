"""Helpers for the competition tests (C1): play a table's game on the pad, quickly."""

from __future__ import annotations

from competitions.models import Table
from scoring import recording
from scoring.models import Game
from scoring.views_competition import start_table_game


def append(game: Game, type_: str, payload: dict, key: str, by=None):
    game.refresh_from_db()
    return recording.append_event(
        game, type_, payload, expected_seq=game.seq, idempotency_key=key, by=by
    )


def start(table: Table, by=None) -> Game:
    return start_table_game(table.round.competition.club, table, by)


def play_cribbage(table: Table, first: int, second: int, by=None) -> Game:
    """The table's cribbage game started and played to ``first``–``second`` (seat 0, seat 1)
    in one deal pegged the quick way: the loser's points first, then the winner's to the
    target."""
    return peg_to(start(table, by), first, second)


def peg_to(game: Game, first: int, second: int) -> Game:
    """Play the started cribbage ``game`` to ``first``–``second`` (see ``play_cribbage``)."""
    target = max(first, second)
    append(game, "starter", {"card": "4C"}, f"{game.pk}-starter")
    loser, winner = ("s1", "s0") if first > second else ("s0", "s1")
    order = [(loser, min(first, second)), (winner, target)]
    n = 0
    for player, points in order:
        left = points
        while left:
            chunk = min(left, 29)
            append(game, "peg", {"player": player, "points": chunk}, f"{game.pk}-{n}")
            left -= chunk
            n += 1
    game.refresh_from_db()
    return game


def undo_last(game: Game, by=None):
    """Take back the game's last event (the one that finished it: the game reopens)."""
    game.refresh_from_db()
    return recording.undo_last(
        game, expected_seq=game.seq, idempotency_key=f"undo-{game.pk}-{game.seq}", by=by
    )
