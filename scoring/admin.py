"""Games are recorded through the pad; the admin shows them and their events read-only.

A game's events are the one source of truth for its money (``scoring.audit``): changing a
game's rules, seats or events here would change what the engine says the game moved while the
books keep what was posted. Corrections are undo and void, on the game's page.
"""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from scoring.models import Confirmation, Event, Game, GuestPass, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["position", "member", "guest_name"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["id", "club", "game_key", "status", "seq", "started_at", "finished_at"]
    list_filter = ["club", "game_key", "status"]
    list_select_related = ["club"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["game", "position", "member", "guest_name"]
    list_select_related = ["game", "member"]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["game", "seq", "type", "summary", "recorded_by", "created_at"]
    list_filter = ["type"]
    list_select_related = ["game", "recorded_by"]


@admin.register(GuestPass)
class GuestPassAdmin(ReadOnlyAdmin):
    """Passes are made and revoked on the game's pad; the secret is never stored."""

    list_display = ["game", "created_by", "created_at", "revoked_at"]
    list_select_related = ["game", "created_by"]


@admin.register(Confirmation)
class ConfirmationAdmin(ReadOnlyAdmin):
    """Words on a game are given on its pad; append-only (scoring.confirming)."""

    list_display = ["game", "seq", "member", "kind", "word", "created_at"]
    list_filter = ["kind"]
    list_select_related = ["game", "member"]
