"""Games are recorded through the pad; the admin shows them and their events read-only."""

from django.contrib import admin

from scoring.models import Event, Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["position", "member", "guest_name"]
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "club", "game_key", "status", "seq", "started_at", "finished_at"]
    list_filter = ["club", "game_key", "status"]
    list_select_related = ["club"]
    readonly_fields = ["seq", "snapshot", "setup", "status", "finished_at"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["game", "position", "member", "guest_name"]
    list_select_related = ["game", "member"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "type", "summary", "recorded_by", "created_at"]
    list_filter = ["type"]
    list_select_related = ["game", "recorded_by"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
