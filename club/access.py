"""Every club lookup goes through here, so another club's ids reveal nothing.

``club_view`` resolves the ``club_slug`` URL argument to ``request.club`` and the user's own
``request.member``. A user who is not an active member of that club gets 404 (not 403: whether a
club exists is nobody else's business); a member without the role a page needs gets 403. Who
has a role is ``Member.can(role)``, the same answer the templates show buttons by.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from club.models import Club, Member

CURRENT_CLUB_SESSION_KEY = "current_club"


def get_member(user: Any, club_slug: str) -> Member:
    """The user's active member at the club with that slug, or 404."""
    member = (
        Member.objects.select_related("club")
        .prefetch_related("memberships")
        .filter(club__slug=club_slug, user=user, active=True)
        .first()
        if user.is_authenticated
        else None
    )
    if member is None:
        raise Http404(_("No such club."))
    return member


def club_view(role: str | None = None) -> Callable[[Callable[..., HttpResponse]], Callable]:
    """Decorate a view taking ``club_slug``: 404 outside the club, 403 without ``role``."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @login_required
        @wraps(view)
        def wrapper(request: HttpRequest, club_slug: str, *args: Any, **kwargs: Any):
            member = get_member(request.user, club_slug)
            if role is not None and not member.can(role):
                raise PermissionDenied(_("Your role at this club does not allow this."))
            request.member = member  # type: ignore[attr-defined]
            request.club = member.club  # type: ignore[attr-defined]
            # Written only when it changes: a session save on every request is a database
            # write per poll (and two phones polling at once contend for the session row).
            if request.session.get(CURRENT_CLUB_SESSION_KEY) != member.club.slug:
                request.session[CURRENT_CLUB_SESSION_KEY] = member.club.slug
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def current_club_for(request: HttpRequest) -> Club | None:
    """The club the user last worked in (if still a member), else their first club."""
    clubs = Club.objects.for_user(request.user)
    slug = request.session.get(CURRENT_CLUB_SESSION_KEY)
    return (slug and clubs.filter(slug=slug).first()) or clubs.first()
