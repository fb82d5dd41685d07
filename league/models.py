"""The league: each finished game's results per seat, seasons, standings, ratings and
head-to-head records. ``league.intake`` writes the results and ``league.incremental`` the rest;
the tables were ``club_*`` until the league became an app of its own (migrations
``league.0001``/``0002``).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import Club, Member, Season
from league.formats import FormatError, LeagueRules, parse_points_table


class GameResult(models.Model):
    """One player's result in one finished game, pushed here by the recording layer.

    ``game_ref`` identifies the game without club importing scoring ("game:17"). Guests have
    no member and count for nothing in the league but keep the table complete.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="results")
    game_ref = models.CharField(max_length=40)
    game_key = models.CharField(_("game"), max_length=30)
    finished_at = models.DateTimeField(_("finished"))
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, null=True, blank=True, related_name="results"
    )
    guest_name = models.CharField(max_length=100, blank=True)
    seat = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    placement = models.PositiveSmallIntegerField(_("placement"))
    score = models.IntegerField(_("score"))
    net_ore = models.BigIntegerField(_("net money (öre)"), default=0)
    players = models.PositiveSmallIntegerField(_("players"))
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-finished_at", "game_ref", "placement"]
        verbose_name = _("game result")
        verbose_name_plural = _("game results")
        constraints = [
            models.UniqueConstraint(
                fields=["game_ref", "seat"], name="league_gameresult_one_per_seat"
            ),
        ]
        indexes = [
            models.Index(
                fields=["club", "game_key", "finished_at"], name="league_result_game_time"
            ),
            # The start page's latest winners (league.hooks): the newest few from the index,
            # not every result the club ever had, sorted.
            models.Index(
                fields=["club", "-finished_at"],
                condition=models.Q(placement=1),
                name="league_result_latest_winners",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_ref} #{self.placement} {self.member or self.guest_name}"


# --- Standings and ratings (per season of the club) -------------------------------------------


class Standing(models.Model):
    """One member's line in a season's table for one game; rebuilt by league.recompute."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    game_key = models.CharField(max_length=30)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveSmallIntegerField()
    played = models.PositiveIntegerField()
    won = models.PositiveIntegerField()
    points = models.IntegerField()
    net_ore = models.BigIntegerField()
    form = models.CharField(max_length=20, blank=True)
    rating = models.FloatField(null=True)
    rating_change = models.FloatField(null=True)
    rated_games = models.PositiveIntegerField(default=0)
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["season", "game_key", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "game_key", "member"], name="league_standing_one_per_member"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} {self.game_key} #{self.rank} {self.member}"

    @property
    def points_per_game(self) -> float:
        return self.points / self.played if self.played else 0.0


class RatingPoint(models.Model):
    """A member's OpenSkill rating after one game (all seasons, one game kind)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game_key = models.CharField(max_length=30)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="rating_points")
    game_ref = models.CharField(max_length=40)
    finished_at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    change = models.FloatField()
    games = models.PositiveIntegerField()

    class Meta:
        ordering = ["finished_at", "id"]
        indexes = [
            models.Index(fields=["member", "game_key", "finished_at"], name="league_rating_member"),
            # A game kind's points from a moment on: what a re-rate compares and replaces.
            models.Index(
                fields=["club", "game_key", "finished_at"], name="league_rating_game_time"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} {self.game_key} {self.ordinal:.1f}"


class HeadToHead(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="+")
    game_key = models.CharField(max_length=30)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    wins = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "game_key", "member", "opponent"], name="league_h2h_one_per_pair"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} v {self.opponent}: {self.wins}-{self.losses}-{self.draws}"


