"""Admin for the hand prizes. A prize paid is money: read-only (an undo or a void takes it
back)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from honours.models import HandPrize, HonourPaid


@admin.register(HandPrize)
class HandPrizeAdmin(admin.ModelAdmin):
    list_display = ["club", "kind", "amount_ore", "whole_pot", "pot_key", "active"]
    list_filter = ["club", "active"]
    list_select_related = ["club"]
    readonly_fields = ["game_key", "created_at"]


@admin.register(HonourPaid)
class HonourPaidAdmin(ReadOnlyAdmin):
    list_display = ["game_ref", "club", "deal", "seat", "member", "kind", "amount_ore"]
    list_filter = ["club", "kind"]
    list_select_related = ["club", "member"]
    search_fields = ["game_ref", "guest_name"]
