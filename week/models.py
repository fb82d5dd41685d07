"""The club's week: the schedule that plans evenings ahead, members' replies to a planned
evening (coming / maybe / not, a +1, the wait-list), and each member's calendar feed.

The planned evenings themselves are ``evenings.Evening`` rows (status *planned*); this app adds
what only a planned evening needs. Seats a reply takes: 1 + (1 with a +1 guest), when it says
coming and is not waiting; the evening's ``cap`` bounds their sum (``week.replies``)."""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Club, Member
from evenings.models import Evening


class Weekday(models.IntegerChoices):
    MONDAY = 0, _("Monday")
    TUESDAY = 1, _("Tuesday")
    WEDNESDAY = 2, _("Wednesday")
    THURSDAY = 3, _("Thursday")
    FRIDAY = 4, _("Friday")
    SATURDAY = 5, _("Saturday")
    SUNDAY = 6, _("Sunday")


class Schedule(models.Model):
    """Every <weekday> at <start_time>, from ``first_date`` (until ``until``)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="schedules")
    weekday = models.PositiveSmallIntegerField(_("weekday"), choices=Weekday.choices)
    start_time = models.TimeField(_("starts at"))
    first_date = models.DateField(_("from"))
    until = models.DateField(_("until"), null=True, blank=True)
    cap = models.PositiveSmallIntegerField(_("seats"), null=True, blank=True)
    title = models.CharField(_("title"), max_length=100, blank=True)
    games = models.JSONField(_("games on offer"), default=list, blank=True)
    active = models.BooleanField(_("active"), default=True)

    class Meta:
        ordering = ["club", "weekday", "start_time", "id"]
        verbose_name = _("schedule")
        verbose_name_plural = _("schedules")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(weekday__lte=6), name="week_schedule_weekday_range"
            ),
            models.CheckConstraint(
                condition=models.Q(until__isnull=True)
                | models.Q(until__gte=models.F("first_date")),
                name="week_schedule_until_after_first",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.weekday} {self.start_time:%H:%M}"


class ScheduleException(models.Model):
    """A date the schedule skips (a holiday, the room taken)."""

    schedule = models.ForeignKey(Schedule, on_delete=models.CASCADE, related_name="exceptions")
    date = models.DateField(_("date"))

    class Meta:
        ordering = ["schedule", "date"]
        verbose_name = _("schedule exception")
        verbose_name_plural = _("schedule exceptions")
        constraints = [
            models.UniqueConstraint(fields=["schedule", "date"], name="week_exception_once"),
        ]

    def __str__(self) -> str:
        return f"{self.schedule}: {self.date}"


class ReplyAnswer(models.TextChoices):
    COMING = "coming", _("coming")
    MAYBE = "maybe", _("maybe")
    NOT = "not", _("not coming")


class Reply(models.Model):
    """A member's answer to a planned evening; ``waiting``: on the wait-list, in ``queued_at``
    order (then id)."""

    evening = models.ForeignKey(Evening, on_delete=models.CASCADE, related_name="replies")
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="replies")
    answer = models.CharField(_("answer"), max_length=10, choices=ReplyAnswer.choices)
    guest_name = models.CharField(_("guest (+1)"), max_length=100, blank=True)
    waiting = models.BooleanField(_("on the wait-list"), default=False)
    queued_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["evening", "queued_at", "id"]
        verbose_name = _("reply")
        verbose_name_plural = _("replies")
        constraints = [
            models.UniqueConstraint(fields=["evening", "member"], name="week_reply_once"),
            models.CheckConstraint(
                condition=models.Q(waiting=False) | models.Q(answer="coming"),
                name="week_reply_waits_only_coming",
            ),
        ]
        indexes = [
            models.Index(
                fields=["evening", "queued_at", "id"],
                condition=models.Q(waiting=True),
                name="week_reply_waitlist",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.evening}: {self.member} {self.answer}"

    @property
    def seats(self) -> int:
        """The seats this reply takes now."""
        if self.answer != ReplyAnswer.COMING or self.waiting:
            return 0
        return 1 + (1 if self.guest_name else 0)

    @property
    def wants(self) -> int:
        """The seats it takes once seated."""
        return 1 + (1 if self.guest_name else 0)


class CalendarFeed(models.Model):
    """A member's secret calendar URL. Only the token's hash is stored: the token is derived
    from ``nonce`` with the server's secret key (``week.feed``), so the member's page can show
    the URL again, and a new nonce revokes the old URL."""

    member = models.OneToOneField(Member, on_delete=models.CASCADE, related_name="calendar_feed")
    nonce = models.CharField(max_length=32)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["member"]
        verbose_name = _("calendar feed")
        verbose_name_plural = _("calendar feeds")

    def __str__(self) -> str:
        return f"{self.member}: {self.created_at:%Y-%m-%d}"
