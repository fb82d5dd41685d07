"""The club's mail: what each member wants to get, and the mail owed to him (the outbox).

``MailChoice`` is one row per member, made on first use: his language for mail and one switch
per kind of mail, all on. ``OwedMail`` is one row per (kind, object, member): written in the
caller's transaction by ``notices.queue``, sent by ``notices.outbox`` after the commit or by
the beat's sweep. It never stores the mail itself (rendered when sent, in the member's language
of the day) nor an address (read from the member when sent: an erased member has none).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club, Member


class MailKind(models.TextChoices):
    INVITATION = "invitation", _("invitations to planned evenings")
    REMINDER = "reminder", _("reminders the day before")
    PROMOTION = "promotion", _("a seat freed for me on the wait-list")
    REPORT = "report", _("the evening report")


class MailChoice(models.Model):
    """A member's choice of mail: the language, and a switch per kind (``MailKind``)."""

    member = models.OneToOneField(
        Member, on_delete=models.CASCADE, related_name="mail_choice", verbose_name=_("member")
    )
    language = models.CharField(
        _("language"), max_length=5, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    invitation = models.BooleanField(MailKind.INVITATION.label, default=True)
    reminder = models.BooleanField(MailKind.REMINDER.label, default=True)
    promotion = models.BooleanField(MailKind.PROMOTION.label, default=True)
    report = models.BooleanField(MailKind.REPORT.label, default=True)

    class Meta:
        ordering = ["member_id"]
        verbose_name = _("mail choice")
        verbose_name_plural = _("mail choices")

    def __str__(self) -> str:
        return f"{self.member}: {self.language}"

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, kind, False))


class OwedStatus(models.TextChoices):
    OWED = "owed", _("to be sent")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")
    # Not sent, on purpose: by the time it was due the member had turned the kind off, had no
    # address any more, had left or was erased.
    DROPPED = "dropped", _("not sent")


class OwedMailQuerySet(models.QuerySet["OwedMail"]):
    def due(self, now) -> OwedMailQuerySet:
        return self.filter(status=OwedStatus.OWED, due_at__lte=now)


class OwedMail(models.Model):
    """One mail owed to one member: (kind, object) says what it is about."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=20, choices=MailKind.choices)
    object_id = models.PositiveBigIntegerField(_("about"))
    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="owed_mails", verbose_name=_("member")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=OwedStatus.choices, default=OwedStatus.OWED
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.CharField(_("last error"), max_length=300, blank=True)
    # When a sender may next take it: now when written; moved ahead by a claim (a sender at
    # work on it) and by a failure (the back-off). A claim is a conditional update of this.
    due_at = models.DateTimeField(_("due"), default=timezone.now)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    objects = OwedMailQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("owed mail")
        verbose_name_plural = _("owed mails")
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "object_id", "member"], name="notices_owedmail_once_per_member"
            ),
        ]
        indexes = [
            # The sweep's question: what is owed and due.
            models.Index(
                fields=["due_at"],
                condition=models.Q(status="owed"),
                name="notices_owedmail_due",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id} → {self.member}: {self.status}"
