"""Admin for every model. Ledger rows are read-only: corrections are reversals."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from club.models import (
    Account,
    AuditRecord,
    Club,
    DuesPlan,
    Entry,
    ExportJob,
    GameResult,
    HeadToHead,
    Member,
    Membership,
    Period,
    PeriodBalance,
    RatingPoint,
    Season,
    Standing,
    Transaction,
    User,
)


@admin.register(User)
class ProtokollUserAdmin(UserAdmin):
    pass


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "placement_scheme", "created_at"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name", "slug"]
    exclude = ["league_share_token"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "active", "joined_at"]
    list_filter = ["club", "active"]
    list_select_related = ["club", "user"]
    search_fields = ["name", "user__username"]
    exclude = ["invite_token_hash", "invite_expires_at"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["member", "role", "granted_at"]
    list_filter = ["role", "member__club"]
    list_select_related = ["member", "member__club"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows that one service writes (the books: club.ledger; a game: scoring.recording): the
    admin may look, never touch."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["name", "club", "kind", "key", "balance_ore", "closed_at"]
    list_filter = ["club", "kind"]
    list_select_related = ["club"]
    search_fields = ["name", "key"]


class EntryInline(admin.TabularInline):
    model = Entry
    can_delete = False
    extra = 0
    readonly_fields = ["account", "amount_ore", "date"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = ["id", "club", "date", "memo", "source", "created_by", "reverses"]
    list_filter = ["club", "source"]
    list_select_related = ["club", "created_by", "reverses"]
    search_fields = ["memo", "ref", "key"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["transaction", "account", "amount_ore", "date"]
    list_select_related = ["transaction", "account"]


@admin.register(Period)
class PeriodAdmin(ReadOnlyAdmin):
    list_display = ["name", "club", "start", "end", "closed_at", "closed_by"]
    list_select_related = ["club", "closed_by"]


@admin.register(PeriodBalance)
class PeriodBalanceAdmin(ReadOnlyAdmin):
    list_display = ["period", "account", "opening_ore", "closing_ore"]
    list_select_related = ["period", "account"]


@admin.register(AuditRecord)
class AuditRecordAdmin(ReadOnlyAdmin):
    list_display = ["club", "seq", "action", "subject", "by", "at", "digest"]
    list_filter = ["club", "action"]
    list_select_related = ["club", "by"]


@admin.register(DuesPlan)
class DuesPlanAdmin(admin.ModelAdmin):
    list_display = ["club", "fee_ore", "interval", "active"]


@admin.register(GameResult)
class GameResultAdmin(ReadOnlyAdmin):
    list_display = ["game_ref", "game_key", "finished_at", "member", "guest_name", "placement"]
    list_filter = ["club", "game_key"]
    list_select_related = ["member"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "start", "end"]
    list_filter = ["club"]


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


@admin.register(ExportJob)
class ExportJobAdmin(ReadOnlyAdmin):
    list_display = ["title", "club", "status", "done", "total", "created_at", "finished_at"]
    list_filter = ["club", "status"]
    list_select_related = ["club"]
    exclude = ["content"]
