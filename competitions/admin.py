"""Admin for competitions: read-only, since the services write every row (the rounds, the
seats, the results from the games, and the money with the fees and the prizes)."""

from django.contrib import admin

from competitions.models import Competition, Entrant, Round, Table, TableResult, TableSeat
from core.admin import ReadOnlyAdmin


@admin.register(Competition)
class CompetitionAdmin(ReadOnlyAdmin):
    list_display = ["name", "club", "kind", "game_key", "status", "entry_fee_ore", "created_at"]
    list_filter = ["club", "kind", "status"]
    list_select_related = ["club"]


@admin.register(Entrant)
class EntrantAdmin(ReadOnlyAdmin):
    list_display = ["competition", "seed", "member", "guest_name", "joins_round", "dropped_after"]
    list_select_related = ["competition", "member"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["competition", "number", "is_final", "created_at"]
    list_select_related = ["competition"]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["round", "number"]
    list_select_related = ["round__competition"]


@admin.register(TableSeat)
class TableSeatAdmin(ReadOnlyAdmin):
    list_display = ["table", "position", "entrant"]
    list_select_related = ["table__round__competition", "entrant__member"]


@admin.register(TableResult)
class TableResultAdmin(ReadOnlyAdmin):
    list_display = ["table", "entrant", "game_ref", "score", "placement"]
    list_select_related = ["table__round__competition", "entrant__member"]
