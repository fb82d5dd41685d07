"""Export jobs: documents built in the background, with their progress (``ledger.exports``
runs their life, ``ledger.season_statements`` builds the document)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club


class ExportJob(models.Model):
    """A document built in the background (a season's member statements), with its progress.

    The Celery task writes ``done``/``total`` as it goes, each in its own short transaction, so
    the page polling the job sees it move; ``content`` holds the finished printable HTML.
    Running the task twice rebuilds the same document. ``updated_at`` is the heartbeat: touched
    with every change of status and every step of progress, it tells the sweep
    (``ledger.exports.sweep_jobs``) a job that was never queued or whose worker is gone;
    ``attempts`` counts the builds started; ``key`` is the "Try again" form's one-time key.
    """

    class Kind(models.TextChoices):
        SEASON_STATEMENT = "season_statement", _("season statement")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="export_jobs")
    kind = models.CharField(_("kind"), max_length=30, choices=Kind.choices)
    params = models.JSONField(default=dict, blank=True)
    title = models.CharField(_("title"), max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    content = models.TextField(blank=True)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    key = models.CharField(max_length=80, null=True, blank=True)  # noqa: DJ001 - NULL: no key, no uniqueness

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("export")
        verbose_name_plural = _("exports")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(done__lte=models.F("total")),
                name="ledger_exportjob_done_le_total",
            ),
            models.UniqueConstraint(fields=["club", "key"], name="ledger_exportjob_unique_key"),
        ]
        indexes = [
            models.Index(fields=["club", "created_at"], name="ledger_export_club_created"),
            # The sweep's query, every minute: only the few unfinished jobs are indexed.
            models.Index(
                fields=["updated_at"],
                condition=models.Q(status__in=["pending", "running"]),
                name="ledger_export_unfinished",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return (100 * self.done) // self.total if self.total else 0
