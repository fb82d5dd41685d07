"""The hands a club rewards (``HandPrize``) and each prize paid for one (``HonourPaid``).

A prize is paid from a pot the club names (an ``Account`` of kind pot whose key is
``hands-<slug>``: not ``pot:…``, which the games' replay owns) to the player's account, once,
in the game's own transaction (``honours.services.reconcile``). An undo that takes the hand away
reverses the payment (``reversal``); doing the hand again pays again, under a new key.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import Club, Member
from engine import honours as engine_honours
from ledger.models import Transaction


def kind_name(kind: str) -> str:
    """A kind of honour in the reader's language ("a 29 hand")."""
    found = engine_honours.kinds().get(kind)
    return gettext(found.name) if found else kind


class HandPrize(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="hand_prizes")
    game_key = models.CharField(_("game"), max_length=30, editable=False)
    kind = models.CharField(_("hand"), max_length=40)
    # The prize in öre; 0 with ``whole_pot``: the pot's whole balance.
    amount_ore = models.BigIntegerField(_("prize (öre)"), default=0)
    whole_pot = models.BooleanField(_("the whole pot"), default=False)
    pot_key = models.CharField(_("pot"), max_length=80)
    active = models.BooleanField(_("active"), default=True)
    ordering = models.PositiveSmallIntegerField(_("order"), default=0)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["club", "ordering", "kind"]
        verbose_name = _("hand prize")
        verbose_name_plural = _("hand prizes")
        constraints = [
            models.UniqueConstraint(fields=["club", "kind"], name="honours_handprize_one_per_kind"),
            models.CheckConstraint(
                condition=(models.Q(whole_pot=True) & models.Q(amount_ore=0))
                | (models.Q(whole_pot=False) & models.Q(amount_ore__gt=0)),
                name="honours_handprize_amount_or_whole_pot",
            ),
            models.CheckConstraint(
                condition=models.Q(pot_key__startswith="hands-"),
                name="honours_handprize_pot_is_a_hand_pot",
            ),
        ]
        indexes = [
            models.Index(fields=["club", "game_key"], name="honours_prize_club_game"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {kind_name(self.kind)}"

    @property
    def kind_name(self) -> str:
        return kind_name(self.kind)


class HonourPaid(models.Model):
    """One special hand of one game and what its prize paid (0: the pot was empty)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="honours_paid")
    game_ref = models.CharField(
        _("game"), max_length=40
    )  # "game:17": honours never imports scoring
    game_key = models.CharField(_("game type"), max_length=30)
    deal = models.PositiveIntegerField(_("deal"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    member = models.ForeignKey(
        Member,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="honours",
        verbose_name=_("member"),
    )
    # A guest's name as the seat had it (a guest's prize goes where his game money goes).
    guest_name = models.CharField(_("guest"), max_length=100, blank=True)
    kind = models.CharField(_("hand"), max_length=40)
    detail = models.CharField(_("cards"), max_length=100, blank=True)
    amount_ore = models.BigIntegerField(_("paid (öre)"), default=0)
    pot_key = models.CharField(_("pot"), max_length=80)
    payee_key = models.CharField(_("paid to"), max_length=80)
    transaction = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="honour",
        verbose_name=_("transaction"),
    )
    reversal = models.OneToOneField(
        Transaction,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="honour_reversed",
        verbose_name=_("reversal"),
    )
    reversed_at = models.DateTimeField(_("taken back"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("honour")
        verbose_name_plural = _("honours")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game_ref", "deal", "seat", "kind"],
                condition=models.Q(reversed_at__isnull=True),
                name="honours_honourpaid_once_per_hand",
            ),
            models.CheckConstraint(
                condition=models.Q(amount_ore__gte=0), name="honours_honourpaid_amount_not_negative"
            ),
            models.CheckConstraint(
                condition=(models.Q(amount_ore=0) & models.Q(transaction__isnull=True))
                | (models.Q(amount_ore__gt=0) & models.Q(transaction__isnull=False)),
                name="honours_honourpaid_paid_by_a_transaction",
            ),
            models.CheckConstraint(
                condition=models.Q(reversal__isnull=True) | models.Q(reversed_at__isnull=False),
                name="honours_honourpaid_reversal_is_taken_back",
            ),
        ]
        indexes = [
            models.Index(fields=["club", "created_at"], name="honours_paid_club_time"),
            models.Index(fields=["game_ref"], name="honours_paid_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_ref} deal {self.deal}: {kind_name(self.kind)}"

    @property
    def kind_name(self) -> str:
        return kind_name(self.kind)

    @property
    def player_name(self) -> str:
        return self.member.name if self.member_id else self.guest_name

    @property
    def is_reversed(self) -> bool:
        return self.reversed_at is not None
