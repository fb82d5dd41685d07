from django.contrib import admin

from notices.models import MailChoice, OwedMail


@admin.register(MailChoice)
class MailChoiceAdmin(admin.ModelAdmin):
    list_display = ("member", "language", "invitation", "reminder", "promotion", "report")
    list_select_related = ("member",)
    search_fields = ("member__name",)


@admin.register(OwedMail)
class OwedMailAdmin(admin.ModelAdmin):
    list_display = ("kind", "object_id", "member", "status", "attempts", "due_at", "sent_at")
    list_filter = ("status", "kind")
    list_select_related = ("member",)
    readonly_fields = ("club", "kind", "object_id", "member", "created_at", "sent_at")
