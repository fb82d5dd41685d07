"""Club evenings: the club's options for them, an evening, who came, the tables and who sits
where. Money is in the ledger (fees, the tables' pots); games are scoring's (``Game.table``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import ledger
from club.models import Club, Member
from ledger.models import Transaction


class PotPolicy(models.TextChoices):
    CARRY = "carry", _("each table keeps its pot for the same table next time")
    MERGE = "merge", _("the tables' pots go back to the club's pot when the evening closes")


class FeeKind(models.TextChoices):
    TABLE_MONEY = "table", _("table money to the club")
    ENTRY_FEE = "entry", _("entry fee to tonight's prizes")


class EveningOptions(models.Model):
    """A club's choices for its evenings (one row per club, made on first use)."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="evening_options")
    fee_ore = models.BigIntegerField(_("fee per attendee (öre)"), default=0)
    fee_kind = models.CharField(
        _("the fee is"), max_length=10, choices=FeeKind.choices, default=FeeKind.TABLE_MONEY
    )
    pot_policy = models.CharField(
        _("between evenings"), max_length=10, choices=PotPolicy.choices, default=PotPolicy.CARRY
    )
    # Shares of the entry fees for 1st, 2nd, … place, in percent (a whist drive's prizes).
    prize_percents = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("evening options")
        verbose_name_plural = _("evening options")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(fee_ore__gte=0), name="evenings_options_fee_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.fee_ore} öre, {self.pot_policy}"

    def prize_percent_list(self) -> tuple[int, ...]:
        """The club's prize shares, or () for the drive's default (50/30/20)."""
        shares = self.prize_percents if isinstance(self.prize_percents, list) else []
        return tuple(int(share) for share in shares if isinstance(share, int))


class EveningStatus(models.TextChoices):
    # Planned ahead by the club's schedule (``week``): members reply; opened on its day.
    PLANNED = "planned", _("planned")
    OPEN = "open", _("open")
    CLOSED = "closed", _("closed")
    # A planned evening called off: shown struck out (and in the calendar feed) until its day.
    CANCELLED = "cancelled", _("cancelled")


class Evening(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="evenings")
    date = models.DateField(_("date"))
    title = models.CharField(_("title"), max_length=100, blank=True)
    games = models.JSONField(_("games on offer"), default=list, blank=True)
    status = models.CharField(
        max_length=10, choices=EveningStatus.choices, default=EveningStatus.OPEN
    )
    # The fee and the pot policy as they were when the evening opened: a later change of the
    # club's options does not rewrite an evening.
    fee_ore = models.BigIntegerField(default=0)
    fee_kind = models.CharField(max_length=10, choices=FeeKind.choices, default=FeeKind.TABLE_MONEY)
    pot_policy = models.CharField(max_length=10, choices=PotPolicy.choices, default=PotPolicy.CARRY)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    opened_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    # An evening planned ahead (``week``): when it starts (UTC stored, Europe/Stockholm shown),
    # how many seats it has (None: no cap), and the iCalendar SEQUENCE, bumped whenever its
    # date, time or status changes (phones' calendars update the event they already hold).
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    cap = models.PositiveSmallIntegerField(_("seats"), null=True, blank=True)
    calendar_sequence = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("club evening")
        verbose_name_plural = _("club evenings")
        constraints = [
            # One evening a day: a double tap on "Open tonight" finds the first.
            models.UniqueConstraint(fields=["club", "date"], name="evenings_one_per_day"),
        ]

    def __str__(self) -> str:
        return self.title or str(self.date)

    @property
    def ref(self) -> str:
        return f"evening:{self.pk}"

    @property
    def is_open(self) -> bool:
        return self.status == EveningStatus.OPEN

    @property
    def is_planned(self) -> bool:
        return self.status == EveningStatus.PLANNED

    @property
    def is_cancelled(self) -> bool:
        return self.status == EveningStatus.CANCELLED


class Attendee(models.Model):
    """Someone at the evening: a member, or a guest by name. The fee is posted once."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="attendees")
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    guest_name = models.CharField(max_length=100, blank=True)
    arrived_at = models.DateTimeField(default=timezone.now)
    fee = models.OneToOneField(
        Transaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["arrived_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "member"],
                condition=models.Q(member__isnull=False),
                name="evenings_attendee_once",
            ),
            models.UniqueConstraint(
                fields=["evening", "guest_name"],
                condition=models.Q(member__isnull=True),
                name="evenings_guest_once",
            ),
            models.CheckConstraint(
                condition=models.Q(member__isnull=False) | ~models.Q(guest_name=""),
                name="evenings_attendee_member_or_guest",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.member.name if self.member_id else self.guest_name

    @property
    def account_key(self) -> str:
        """Whose money: the member's account, or the guest's account for the evening."""
        if self.member_id:
            return ledger.member_account_key(self.member_id)
        return ledger.guest_account_key(self.pk)


class Table(models.Model):
    """A table of the evening, by its number in the room (table 2's pot is table 2's next time
    too, when the club keeps the pots with the tables)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    game_key = models.CharField(_("game"), max_length=30)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="evenings_table_number"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="evenings_table_number_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.evening} #{self.number}"


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    attendee = models.ForeignKey(Attendee, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="evenings_seat_position"),
            models.UniqueConstraint(fields=["table", "attendee"], name="evenings_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.position}: {self.attendee}"


class Drive(models.Model):
    """A whist drive at the evening (``engine.whist_drive``): the players in seeding order (the
    draw) and the rules; the tables' round reports are ``DriveReport`` rows, and the drive's
    state is the engine's replay of them."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="drives")
    players = models.JSONField(default=list)  # attendee ids, round 1's seating order
    rules = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    prizes = models.OneToOneField(
        Transaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["evening", "id"]

    def __str__(self) -> str:
        return f"{self.evening} whist drive #{self.pk}"

    @property
    def ref(self) -> str:
        return f"{self.evening.ref}:drive:{self.pk}"


class DriveReport(models.Model):
    """One table's tricks in one round, as the table reported them: append-only. A correction
    is a new row that ``supersedes`` the one it corrects (each row is corrected at most once, so
    the rows of a table's round form one chain; the row nobody supersedes is the result)."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="reports")
    round_no = models.PositiveSmallIntegerField()
    table = models.PositiveSmallIntegerField()
    ns_tricks = models.PositiveSmallIntegerField()
    ew_tricks = models.PositiveSmallIntegerField()
    last_deal = models.CharField(max_length=2, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    supersedes = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="superseded_by"
    )

    class Meta:
        ordering = ["drive", "id"]
        constraints = [
            # The first report of a table's round, once (a double tap stores one); corrections
            # are chained by ``supersedes``, itself unique.
            models.UniqueConstraint(
                fields=["drive", "round_no", "table"],
                condition=models.Q(supersedes__isnull=True),
                name="evenings_drive_report_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.drive} r{self.round_no} t{self.table}: {self.ns_tricks}-{self.ew_tricks}"
