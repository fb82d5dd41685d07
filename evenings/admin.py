"""Admin for club evenings: the options are the club's to change; the rest is read-only
(corrections are made on the evening's pages, where the money moves with them)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from evenings.models import (
    Attendee,
    Drive,
    DriveReport,
    Evening,
    EveningOptions,
    Table,
    TableSeat,
)


@admin.register(EveningOptions)
class EveningOptionsAdmin(admin.ModelAdmin):
    list_display = ["club", "fee_ore", "fee_kind", "pot_policy"]


@admin.register(Evening)
class EveningAdmin(ReadOnlyAdmin):
    list_display = ["date", "club", "title", "status", "pot_policy", "fee_ore"]
    list_filter = ["club", "status"]
    list_select_related = ["club"]


@admin.register(Attendee)
class AttendeeAdmin(ReadOnlyAdmin):
    list_display = ["evening", "member", "guest_name", "arrived_at"]
    list_select_related = ["evening", "member"]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["evening", "number", "game_key"]
    list_select_related = ["evening"]


@admin.register(TableSeat)
class TableSeatAdmin(ReadOnlyAdmin):
    list_display = ["table", "position", "attendee"]
    list_select_related = ["table__evening", "attendee__member"]


@admin.register(Drive)
class DriveAdmin(ReadOnlyAdmin):
    list_display = ["evening", "created_at"]
    list_select_related = ["evening"]


@admin.register(DriveReport)
class DriveReportAdmin(ReadOnlyAdmin):
    list_display = ["drive", "round_no", "table", "ns_tricks", "ew_tricks", "last_deal"]
    list_select_related = ["drive__evening"]
