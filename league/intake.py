"""Results in: each player's result of a finished game, and its removal.

- ``record_result`` stores each player's result of a finished game (``PlayerResult``), replacing
  whatever was recorded for that game before (a correction: the game as first recorded leaves
  the league, from whichever kind and club it was in). ``remove_results`` forgets a game that
  was undone from its finish or voided. ``results_reassigned``: results moved to another
  player (``clubdata.merge``).
- Each marks the kind changed (``league.incremental.mark_changed``) in its own transaction and
  asks for ``update_game`` after the commit. Scoring writes a finished game's results down as
  owed (``league.owed``), whose delivery calls ``record_result``; the tasks
  (``league.tasks``) wrap these functions too.

The update is enqueued by its task's name (``core.tasks.enqueue_on_commit``; eager without a
broker): ``league.tasks`` imports this module, so this module does not import the tasks, and
``LeagueConfig.ready`` has them registered with Celery before anything is recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from celery import current_app
from django.db import transaction
from django.utils import timezone

from club.models import Club, Member
from core.tasks import enqueue_on_commit
from league.incremental import lock_progress, mark_changed
from league.models import GameResult, RatingPoint


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    member: Member | None
    guest_name: str
    placement: int
    score: int
    net_ore: int = 0
    team: int | None = None
    details: dict | None = None

    def as_json(self) -> dict:
        """What a task carries: the member by id."""
        return {
            "seat": self.seat,
            "member": self.member.pk if self.member else None,
            "guest_name": self.guest_name,
            "placement": self.placement,
            "score": self.score,
            "net_ore": self.net_ore,
            "team": self.team,
            "details": self.details or {},
        }

    @classmethod
    def from_json(cls, club: Club, rows: list[dict]) -> list[PlayerResult]:
        ids = [row["member"] for row in rows if row.get("member")]
        members = Member.objects.filter(club=club).in_bulk(ids)
        return [cls(**{**row, "member": members.get(row.get("member"))}) for row in rows]


@transaction.atomic
def record_result(
    club: Club,
    game_ref: str,
    game_key: str,
    finished_at: datetime,
    results: Sequence[PlayerResult],
) -> list[GameResult]:
    progress = lock_progress(club.pk, game_key)
    old = (
        GameResult.objects.filter(game_ref=game_ref)
        .values_list("club_id", "game_key", "finished_at")
        .first()
    )
    if old is not None:  # a correction: the game as first recorded leaves the league
        GameResult.objects.filter(game_ref=game_ref).delete()
        old_club, old_key, old_at = old
        if (old_club, old_key) == (club.pk, game_key):
            mark_changed(progress, old_at)
        else:
            mark_changed(lock_progress(old_club, old_key), old_at)
            _update_later(old_club, old_key, timezone.localdate(old_at))
    rows = GameResult.objects.bulk_create(
        GameResult(
            club=club,
            game_ref=game_ref,
            game_key=game_key,
            finished_at=finished_at,
            member=r.member,
            guest_name=r.guest_name,
            seat=r.seat,
            team=r.team,
            placement=r.placement,
            score=r.score,
            net_ore=r.net_ore,
            players=len(results),
            details=r.details or {},
        )
        for r in results
    )
    mark_changed(progress, finished_at)
    _update_later(club.pk, game_key, timezone.localdate(finished_at))
    return rows


@transaction.atomic
def remove_results(game_ref: str) -> int:
    first = (
        GameResult.objects.filter(game_ref=game_ref)
        .values_list("club_id", "game_key", "finished_at")
        .first()
    )
    if first is None:
        return 0
    club_id, game_key, finished_at = first
    progress = lock_progress(club_id, game_key)
    deleted, _per_model = GameResult.objects.filter(game_ref=game_ref).delete()
    RatingPoint.objects.filter(club_id=club_id, game_ref=game_ref).delete()
    mark_changed(progress, finished_at)
    _update_later(club_id, game_key, timezone.localdate(finished_at))
    return deleted


@transaction.atomic
def results_reassigned(club: Club, game_key: str, since: datetime) -> None:
    """Results of ``game_key`` that finished at ``since`` or later now name another player
    (``clubdata.merge`` moved a guest's or a duplicate's results to the member he is): the
    kind is marked stale from ``since`` in the caller's transaction, so a lost task loses
    nothing (the next update rebuilds from there), and brought up to date after commit."""
    mark_changed(lock_progress(club.pk, game_key), since)
    _update_later(club.pk, game_key, timezone.localdate(since))


def _update_later(club_id: int, game_key: str, day: date | None = None) -> None:
    task = current_app.tasks["league.tasks.update_game_task"]  # by name: see the module's notes
    enqueue_on_commit(task, club_id, game_key, day.isoformat() if day else None)
