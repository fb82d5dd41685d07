"""A toy game's taps for the live tests: a stake that commits, and one whose request fails
after the append (its transaction rolls back)."""

from __future__ import annotations

from django.db import transaction

from scoring import recording


def stake(game, seq: int, key: str):
    game.refresh_from_db()
    return recording.append_event(
        game,
        "stake",
        {"player": "s0", "amount": 100},
        expected_seq=seq,
        idempotency_key=key,
        by=None,
    )


def stake_then_fail(game, seq: int, key: str) -> None:
    """The append succeeds, then the request fails: its transaction rolls back."""
    with transaction.atomic():
        stake(game, seq, key)
        raise RuntimeError("the request failed after the append")
