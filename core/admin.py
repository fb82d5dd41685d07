"""Admin building blocks shared by the apps (no model of its own)."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows that one service writes (the books: ledger.postings; a game: scoring.recording): the
    admin may look, never touch."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
