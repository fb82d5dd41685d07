"""Games, seats and the append-only events recorded at the table.

The truth of a game is its events. ``Game.snapshot`` caches the engine's state after the last
event (as JSON) so that pages and polling read one row; ``Game.seq`` is the number of the last
event, which a phone sends back as ``expected_seq`` so that a stale phone cannot overwrite what
another phone recorded. See ``scoring/recording/`` for how events are appended.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from club.models import Club, Member
from engine import registry
from evenings.models import Attendee, Table
from ledger.models import Transaction


class GameStatus(models.TextChoices):
    OPEN = "open", _("open")
    FINISHED = "finished", _("finished")
    VOIDED = "voided", _("voided")


class GameQuerySet(models.QuerySet["Game"]):
    def for_club(self, club: Club) -> GameQuerySet:
        return self.filter(club=club)


class Game(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="games")
    game_key = models.CharField(_("game"), max_length=30)
    rules = models.JSONField(_("rules options"), default=dict, blank=True)
    # Arguments to the engine's new_game besides players and rules, fixed when the game starts
    # (e.g. the Kille pot carried over from the last evening), so replays never change.
    setup = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=GameStatus.choices, default=GameStatus.OPEN
    )
    seq = models.PositiveIntegerField(_("events"), default=0)
    snapshot = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    # The start form's one-time key: a double tap on "Start the game" finds the game the first
    # tap made (unique per club) instead of making a second one. NULL: started without a form.
    start_key = models.CharField(max_length=64, null=True, blank=True, editable=False)  # noqa: DJ001 - NULL: no key, no uniqueness
    # Started at a table of a club evening: the game belongs to that evening, and a pot game
    # plays from that table's pot ("pot:kille:2"), not the club's.
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, null=True, blank=True, related_name="games"
    )
    # Played at a table of a competition's round (issue 29): its result is the table's.
    competition_table = models.ForeignKey(
        "competitions.Table",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(
                fields=["club", "status"],
                condition=models.Q(status="open"),
                name="scoring_game_open_per_club",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "start_key"],
                condition=models.Q(start_key__isnull=False),
                name="scoring_game_unique_start_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_key} #{self.pk}"

    @cached_property
    def played(self) -> registry.GameInfo:
        """The game this row plays (its engine module and declaration), resolved once per
        instance: a request that records an event asks for it many times."""
        return registry.get(self.game_key)

    @cached_property
    def seats_by_key(self) -> dict[str, Seat]:
        """The seats by seat key (``s0`` …), in seat order, with their members: read once per
        instance. Seats are fixed when a game starts (a merge moves them between requests).
        Seats a page prefetched (with their members) are used as they are, not read again."""
        prefetched = getattr(self, "_prefetched_objects_cache", {}).get("seats")
        seats = prefetched if prefetched is not None else self.seats.select_related("member")
        return {seat.key: seat for seat in sorted(seats, key=lambda seat: seat.position)}

    @property
    def ref(self) -> str:
        return f"game:{self.pk}"

    @property
    def pot_table(self) -> int | None:
        """The table number whose pot and betar this game plays with (None: the club's)."""
        return self.table.number if self.table_id else None

    @property
    def is_open(self) -> bool:
        return self.status == GameStatus.OPEN


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("position"))
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    guest_name = models.CharField(_("guest"), max_length=100, blank=True)
    # At a club evening's table: who sits here among tonight's attendees. A guest's money then
    # goes to the guest's account for the evening (``guest:<attendee>``), not the cash box.
    attendee = models.ForeignKey(
        Attendee, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["game", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "position"], name="scoring_seat_unique_position"
            ),
            models.CheckConstraint(
                condition=(models.Q(member__isnull=False) & models.Q(guest_name=""))
                | (models.Q(member__isnull=True) & ~models.Q(guest_name="")),
                name="scoring_seat_member_or_guest",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        """The player key the engine knows this seat by."""
        return f"s{self.position}"

    @property
    def name(self) -> str:
        return self.member.name if self.member_id else self.guest_name


class Event(models.Model):
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=30)
    payload = models.JSONField(default=dict, blank=True)
    # What the event did, in words, as the engine logged it when it was recorded (English).
    summary = models.CharField(max_length=300, blank=True)
    # The same as the engine's lines — message ids and parameters (``engine.errors.Line``), so
    # the history is rendered in the reader's language with the players' names
    # (``scoring.messages.render_lines``).
    lines = models.JSONField(default=list, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    idempotency_key = models.CharField(max_length=64)
    # The ledger transaction that carried this event's money, if any.
    money = models.OneToOneField(
        Transaction, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Recorded by a guest without a login through the host's pass (then ``recorded_by`` is NULL).
    guest_pass = models.ForeignKey(
        "GuestPass", on_delete=models.PROTECT, null=True, blank=True, related_name="events"
    )

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="scoring_event_unique_seq"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"], name="scoring_event_unique_key"
            ),
            models.CheckConstraint(
                condition=models.Q(recorded_by__isnull=True) | models.Q(guest_pass__isnull=True),
                name="scoring_event_user_or_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.type}"


class GuestPass(models.Model):
    """The host's leave for a person without a login to record one game (``/g/<token>/``).

    Only the hash of the secret is stored; the secret itself is shown once, on the host's pad.
    A pass records for its own game and nothing else, and only while the game is open and the
    pass is not revoked (``scoring.guest``)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="guest_passes")
    token_hash = models.CharField(max_length=64, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["game", "-created_at"]
        verbose_name = _("guest pass")
        verbose_name_plural = _("guest passes")
        constraints = [
            models.UniqueConstraint(
                fields=["token_hash"], name="scoring_guestpass_unique_token_hash"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} guest #{self.pk}"

    @property
    def is_usable(self) -> bool:
        """May record now: not revoked, and the game is still open."""
        return self.revoked_at is None and self.game.is_open


class ConfirmationKind(models.TextChoices):
    CONFIRMED = "confirmed", _("confirmed")
    DISPUTED = "disputed", _("disputed")
    # The host's "confirm as it stands": a disputed game confirmed by the host.
    RESOLVED = "resolved", _("confirmed by the host")


class Confirmation(models.Model):
    """A player's word on a game as it stands at ``seq``: "Stämmer", or a dispute with a word;
    or the host's resolution of a dispute. Append-only; see ``scoring.confirming``."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="confirmations")
    seq = models.PositiveIntegerField(_("at event"))
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="+", verbose_name=_("member")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=ConfirmationKind.choices)
    # A dispute's word ("Fel giv", "2 kr för lite"); a resolution keeps the words of the
    # disputes it settles: those at its seq recorded before it.
    word = models.CharField(_("word"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    # The button's one-time key: a double tap records once.
    idempotency_key = models.CharField(max_length=64)

    class Meta:
        ordering = ["game", "pk"]
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")
        indexes = [
            # The flags ("disputed") look for disputes only.
            models.Index(
                fields=["game", "seq"],
                condition=models.Q(kind="disputed"),
                name="scoring_confirmation_disputes",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "idempotency_key"], name="scoring_confirmation_unique_key"
            ),
            models.CheckConstraint(
                condition=~models.Q(kind="disputed") | ~models.Q(word=""),
                name="scoring_confirmation_dispute_has_word",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} @{self.seq} {self.kind}: {self.member_id}"
