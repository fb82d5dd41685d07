"""One write to a game, as appending, undo and voiding all take it: the game row locked, the
phone's turn checked, the event sealed in the audit chain, the new state stored.

- ``_lock``: ``select_for_update`` on the game row, so phones on the same game take turns.
- ``_check_turn``: the same idempotency key as an earlier event is that event (a double tap);
  a closed game refuses (undo may still take back the event that finished it; nothing touches
  a voided one); the client's ``expected_seq`` must equal ``Game.seq``, else ``StaleGame``
  with the events the phone missed.
- ``_audit_event``: the event's record in the club's audit chain (``ledger.append_audit``), in
  the event's transaction; ``event_audit_data`` is what the record keeps, which
  ``scoring.audit`` compares with the event's row as it is now.
- ``_store``: the new seq and snapshot; a state that finished finishes the game and writes
  down that the league owes its results (``league.owed``, in this same transaction: a task
  delivers them after the commit, and a sweep does if the broker was away); a finished game
  that a state reopens owes their removal. The state is cached only once committed.

Relies on ``ledger`` (the audit chain), ``league`` (the result record and what is owed) and
``replay`` (the snapshot and the state cache).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import league
import ledger
from club.models import User
from league import owed as league_owed
from ledger.models import AuditRecord
from live import signals as live_signals
from scoring.models import Event, Game, GameStatus, GuestPass
from scoring.recording import competition_games, hand_honours, replay
from scoring.recording.outcomes import EventRefused, StaleGame


def _lock(game: Game) -> Game:
    return Game.objects.select_for_update().select_related("club").get(pk=game.pk)


def _check_turn(game: Game, expected_seq: int, key: str, *, undo: bool = False) -> Event | None:
    """The earlier event for a repeated key, or None; raises for a closed or stale game.

    Undo may also take back the event that finished a game; nothing touches a voided one."""
    existing = Event.objects.filter(game=game, idempotency_key=key).first()
    if existing is not None:
        return existing
    allowed = {GameStatus.OPEN, GameStatus.FINISHED} if undo else {GameStatus.OPEN}
    if game.status not in allowed:
        raise EventRefused(
            _("This game is %(status)s.") % {"status": game.get_status_display()}, code="closed"
        )
    if expected_seq != game.seq:
        missed = list(game.events.filter(seq__gt=expected_seq).order_by("seq"))
        raise StaleGame(game.seq, missed)
    return None


def _check_guest(game: Game, guest_pass: GuestPass | None) -> None:
    """A guest records only while the host's pass holds: read again under the game's lock, which
    revoking takes too (``scoring.guest.revoke``), so a tap and "close the guest's access"
    never overlap. Undo included, a guest never touches a game that is not open."""
    if guest_pass is None:
        return
    if guest_pass.game_id != game.pk:
        raise EventRefused(_("This guest link is for another game."), code="guest")
    revoked = (
        GuestPass.objects.filter(pk=guest_pass.pk).values_list("revoked_at", flat=True).first()
    )
    if revoked is not None:
        raise EventRefused(_("The host has closed this guest link."), code="guest")
    if game.status != GameStatus.OPEN:
        raise EventRefused(
            _("This game is %(status)s.") % {"status": game.get_status_display()}, code="closed"
        )


def event_audit_data(event: Event) -> dict:
    """What the club's audit trail keeps of an event; ``scoring.audit`` compares it with the
    event's row as it is now, so an edited or deleted event shows. A guest's pass is named
    only when there is one (records made before guest passes stay as they were)."""
    data = {
        "game": event.game_id,
        "seq": event.seq,
        "type": event.type,
        "payload": event.payload,
        "summary": event.summary,
        "recorded_by": event.recorded_by_id,
        "created_at": ledger.audit_time(event.created_at),
        "money": event.money_id,
    }
    if event.guest_pass_id is not None:
        data["guest_pass"] = event.guest_pass_id
    return data


def _audit_event(game: Game, event: Event, by: User | None, now) -> None:
    """The event's record in the club's audit chain, in the event's database transaction."""
    ledger.append_audit(
        game.club,
        AuditRecord.Action.EVENT,
        by,
        now,
        subject=f"{game.ref}:event:{event.seq}",
        data=event_audit_data(event),
    )


def _store(
    game: Game, seq: int, state: Any, nets: dict[str, int], at: datetime | None = None
) -> None:
    """Save seq and snapshot; finish (at the finishing event's time) or reopen the game as the
    state says."""
    game.seq = seq
    game.snapshot = replay._snapshot(state, nets)
    was_finished = game.status == GameStatus.FINISHED
    if state.finished and not was_finished:
        game.status = GameStatus.FINISHED
        game.finished_at = at or timezone.now()
        _send_result(game)
    elif not state.finished and was_finished:
        game.status = GameStatus.OPEN
        game.finished_at = None
        league_owed.owe_removal(game.club, game.ref)
    game.save(update_fields=["seq", "snapshot", "status", "finished_at"])
    # In this same transaction: a competition's table hears that its game finished or reopened,
    # and the special hands the state now holds are paid (or a prize whose hand is gone is
    # taken back), so neither is lost nor paid twice.
    competition_games.game_stored(game, finished=state.finished, was_finished=was_finished)
    hand_honours.game_stored(game, state)
    # Every phone at the table hears of it when this commits (live: pg_notify or the hub).
    live_signals.game_changed(game.pk, seq)
    # Cached only once committed: a rolled-back append must not leave a state under a seq
    # that a later event will take.
    transaction.on_commit(lambda: replay._remember(game, (state, nets)))


def _send_result(game: Game) -> None:
    """The finished game's results per seat to the league, by a task after commit."""
    seats = game.seats_by_key
    snapshot = game.snapshot
    nets = snapshot.get("nets", {})
    # Optional, per game: partnerships ({player: team}) and league columns
    # ({player: {"skunk": 1, "pots_won": 2, …}}) from the engine's final state.
    teams = snapshot.get("teams") if isinstance(snapshot.get("teams"), dict) else {}
    details = snapshot.get("league_details") or {}
    results = [
        league.PlayerResult(
            seat=seats[s["player"]].position,
            member=seats[s["player"]].member,
            guest_name=seats[s["player"]].guest_name,
            placement=s["placement"],
            score=s["score"],
            net_ore=nets.get(s["player"], 0),
            team=teams.get(s["player"]),
            details=details.get(s["player"], {}),
        ).as_json()
        for s in snapshot.get("standings", [])
    ]
    league_owed.owe_results(game.club, game.ref, game.game_key, game.finished_at, results)
