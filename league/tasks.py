"""Celery tasks of the league: thin wrappers around its service functions.

Arguments are JSON (ids, ISO dates, plain dicts) and every task is safe to run twice: a game's
results replace what was recorded for it, and the updates rebuild what they touch.

- ``record_result_task``: a finished game's results per seat (``PlayerResult.as_json``), then
  that game kind's ratings and season table (``update_game_task``, after commit).
- ``remove_results_task``: a game undone from its finish, or voided.
- ``update_game_task`` / ``recompute_club_task``: bring one game kind, or the whole club, up to
  date.
- ``deliver_owed_task`` / ``deliver_all_owed_task``: what the recording layer wrote down as owed
  (``league.owed``): the results of a finished game, or their removal. Scoring no longer sends
  results through ``record_result_task``; it stays for callers that have no transaction to
  write into.

The tasks stand on top of the league's modules (``league.intake``, ``league.incremental``,
``league.owed``), which never import them back: those that ask for a task after the commit
(an update, a delivery) find it by its name in Celery's registry, where ``LeagueConfig.ready``
puts this module.
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from club.models import Club
from league import incremental, intake, owed


@shared_task
def record_result_task(
    club_id: int, game_ref: str, game_key: str, finished_at: str, results: list[dict]
) -> int:
    club = Club.objects.get(pk=club_id)
    rows = intake.record_result(
        club,
        game_ref,
        game_key,
        datetime.fromisoformat(finished_at),
        intake.PlayerResult.from_json(club, results),
    )
    return len(rows)


@shared_task
def remove_results_task(game_ref: str) -> int:
    return intake.remove_results(game_ref)


@shared_task
def update_game_task(club_id: int, game_key: str, day: str | None = None) -> int:
    return incremental.update_game(Club.objects.get(pk=club_id), game_key, day)


@shared_task
def recompute_club_task(club_id: int) -> None:
    incremental.recompute_club(Club.objects.get(pk=club_id))


@shared_task
def deliver_owed_task(game_ref: str) -> bool:
    """The league's results owed for one game (``league.owed``), once."""
    return owed.deliver(game_ref)


@shared_task
def deliver_all_owed_task() -> list[int]:
    """The beat's sweep: everything still owed, e.g. after the broker was away."""
    return list(owed.deliver_all())
