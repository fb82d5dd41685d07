"""Admin for the club's week: schedules and exceptions may be changed here; replies and
calendar feeds are read-only (a reply changes through ``week.replies``, which keeps the
wait-list in order)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin
from week.models import CalendarFeed, Reply, Schedule, ScheduleException


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):
    list_display = ["club", "weekday", "start_time", "first_date", "until", "cap", "active"]
    list_filter = ["club", "active"]
    list_select_related = ["club"]


@admin.register(ScheduleException)
class ScheduleExceptionAdmin(admin.ModelAdmin):
    list_display = ["schedule", "date"]
    list_select_related = ["schedule__club"]


@admin.register(Reply)
class ReplyAdmin(ReadOnlyAdmin):
    list_display = ["evening", "member", "answer", "guest_name", "waiting", "queued_at"]
    list_filter = ["answer", "waiting"]
    list_select_related = ["evening", "member"]


@admin.register(CalendarFeed)
class CalendarFeedAdmin(ReadOnlyAdmin):
    list_display = ["member", "created_at"]
    list_select_related = ["member"]
    exclude = ["nonce", "token_hash"]
