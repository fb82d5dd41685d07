"""Taking a game's money back: undoing its last event, or voiding the whole game.

Undo appends an ``undo`` event that cancels the last effective event: the state is replayed
without it and its money is reversed; it may also take back the event that finished a game
(the league then owes the results' removal). Voiding (admin) reverses all of a game's money
and takes it out of the league. These two are the only ways to take a game's money back:
``ledger.reverse`` refuses a game's transaction unless called from here with
``game_recording=True``, so the events stay the one source of truth (``scoring.audit`` checks
that the books agree with them). Both are sealed in the club's audit chain.

Neither is allowed once a later game has started from this finished game's pot
(``carried_on``): its money lives on in that game. Relies on ``turns`` (the lock, the turn,
the seal, the store), ``replay`` (the effective events) and ``ledger`` (reversals, the audit
chain).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import ledger
from club.models import User
from league import owed as league_owed
from ledger.models import AuditRecord
from scoring.messages import undo_line
from scoring.models import Event, Game, GameStatus, GuestPass
from scoring.recording import competition_games, hand_honours, replay, turns
from scoring.recording.outcomes import AppendResult, EventRefused


def carried_on(game: Game) -> bool:
    """Whether a later game started from this finished game's pot (Kille, Polskt pass).

    Its money then lives on in that game: taking this one back would pay out a pot that the
    next evening already started from."""
    if game.status != GameStatus.FINISHED or "pot_ore" not in game.setup:
        return False
    later = Game.objects.filter(
        club=game.club_id, game_key=game.game_key, started_at__gt=game.started_at
    )
    return later.exclude(status=GameStatus.VOIDED).exists()


def may_undo(game: Game) -> bool:
    """Whether the game's last event may be taken back now, as far as the game goes (the pad
    also asks whether the member scores and whether there is an event to take back): not in a
    voided game, nor once a later game plays from this one's pot (``carried_on``)."""
    return game.status != GameStatus.VOIDED and not carried_on(game)


def _refuse_if_carried_on(game: Game) -> None:
    if carried_on(game):
        raise EventRefused(
            _(
                "A later game has started from this game's pot, so it can no longer be undone "
                "or voided. Correct it in the later game, or void that one first."
            ),
            code="carried_on",
        )


def undo_last(
    game: Game,
    *,
    expected_seq: int,
    idempotency_key: str,
    by: User | None,
    guest_pass: GuestPass | None = None,
) -> AppendResult:
    with transaction.atomic():
        game = turns._lock(game)
        existing = turns._check_turn(game, expected_seq, idempotency_key, undo=True)
        if existing is not None:
            return AppendResult(existing, replay.current_state(game)[0], duplicate=True)
        turns._check_guest(game, guest_pass)
        _refuse_if_carried_on(game)
        events = list(game.events.order_by("seq"))
        effective = replay.effective_events(events)
        if not effective:
            raise EventRefused(_("There is nothing to undo."), code="nothing")
        target = effective[-1]
        if target.money_id:
            ledger.reverse(
                target.money,
                _("Undo in game #%(id)s") % {"id": game.pk},
                by,
                game_recording=True,
            )
        event = Event.objects.create(
            game=game,
            seq=game.seq + 1,
            type=replay.UNDO,
            payload={"undoes": target.seq},
            summary=f"Undid: {target.summary or target.type}"[:300],
            lines=[undo_line(target)],
            recorded_by=by,
            guest_pass=guest_pass,
            idempotency_key=idempotency_key,
        )
        turns._audit_event(game, event, by, event.created_at)
        state, nets = replay._replay_with_nets(game, [*events, event])
        turns._store(game, event.seq, state, nets)
    return AppendResult(event, state)


@transaction.atomic
def void_game(game: Game, reason: str, by: User | None) -> Game:
    """Reverse every krona the game moved and take it out of the league."""
    game = turns._lock(game)
    if game.status == GameStatus.VOIDED:
        raise EventRefused(_("The game is already voided."), code="voided")
    _refuse_if_carried_on(game)
    was_finished = game.status == GameStatus.FINISHED
    reason = reason.strip() or _("Voided")
    events = game.events.select_related("money").order_by("seq")
    for event in replay.effective_events(list(events)):
        if event.money_id:
            ledger.reverse(event.money, reason, by, game_recording=True)
    game.status = GameStatus.VOIDED
    game.save(update_fields=["status"])
    ledger.append_audit(
        game.club,
        AuditRecord.Action.VOID,
        by,
        timezone.now(),
        subject=game.ref,
        data={"game": game.pk, "reason": reason},
    )
    league_owed.owe_removal(game.club, game.ref)
    # A competition table's result goes with the game (its table may start a new one).
    competition_games.game_stored(game, finished=False, was_finished=was_finished)
    hand_honours.game_voided(game)  # and its special hands' prizes go back to their pots
    return game
