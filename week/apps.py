from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WeekConfig(AppConfig):
    name = "week"
    verbose_name = _("The club's week")

    def ready(self) -> None:
        from club import panels
        from evenings import attendance
        from week import checkin, mails, views  # noqa: F401 - mails: the week's mail kinds

        # The member's coming evenings, with one-tap answers, on the club's start page.
        panels.register(15, "week/_panel.html", views.panel_context)
        # Tonight's check-in starts from the replies.
        attendance.register_expected(checkin.expected)
