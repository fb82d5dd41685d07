"""Admin for the books. Rows that ``ledger.postings`` writes are read-only: corrections are
reversals."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from ledger.models import (
    Account,
    AuditRecord,
    DuesPlan,
    Entry,
    ExportJob,
    Period,
    PeriodBalance,
    Transaction,
)


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


@admin.register(ExportJob)
class ExportJobAdmin(ReadOnlyAdmin):
    list_display = ["title", "club", "status", "done", "total", "created_at", "finished_at"]
    list_filter = ["club", "status"]
    list_select_related = ["club"]
    exclude = ["content"]
