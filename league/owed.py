"""What the league owes the games: a transactional outbox.

A finished game's results reach the league by a task, through a broker that may be away. So
the recording layer does not hand the results to the broker: it writes them down, in the same
database transaction as the event that finished the game (``owe_results``), or writes that a
game's results must go (``owe_removal``: an undo from the finish, a void). One row per game
(``OwedResult``) always says the latest thing owed: a game finished, undone and finished again
owes its latest results.

Delivery (``deliver``) takes the row's lock, records or removes the results
(``league.intake.record_result`` / ``remove_results``: both idempotent) and marks the row
delivered, in one transaction: it is done once, or not at all and left owed. It is asked for
three ways: a task after the commit (``league.tasks.deliver_owed_task``, published with
``core.tasks.enqueue_on_commit``, which never lets a broker error reach the scorer's tap), the
beat's sweep every minute (``deliver_all``), and ``manage.py recompute_league`` first thing. A
delivery that fails keeps the row owed with its error and attempts counted. The task is
published by its name: ``league.tasks`` imports this module (to deliver), so this module does
not import the tasks; ``LeagueConfig.ready`` has them registered with Celery.

``scoring.audit.check_game_results`` (run by ``check_ledger``) asks the other way round: every
finished game has its results in the league or owes them, and no voided or reopened game has
any that are not owed away.
"""

from __future__ import annotations

import logging
from datetime import datetime

from celery import current_app
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from club.models import Club
from core.tasks import enqueue_on_commit
from league.intake import PlayerResult, record_result, remove_results
from league.models import OwedAction, OwedResult

log = logging.getLogger("protokoll.league")


def owe_results(
    club: Club, game_ref: str, game_key: str, finished_at: datetime, results: list[dict]
) -> None:
    """Write down, in the caller's transaction, that ``game_ref``'s results are to be recorded
    (``results``: ``PlayerResult.as_json()`` per seat); delivered after the commit."""
    payload = {"game_key": game_key, "finished_at": finished_at.isoformat(), "results": results}
    _owe(club, game_ref, OwedAction.RECORD, payload)


def owe_removal(club: Club, game_ref: str) -> None:
    """Write down that ``game_ref``'s results are to be taken out of the league."""
    _owe(club, game_ref, OwedAction.REMOVE, {})


def _owe(club: Club, game_ref: str, action: str, payload: dict) -> None:
    OwedResult.objects.update_or_create(
        game_ref=game_ref,
        defaults={
            "club": club,
            "action": action,
            "payload": payload,
            "owed_since": timezone.now(),
            "delivered_at": None,
            "attempts": 0,
            "last_error": "",
        },
    )
    enqueue_on_commit(current_app.tasks["league.tasks.deliver_owed_task"], game_ref)


def deliver(game_ref: str) -> bool:
    """Do what is owed for ``game_ref``, once; True if something was delivered now."""
    with transaction.atomic():
        owed = (
            OwedResult.objects.select_for_update()
            .select_related("club")
            .filter(game_ref=game_ref, delivered_at__isnull=True)
            .first()
        )
        if owed is None:
            return False
        if owed.action == OwedAction.RECORD:
            data = owed.payload
            record_result(
                owed.club,
                owed.game_ref,
                data["game_key"],
                datetime.fromisoformat(data["finished_at"]),
                PlayerResult.from_json(owed.club, data["results"]),
            )
        else:
            remove_results(owed.game_ref)
        owed.delivered_at = timezone.now()
        owed.save(update_fields=["delivered_at"])
    return True


def deliver_all(club: Club | None = None) -> tuple[int, int]:
    """Deliver everything still owed (oldest first); (delivered, failed). A failure is kept
    on its row and the sweep goes on with the next."""
    pending = OwedResult.objects.filter(delivered_at__isnull=True)
    if club is not None:
        pending = pending.filter(club=club)
    delivered = failed = 0
    for game_ref in list(pending.order_by("owed_since", "id").values_list("game_ref", flat=True)):
        try:
            delivered += deliver(game_ref)
        except Exception as error:  # noqa: BLE001 - kept on the row, tried again next sweep
            failed += 1
            log.exception("league result for %s not delivered", game_ref)
            OwedResult.objects.filter(game_ref=game_ref).update(
                attempts=F("attempts") + 1, last_error=str(error)[:300]
            )
    return delivered, failed


def owed_refs(club: Club) -> set[str]:
    """The games whose results the league still owes (to record or to remove)."""
    pending = OwedResult.objects.filter(club=club, delivered_at__isnull=True)
    return set(pending.values_list("game_ref", flat=True))
