"""Appending an event: what a tap on the pad records, in one database transaction.

1. lock the game row and check the phone's turn (``turns``): a double tap is the earlier
   event, a closed game refuses, a stale ``expected_seq`` is ``StaleGame`` (HTTP 409);
2. apply the new event to the current state (``replay.current_state``: from the cache, or
   replayed); an illegal event raises ``EventRefused`` with the engine's message and nothing
   is stored;
3. store the event, post its money (``money``) and seal it in the club's audit chain;
4. store the new seq and snapshot, and on a finish write down the league's results (``turns``).

An ``undo`` event is undoing's (``undoing.undo_last``): it cancels the last effective event.
Relies on ``Game.played`` (the game's engine module) and ``scoring.messages`` for the event's
summary, lines and the engine's refusals.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from club.models import User
from engine.errors import EngineError
from scoring.messages import engine_message, lines_of
from scoring.models import Event, Game, GuestPass
from scoring.recording import money, replay, turns, undoing
from scoring.recording.outcomes import AppendResult, EventRefused


def append_event(
    game: Game,
    event_type: str,
    payload: dict,
    *,
    expected_seq: int,
    idempotency_key: str,
    by: User | None,
    at: datetime | None = None,
    guest_pass: GuestPass | None = None,
) -> AppendResult:
    """``at``: when the event happened at the table, if not now (the demo records evenings
    that are over); its audit record is sealed now all the same. ``guest_pass``: recorded by a
    guest without a login (``by`` is then None), refused unless the pass is still good for
    this open game (``turns._check_guest``, under the game's lock)."""
    if event_type == replay.UNDO:
        return undoing.undo_last(
            game,
            expected_seq=expected_seq,
            idempotency_key=idempotency_key,
            by=by,
            guest_pass=guest_pass,
        )
    module = game.played.module
    with transaction.atomic():
        game = turns._lock(game)
        now = timezone.now()
        existing = turns._check_turn(game, expected_seq, idempotency_key)
        if existing is not None:
            return AppendResult(existing, replay.current_state(game)[0], duplicate=True)
        turns._check_guest(game, guest_pass)
        state, nets = replay.current_state(game)
        try:
            new_state = module.apply(state, {**payload, "type": event_type})
        except EngineError as error:
            raise EventRefused(engine_message(error, sentence=False), code="illegal") from None
        event = Event.objects.create(
            game=game,
            seq=game.seq + 1,
            type=event_type,
            payload=payload,
            summary=" · ".join(getattr(new_state, "log", ()))[:300],
            lines=lines_of(new_state),
            recorded_by=by,
            guest_pass=guest_pass,
            created_at=at or now,
            idempotency_key=idempotency_key,
        )
        event.money = money._post_money(game, event, new_state.transfers, by)
        if event.money is not None:
            event.save(update_fields=["money"])
        turns._audit_event(game, event, by, now)
        nets = replay._add_nets(nets, new_state.transfers)
        turns._store(game, event.seq, new_state, nets, at=event.created_at)
    return AppendResult(event, new_state)
