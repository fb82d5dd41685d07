"""The audit trail's rows: one keyed chain of records per club (``ledger.audit`` writes and
checks them)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club
from ledger.models.books import Transaction
from ledger.models.periods import Period


class AuditRecord(models.Model):
    """Append-only, keyed and chained trail of what changed the books or a game (per club).

    ``data`` is what the record covers, as it was when recorded (a transaction with who, when
    and every entry; a closing; a game event); ``subject`` names it (``transaction:5``,
    ``game:17:event:4``). ``digest`` is an HMAC with ``settings.AUDIT_KEY`` over the previous
    record's digest and all of this, so the chain cannot be recomputed without the key. See
    ``ledger.audit`` (the audit trail) and ``manage.py check_ledger``.
    """

    class Action(models.TextChoices):
        POST = "post", _("posting")
        REVERSE = "reverse", _("reversal")
        CLOSE = "close", _("closing")
        EVENT = "event", _("game event")
        VOID = "void", _("voided game")
        # Who owns what and who may do what, as it is now (``ledger.ownership``).
        SEAL = "seal", _("sealed state")
        # A change of the club's settings that touches money (who, when, old -> new).
        SETTINGS = "settings", _("settings changed")
        # A member's personal data erased on request; a club archive imported (source head).
        ERASE = "erase", _("member erased")
        IMPORT = "import", _("club imported")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="audit_records")
    seq = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    transaction = models.ForeignKey(
        Transaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    period = models.ForeignKey(
        Period, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    subject = models.CharField(max_length=120, blank=True)
    data = models.JSONField(default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)
    digest = models.CharField(max_length=64)
    prev_digest = models.CharField(max_length=64)

    class Meta:
        ordering = ["club", "seq"]
        verbose_name = _("audit record")
        verbose_name_plural = _("audit records")
        constraints = [
            models.UniqueConstraint(fields=["club", "seq"], name="ledger_auditrecord_unique_seq"),
        ]
        indexes = [
            # The newest sealed state of one subject (ledger.ownership.seal).
            models.Index(
                fields=["club", "subject", "seq"],
                condition=models.Q(action="seal"),
                name="ledger_audit_seal_subject",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} #{self.seq} {self.action}"
