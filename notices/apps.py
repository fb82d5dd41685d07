from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = _("Mail")

    def ready(self) -> None:
        # The tasks, registered with Celery here: ``notices.outbox`` publishes them by name
        # (it cannot import ``notices.tasks``, which imports it).
        from club import panels
        from evenings.opening import register_on_close
        from notices import report, tasks, views  # noqa: F401
        from notices.mail import register_mail

        # The way to one's choice of mail (and, for the admin, mail that failed), last on the
        # club's start page.
        panels.register(90, "notices/_panel.html", views.panel_context)

        # The evening report: owed in the closing transaction, rendered when sent.
        register_on_close(report.queue_report)
        register_mail("report", report.render_report)
