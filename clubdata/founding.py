"""Founding a club: the club, its founder as its admin, the games it plays, in one transaction.

Who may found one is the instance's choice (``settings.CLUB_SIGNUP``): ``open`` lets any
signed-in user start a club, ``invite`` leaves it to staff users and ``manage.py create_club``
(``may_found``). The form page (``clubdata.views_founding``) and the command both call
``found_club``, which checks everything it is given, so neither can make a club the other
would refuse.

A double tap must make one club, not two. The slug is unique in the database, so two identical
submissions cannot both insert it; the one that loses (at the insert, or at the check before
it) finds the club the other made, and when that club has the same name and the same user as
its admin, it is the same founding: the loser answers with the first club instead of an error.
A slug left empty is suggested from the name, and the suggestion first looks for such a club of
the user's among the names it would suggest, so a double tap without a slug lands on one club
as well.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from club import members
from club.forms import MemberForm
from club.models import Club, Member, Role, User
from core import inputs
from engine import registry

NAME_MAX_LENGTH = Club._meta.get_field("name").max_length
SLUG_MAX_LENGTH = Club._meta.get_field("slug").max_length
# The URLs' <slug:…> takes [-a-zA-Z0-9_]; the app writes slugs in lower case.
_SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")
_SWEDISH = str.maketrans("åäöÅÄÖ", "aaoAAO")
# A slug made from nothing usable ("!!!", "♠♥") falls back to this.
FALLBACK_SLUG = "klubb"
# How many numbered suggestions (klubb-2, klubb-3, …) are tried before giving up.
MAX_SUFFIX = 1000


def may_found(user: User) -> bool:
    """Whether this user may found a club here: anyone signed in when ``CLUB_SIGNUP`` is
    ``open``, otherwise staff only."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return settings.CLUB_SIGNUP == "open" or user.is_staff


# --- names and slugs --------------------------------------------------------------------------


def clean_name(name: object) -> str:
    cleaned = inputs.clean_text(name, max_length=NAME_MAX_LENGTH)
    if not cleaned:
        raise ValidationError(_("A club needs a name."), code="name_required")
    return cleaned


def slug_base(name: str) -> str:
    """The slug a name suggests before it is made unique: å, ä and ö read as a, a and o
    ("Kåsa Kille" → "kasa-kille"), anything else that is not a letter or digit dropped."""
    base = slugify(name.translate(_SWEDISH))
    # Room for "-1000" when the base is taken; a slug never ends on a hyphen.
    base = base[: SLUG_MAX_LENGTH - len(f"-{MAX_SUFFIX}")].strip("-_")
    return base or FALLBACK_SLUG


def _candidates(base: str) -> Iterable[str]:
    yield base
    for n in range(2, MAX_SUFFIX + 1):
        yield f"{base}-{n}"


def _taken(base: str) -> set[str]:
    return set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))


def suggest_slug(name: str) -> str:
    """A free slug for a club of this name: its base, else base-2, base-3, …"""
    base = slug_base(name)
    taken = _taken(base)
    for candidate in _candidates(base):
        if candidate not in taken:
            return candidate
    raise ValidationError(
        _("Choose a short name yourself: every one suggested by this name is taken."),
        code="slug_exhausted",
    )


def clean_slug(slug: object) -> str:
    """A slug as the app writes them: lower case letters a–z, digits, single hyphens."""
    if not isinstance(slug, str) or len(slug) > 4 * SLUG_MAX_LENGTH:
        raise _bad_slug()
    cleaned = slug.strip().lower()
    if len(cleaned) > SLUG_MAX_LENGTH or _SLUG.fullmatch(cleaned) is None:
        raise _bad_slug()
    return cleaned


def _bad_slug() -> ValidationError:
    return ValidationError(
        _(
            "A short name is at most %(limit)s letters a–z, digits and hyphens, "
            "such as “kille-i-kungsholmen”."
        ),
        code="slug_invalid",
        params={"limit": SLUG_MAX_LENGTH},
    )


# --- Swish and games --------------------------------------------------------------------------


def clean_swish_number(number: object) -> str:
    """The club's Swish number, read as a member's is (``club.forms.MemberForm``)."""
    if number is None:
        return ""
    field = MemberForm.base_fields["swish_number"]
    return field.clean(number)


def clean_games(games: Iterable[str] | None) -> list[str]:
    """The keys of the games the club plays, in the Play page's order; all of them is stored
    as ``[]`` ("every game", so a game the app learns later is offered too)."""
    known = registry.game_keys()
    chosen = set()
    for key in games if games is not None else known:
        if not isinstance(key, str) or key not in known:
            raise ValidationError(
                _("“%(key)s” is not a game this app knows."),
                code="game_unknown",
                params={"key": str(key)[:40]},
            )
        chosen.add(key)
    if not chosen:
        raise ValidationError(_("Choose at least one game the club plays."), code="no_games")
    if chosen == set(known):
        return []
    return [key for key in known if key in chosen]


# --- founding ---------------------------------------------------------------------------------


def founder_name(user: User) -> str:
    name = (user.get_full_name() or user.get_username()).strip()
    return name[: Member._meta.get_field("name").max_length]


def _same_founding(user: User, name: str, slugs: Iterable[str]) -> Club | None:
    """The club among ``slugs`` that this user already founded under this name (a double tap,
    or the same form sent again), if any."""
    return (
        Club.objects.filter(
            slug__in=list(slugs),
            name=name,
            members__user=user,
            members__active=True,
            members__memberships__role=Role.ADMIN,
        )
        .order_by("pk")
        .first()
    )


@transaction.atomic
def found_club(
    user: User,
    name: str,
    slug: str = "",
    swish_number: str = "",
    games: Iterable[str] | None = None,
) -> Club:
    """Found a club with ``user`` as its admin and return it (or the club this very founding
    made a moment ago: see the module's docstring). ``slug`` empty: suggested from the name;
    ``games`` None: every game. Refusals are ``ValidationError`` with a code (``slug_taken``,
    ``slug_invalid``, ``name_required``, ``swish_number``, ``game_unknown``, ``no_games`` …);
    nothing is written then."""
    name = clean_name(name)
    swish_number = clean_swish_number(swish_number)
    games_played = clean_games(games)
    chosen = clean_slug(slug) if slug else ""
    # A chosen slug is tried once; a suggested one again (the next number) when another
    # founding took it between the suggestion and the insert.
    for _attempt in range(1 if chosen else 3):
        attempt = chosen or suggest_slug(name)
        same = _same_founding(user, name, [attempt] if chosen else _taken(slug_base(name)))
        if same is not None:
            return same
        if chosen and Club.objects.filter(slug=attempt).exists():
            # The same founding may have committed between the two reads: ask again now that
            # the club is visible (its admin was committed with it).
            same = _same_founding(user, name, [attempt])
            if same is not None:
                return same
            raise _slug_taken(attempt)
        try:
            with transaction.atomic():
                club = Club.objects.create(
                    name=name, slug=attempt, swish_number=swish_number, games_played=games_played
                )
        except IntegrityError:
            # Another request took the slug between the check and the insert: on PostgreSQL
            # the insert waited for it to commit, so its club and admin are visible now.
            same = _same_founding(user, name, [attempt])
            if same is not None:
                return same
            continue
        members.add_member(club, founder_name(user), roles=[Role.ADMIN], user=user)
        return club
    raise _slug_taken(attempt)


def _slug_taken(slug: str) -> ValidationError:
    return ValidationError(
        _("The short name “%(slug)s” is taken; choose another."),
        code="slug_taken",
        params={"slug": slug},
    )