class LeagueProgress(models.Model):
    """How far one game kind's ratings and season tables of a club are up to date.

    ``through``: every result of the kind that finished at or before it is in the ratings and
    in its season's table, and none after it; unknown (``None``) until the first rebuild.
    ``stale_from``: a result at or before ``through`` changed since (a late entry, an undone,
    voided or corrected game): everything from that moment on is rebuilt. ``league.intake`` and
    ``league.incremental`` read and write it under the row's lock, so a result recorded while
    an update runs is either seen by that update or marks the update's work stale.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game_key = models.CharField(max_length=30)
    through = models.DateTimeField(null=True, blank=True)
    stale_from = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game_key"], name="league_leagueprogress_one_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.game_key} through {self.through}"


class OwedAction(models.TextChoices):
    RECORD = "record", _("record the results")
    REMOVE = "remove", _("remove the results")


class OwedResult(models.Model):
    """What the league owes a game: its results to record, or to take out (``league.owed``).

    Written by the recording layer in the same database transaction as the event that finished,
    undid or voided the game, so it cannot be lost with a broker that is away; one row per game,
    which always says the latest thing owed. ``delivered_at`` is set when the league has done it;
    a task delivers it at once, and the beat's sweep (and ``manage.py recompute_league``) deliver
    whatever is still owed."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    game_ref = models.CharField(max_length=40, unique=True)
    action = models.CharField(max_length=10, choices=OwedAction.choices)
    # record: {"game_key", "finished_at" (ISO), "results": [PlayerResult.as_json()]}
    payload = models.JSONField(default=dict, blank=True)
    owed_since = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["owed_since", "id"]
        verbose_name = _("league result owed")
        verbose_name_plural = _("league results owed")
        indexes = [
            models.Index(
                fields=["owed_since"],
                condition=models.Q(delivered_at__isnull=True),
                name="league_owedresult_pending",
            ),
        ]

    def __str__(self) -> str:
        state = "delivered" if self.delivered_at else "owed"
        return f"{self.game_ref}: {self.action}, {state}"


# --- The club's league format (issue 29; the rules are ``league.formats``) -------------------


class FormatUnit(models.TextChoices):
    EVENING = "evening", _("evenings (club days)")
    GAME = "game", _("single games")


def validate_points_table(text: str) -> None:
    """The points table's one check (``league.formats.parse_points_table``), in the reader's
    language, naming the line."""
    try:
        parse_points_table(text)
    except FormatError as error:
        message = gettext(error.template).format(**error.params)
        raise ValidationError(message, code="points_table") from None


class LeagueFormat(models.Model):
    """How the club's seasons are counted: the best N results, participation points, a points
    table per number of players, a minimum to be ranked (``league.formats``).

    One per club, beside the placement scheme it can replace: it applies to every season and
    game kind, and saving it rebuilds every table, as changing the scheme does. Every option
    at its default (``is_default``) is the league as it was before formats, built by the same
    code."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="league_format")
    best = models.PositiveSmallIntegerField(
        _("count the best"),
        null=True,
        blank=True,
        help_text=_("How many results count for each player; empty: every result counts."),
    )
    unit = models.CharField(
        _("a result is"), max_length=10, choices=FormatUnit.choices, default=FormatUnit.EVENING
    )
    participation = models.PositiveSmallIntegerField(
        _("participation points"),
        default=0,
        help_text=_("Points for every evening or game played, counted or dropped."),
    )
    points_table = models.TextField(
        _("points table"),
        blank=True,
        max_length=2000,
        validators=[validate_points_table],
        help_text=_(
            "One line per number of players: 4: 10 6 3 1 gives 10 points for a win at a table "
            "of four, 1 for last. A number of players without a line earns nothing. Empty: the "
            "league points above."
        ),
    )
    minimum = models.PositiveSmallIntegerField(
        _("minimum to be ranked"),
        default=0,
        help_text=_("Evenings or games a player needs before being ranked."),
    )

    class Meta:
        ordering = ["club"]
        verbose_name = _("league format")
        verbose_name_plural = _("league formats")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(best__isnull=True) | models.Q(best__gte=1),
                name="league_leagueformat_best_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.describe_plain()}"

    @property
    def is_default(self) -> bool:
        return (
            self.best is None
            and self.participation == 0
            and not self.points_table.strip()
            and self.minimum == 0
        )

    def table(self) -> dict[int, tuple[int, ...]] | None:
        """The points table, parsed (``None``: the club's placement points)."""
        return parse_points_table(self.points_table) if self.points_table.strip() else None

    def rules(self) -> LeagueRules:
        return LeagueRules(
            best=self.best,
            participation=self.participation,
            points_table=self.table(),
            minimum=self.minimum,
        )

    def describe_plain(self) -> str:
        """For the admin's list (English, terse); the pages say it in words."""
        if self.is_default:
            return "default"
        best = f"best {self.best}" if self.best else "all"
        table = ", table" if self.points_table.strip() else ""
        return f"{best} {self.unit}s, +{self.participation}, min {self.minimum}{table}"
