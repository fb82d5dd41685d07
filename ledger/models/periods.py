"""Closed periods: a stretch of the books nothing may be posted into, with every account's
balances at its start and end frozen at closing (``ledger.periods`` closes one)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club
from ledger.models.books import Account


class Period(models.Model):
    """A closed stretch of the books: nothing may be posted with a date inside it."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="periods")
    name = models.CharField(_("name"), max_length=100)
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))
    closed_at = models.DateTimeField(_("closed"), default=timezone.now)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )

    class Meta:
        ordering = ["-end"]
        verbose_name = _("closed period")
        verbose_name_plural = _("closed periods")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(start__lte=models.F("end")),
                name="ledger_period_start_before_end",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PeriodBalance(models.Model):
    """An account's balances at a closed period's start and end, frozen at closing."""

    period = models.ForeignKey(Period, on_delete=models.PROTECT, related_name="balances")
    account = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="+")
    opening_ore = models.BigIntegerField()
    closing_ore = models.BigIntegerField()

    class Meta:
        ordering = ["account"]
        constraints = [
            models.UniqueConstraint(
                fields=["period", "account"], name="ledger_periodbalance_one_per_account"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.period}: {self.account}"
