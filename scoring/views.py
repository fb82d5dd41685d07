"""Pages of the table: play, history and the calculators."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from club.access import club_view
from engine import registry


@require_GET
@club_view()
def play(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/play.html", {"games": registry.all_games()})


@require_GET
@club_view()
def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/game_list.html")


@require_GET
def calculators(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/calculators.html")
