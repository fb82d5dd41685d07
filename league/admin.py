"""Admin for the league; its rows are written by ``league.intake`` and rebuilt by
``league.incremental``, so read-only."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from league.models import (
    GameResult,
    HeadToHead,
    LeagueFormat,
    LeagueProgress,
    OwedResult,
    RatingPoint,
    Standing,
)


@admin.register(GameResult)
class GameResultAdmin(ReadOnlyAdmin):
    list_display = ["game_ref", "game_key", "finished_at", "member", "guest_name", "placement"]
    list_filter = ["club", "game_key"]
    list_select_related = ["member"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ["season", "game_key", "rank", "member", "played", "points", "rating"]
    list_select_related = ["season", "member"]


@admin.register(RatingPoint)
class RatingPointAdmin(ReadOnlyAdmin):
    list_display = ["member", "game_key", "finished_at", "ordinal", "change"]
    list_select_related = ["member"]


@admin.register(HeadToHead)
class HeadToHeadAdmin(ReadOnlyAdmin):
    list_display = ["season", "game_key", "member", "opponent", "wins", "losses", "draws"]
    list_select_related = ["season", "member", "opponent"]


@admin.register(LeagueProgress)
class LeagueProgressAdmin(ReadOnlyAdmin):
    list_display = ["club", "game_key", "through", "stale_from"]
    list_select_related = ["club"]


@admin.register(OwedResult)
class OwedResultAdmin(ReadOnlyAdmin):
    list_display = ["game_ref", "action", "owed_since", "delivered_at", "attempts", "last_error"]
    list_filter = ["club", "action"]
    list_select_related = ["club"]


@admin.register(LeagueFormat)
class LeagueFormatAdmin(admin.ModelAdmin):
    """Set on the league's settings page; here to look at (and for a fix by hand)."""

    list_display = ["club", "best", "unit", "participation", "minimum"]
    list_select_related = ["club"]
