"""The league's intake: finished games' results, recorded idempotently.

``record_result`` replaces whatever was recorded for the game before (a game finished, undone
and finished again records its final result once); ``remove_results`` forgets a game that was
undone from its finish or voided. Standings and ratings are computed from these rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from club.models import Club, GameResult, Member


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    member: Member | None
    guest_name: str
    placement: int
    score: int
    net_ore: int = 0
    team: int | None = None


@transaction.atomic
def record_result(
    club: Club,
    game_ref: str,
    game_key: str,
    finished_at: datetime,
    results: Sequence[PlayerResult],
    details: dict | None = None,
) -> list[GameResult]:
    GameResult.objects.filter(game_ref=game_ref).delete()
    rows = [
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
            details=details or {},
        )
        for r in results
    ]
    return GameResult.objects.bulk_create(rows)


def remove_results(game_ref: str) -> int:
    deleted, _per_model = GameResult.objects.filter(game_ref=game_ref).delete()
    return deleted
