"""A club's competitions: a two-player tournament (Swiss or round robin) or a multi-table
championship, its entrants, its rounds, the tables of a round, who sits where and each table's
result.

The games themselves are scoring's (``scoring.Game.competition_table``); a table's results are
written here when its game finishes and removed when it reopens (``competitions.results``).
Money is in the ledger: each entrant's fee (``Entrant.fee``) and the prizes, paid once
(``Competition.prizes``), to and from the competition's pool (``competitions.money``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club, Member
from ledger.models import Transaction


class Kind(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("round robin")
    CHAMPIONSHIP = "championship", _("championship")


class Status(models.TextChoices):
    ANNOUNCED = "announced", _("announced")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class Competition(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="competitions")
    name = models.CharField(_("name"), max_length=100)
    kind = models.CharField(_("format"), max_length=20, choices=Kind.choices)
    game_key = models.CharField(_("game"), max_length=30)
    # The game's rules options, as scoring's start form stores them (Game.rules).
    rules = models.JSONField(_("rules options"), default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=0)
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=2)
    final_table_size = models.PositiveSmallIntegerField(_("final table"), default=0)
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), default=0)
    skunks = models.BooleanField(_("skunk bonuses"), default=True)
    entry_fee_ore = models.BigIntegerField(_("entry fee (öre)"), default=0)
    prize_percents = models.JSONField(_("prizes (percent per place)"), default=list, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ANNOUNCED
    )
    starts_at = models.DateTimeField(_("starts"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The prize payment, once (its transaction key is "<ref>:prizes").
    prizes = models.OneToOneField(
        Transaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(entry_fee_ore__gte=0),
                name="competitions_competition_fee_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2),
                name="competitions_competition_table_size_two_or_more",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def ref(self) -> str:
        return f"competition:{self.pk}"

    @property
    def is_two_player(self) -> bool:
        return self.kind != Kind.CHAMPIONSHIP

    @property
    def scores_in_ore(self) -> bool:
        """A pot game's score is the money a player won at the table (Kille, Polskt pass:
        ``Standing.score`` in öre): the pages show it in kronor, not as a bare number."""
        from engine import registry  # the engine is pure; the model reads its declaration

        return registry.get(self.game_key).declaration.plays_from_pot

    @property
    def is_running(self) -> bool:
        return self.status == Status.RUNNING


class Entrant(models.Model):
    """A member or a guest (by name) in the competition. ``seed`` is the order of entry;
    ``joins_round`` the first round he plays (a late entry), ``dropped_after`` the last."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entrants")
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    guest_name = models.CharField(_("guest"), max_length=100, blank=True)
    seed = models.PositiveSmallIntegerField(_("seed"))
    joins_round = models.PositiveSmallIntegerField(_("joins in round"), default=1)
    dropped_after = models.PositiveSmallIntegerField(
        _("dropped after round"), null=True, blank=True
    )
    created_at = models.DateTimeField(default=timezone.now)
    fee = models.OneToOneField(
        Transaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Written with the prize payment (``Competition.prizes``): his place and what he won.
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    prize_ore = models.BigIntegerField(_("prize (öre)"), default=0)

    class Meta:
        ordering = ["competition", "seed"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "seed"], name="competitions_entrant_seed_once"
            ),
            models.UniqueConstraint(
                fields=["competition", "member"],
                condition=models.Q(member__isnull=False),
                name="competitions_entrant_member_once",
            ),
            models.UniqueConstraint(
                fields=["competition", "guest_name"],
                condition=models.Q(member__isnull=True),
                name="competitions_entrant_guest_once",
            ),
            models.CheckConstraint(
                condition=models.Q(member__isnull=False) | ~models.Q(guest_name=""),
                name="competitions_entrant_member_or_guest",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.member.name if self.member_id else self.guest_name

    def plays_in(self, number: int) -> bool:
        """Does he play round ``number`` (entered by then, not dropped before)?"""
        return self.joins_round <= number and (
            self.dropped_after is None or number <= self.dropped_after
        )


class Round(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    is_final = models.BooleanField(_("final table"), default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["competition", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "number"], name="competitions_round_number_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competition} #{self.number}"


class Table(models.Model):
    """A table of a round: two players (a pairing), several (a championship), or one (a bye,
    number 0)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("competition table")
        verbose_name_plural = _("competition tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="competitions_table_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"

    @property
    def is_bye(self) -> bool:
        return self.number == 0


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("competition seat")
        verbose_name_plural = _("competition seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "entrant"], name="competitions_seat_once"),
            models.UniqueConstraint(
                fields=["table", "position"], name="competitions_seat_position_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.position}: {self.entrant}"


class TableResult(models.Model):
    """An entrant's result at a table, from its finished game (``game_ref``: "game:17")."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="results")
    game_ref = models.CharField(max_length=40)
    score = models.IntegerField(_("score"))
    placement = models.PositiveSmallIntegerField(_("placement"))
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table", "placement", "id"]
        verbose_name = _("table result")
        verbose_name_plural = _("table results")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "entrant"], name="competitions_tableresult_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.entrant}: {self.score}"
