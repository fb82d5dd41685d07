"""A club's membership fee: how much, how often, and whether it is charged (``ledger.dues``
charges it)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from club.models import Club


class DuesPlan(models.Model):
    class Interval(models.TextChoices):
        MONTHLY = "monthly", _("monthly")
        YEARLY = "yearly", _("yearly")

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="dues_plan")
    fee_ore = models.BigIntegerField(_("fee (öre)"))
    interval = models.CharField(
        _("period"), max_length=10, choices=Interval.choices, default=Interval.YEARLY
    )
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        verbose_name = _("dues plan")
        verbose_name_plural = _("dues plans")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(fee_ore__gt=0), name="ledger_duesplan_fee_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.fee_ore} öre {self.interval}"
