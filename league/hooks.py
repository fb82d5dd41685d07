"""What the league adds to other apps' pages, connected in ``LeagueConfig.ready``: the start
page's latest winners."""

from __future__ import annotations

from django.http import HttpRequest

from club import panels
from league.models import GameResult
from league.names import game_name


def home_panel(request: HttpRequest) -> dict:
    latest = list(
        GameResult.objects.filter(club=request.club, placement=1)
        .select_related("member")
        .order_by("-finished_at")[:6]
    )
    for result in latest:
        result.game_name = game_name(result.game_key)
    return {"latest": latest}


def connect() -> None:
    panels.register(20, "league/_home_panel.html", home_panel)
