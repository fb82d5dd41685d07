"""Admin for clubs, members, roles and seasons."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from club.models import Club, Member, Membership, Season, User


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


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "start", "end"]
    list_filter = ["club"]
