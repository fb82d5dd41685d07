"""Clubs and the people in them.

- ``User``: a login (Django's user, our own class so it can grow without a migration dance).
- ``Club``: everything else is scoped to one.
- ``Member``: a person at a club. Many members never log in (guests of long standing, the
  treasurer's aunt); a member with a login has ``user`` set. One user is at most one member per
  club, and may belong to several clubs.
- ``Season``: a named stretch of the club's year; seasons never overlap (``club.seasons``).
- ``Membership``: a role a member holds at the club: member, scorer, treasurer, admin. A member
  may hold several (the treasurer often scores too); admin implies every other role, and no
  other role implies another. ``Member.can(role)`` is the one answer to "may this member do
  what ``role`` allows": ``club_view(role=…)`` asks it before a view runs, and templates ask
  it through ``me.is_scorer``, ``me.is_treasurer`` and ``me.is_admin``, so a page shows a
  button exactly when its view will let the member use it.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

INVITE_LIFETIME = timedelta(days=14)


class User(AbstractUser):
    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")


class ClubQuerySet(models.QuerySet["Club"]):
    def for_user(self, user: User) -> ClubQuerySet:
        if not user.is_authenticated:
            return self.none()
        return self.filter(members__user=user, members__active=True).distinct()


class PlacementScheme(models.TextChoices):
    THREE_ONE_ZERO = "3-1-0", _("3 for a win, 1 for a shared win, 0 otherwise")
    N_MINUS_ONE = "n-1", _("n−1 … 0 for n players")
    GAME_SCORE = "score", _("the game's own score")


class ConfirmWhen(models.TextChoices):
    END = "end", _("at the end of the game")
    DEAL = "deal", _("after each deal")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), max_length=50, unique=True)
    swish_number = models.CharField(_("club Swish number"), max_length=20, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    placement_scheme = models.CharField(
        _("league points"),
        max_length=10,
        choices=PlacementScheme.choices,
        default=PlacementScheme.N_MINUS_ONE,
    )
    provisional_games = models.PositiveSmallIntegerField(
        _("games before a rating counts"), default=5
    )
    skunks_in_league = models.BooleanField(
        _("cribbage skunks count double in the league"), default=False
    )
    # A secret for the read-only league page; empty when the club does not share it.
    league_share_token = models.CharField(max_length=43, blank=True, db_index=True)
    # Who won or lost how much is the members' business: the public page leaves it out unless
    # the club says otherwise.
    public_league_money = models.BooleanField(
        _("show money on the public league page"), default=False
    )
    # The games the club plays (engine registry keys, in the club's order); empty: every game.
    games_played = models.JSONField(_("games played"), default=list, blank=True)
    # Per game, the start form's defaults ({"kille": {"stake_ore": 500}}): the club's choice of
    # the engine's Rules options, checked against them when saved (clubdata.settings).
    game_defaults = models.JSONField(_("default options per game"), default=dict, blank=True)
    # The club's own ceiling on a single amount in öre; None: the instance's (MAX_AMOUNT_ORE),
    # which it may lower but never raise.
    max_amount_ore = models.BigIntegerField(_("largest single amount (öre)"), null=True, blank=True)
    # Results the table confirms (scoring.confirming): when the pad asks the other players to
    # confirm, and whether tonight's settle-up waits for every game to be confirmed.
    confirm_when = models.CharField(
        _("confirm a game's result"),
        max_length=10,
        choices=ConfirmWhen.choices,
        default=ConfirmWhen.END,
    )
    confirm_to_settle = models.BooleanField(
        _("settle a game's money tonight only when it is confirmed"), default=False
    )

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    MEMBER = "member", _("member")
    SCORER = "scorer", _("scorer")
    TREASURER = "treasurer", _("treasurer")
    ADMIN = "admin", _("admin")


class MemberQuerySet(models.QuerySet["Member"]):
    def for_club(self, club: Club) -> MemberQuerySet:
        return self.filter(club=club)

    def active(self) -> MemberQuerySet:
        return self.filter(active=True)


class Member(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(_("name"), max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("login"),
    )
    swish_number = models.CharField(
        _("Swish number"),
        max_length=20,
        blank=True,
        help_text=_("Used for settle-up payments to this member."),
    )
    email = models.EmailField(_("e-mail"), blank=True)
    active = models.BooleanField(_("active"), default=True)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)
    # Set when the member left the club (``active`` is then False): history and league stay.
    left_at = models.DateTimeField(_("left"), null=True, blank=True)
    # Set when the member's personal data was erased on request (GDPR art. 17): the name is a
    # pseudonym, contact details and login are gone, games and books keep balancing.
    erased_at = models.DateTimeField(_("erased"), null=True, blank=True)
    # Only a hash of the invite token is stored: the link itself is shown once, to the admin.
    invite_token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    invite_expires_at = models.DateTimeField(null=True, blank=True)

    objects = MemberQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="club_member_one_per_user_and_club",
            ),
            models.UniqueConstraint(fields=["club", "name"], name="club_member_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def roles(self) -> set[str]:
        cached = getattr(self, "_roles", None)
        if cached is None:
            cached = {m.role for m in self.memberships.all()}
            self._roles = cached
        return cached

    def can(self, role: str) -> bool:
        """Whether the member may do what ``role`` allows — the one definition views and
        templates share. Admin implies every role; every active member is a member; an
        inactive member may do nothing; no other role implies another (a treasurer who scores
        holds both roles)."""
        if not self.active:
            return False
        return role == Role.MEMBER or role in self.roles or Role.ADMIN in self.roles

    has_role = can

    # For templates, which cannot pass an argument: ``{% if me.is_scorer %}``.
    @property
    def is_admin(self) -> bool:
        return self.can(Role.ADMIN)

    @property
    def is_treasurer(self) -> bool:
        return self.can(Role.TREASURER)

    @property
    def is_scorer(self) -> bool:
        return self.can(Role.SCORER)

    def new_invite(self) -> str:
        """Make a fresh invite token (the old one stops working) and return it."""
        token = secrets.token_urlsafe(24)
        self.invite_token_hash = hash_token(token)
        self.invite_expires_at = timezone.now() + INVITE_LIFETIME
        self.save(update_fields=["invite_token_hash", "invite_expires_at"])
        return token


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Membership(models.Model):
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    granted_at = models.DateTimeField(_("granted"), default=timezone.now)

    class Meta:
        ordering = ["member", "role"]
        verbose_name = _("membership role")
        verbose_name_plural = _("membership roles")
        constraints = [
            models.UniqueConstraint(fields=["member", "role"], name="club_membership_unique_role"),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.get_role_display()}"


class Season(models.Model):
    """A stretch of the club's year with a name ("Hösten 2026"). The club's calendar, not the
    league's alone: the league ranks within a season and the books state a member's money over
    one, so both apps lean on it here rather than on each other."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    start = models.DateField(_("start"))
    end = models.DateField(_("end"))

    class Meta:
        ordering = ["-start"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(start__lte=models.F("end")), name="club_season_start_before_end"
            ),
        ]

    def __str__(self) -> str:
        return self.name
