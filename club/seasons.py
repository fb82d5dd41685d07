"""A club's seasons: named stretches of its year that never overlap.

- Seasons of a club never overlap, so a result belongs to at most one. ``add_season`` checks
  and inserts under the club's row lock (as ``ledger.post`` does), so twenty identical forms
  sent at once add one season and refuse the rest; a club without seasons gets this calendar
  year from ``current_season``, made under the same lock. (A PostgreSQL exclusion constraint
  would need the btree_gist extension and has no SQLite counterpart: the lock is the guard.)
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, Season


def current_season(club: Club) -> Season:
    """The season holding today; a club without one gets this calendar year."""
    today = timezone.localdate()
    season = Season.objects.filter(club=club, start__lte=today, end__gte=today).first()
    if season is None:
        season = Season.objects.filter(club=club).order_by("-end").first()
    if season is None:
        with transaction.atomic():
            # Two first visits at once: the second waits here and finds the first one's year.
            Club.objects.select_for_update().filter(pk=club.pk).first()
            season = Season.objects.filter(club=club).order_by("-end").first()
            if season is None:
                season = Season.objects.create(
                    club=club,
                    name=str(today.year),
                    start=date(today.year, 1, 1),
                    end=date(today.year, 12, 31),
                )
    return season


def overlapping_season(club: Club, start: date, end: date) -> Season | None:
    """A season of the club sharing a day with ``start``–``end``, if there is one."""
    return Season.objects.filter(club=club, start__lte=end, end__gte=start).first()


def season_overlap_error(season: Season) -> ValidationError:
    return ValidationError(
        _("The season overlaps %(name)s.") % {"name": season.name}, code="overlap"
    )


@transaction.atomic
def add_season(club: Club, name: str, start: date, end: date) -> Season:
    """Add a season; refuses (``ValidationError``, code ``dates`` or ``overlap``) one that ends
    before it starts or shares a day with another. Check and insert hold the club's row lock:
    requests racing each other take turns, and each sees the seasons added before it."""
    if start > end:
        raise ValidationError(_("The season ends before it starts."), code="dates")
    Club.objects.select_for_update().filter(pk=club.pk).first()
    clash = overlapping_season(club, start, end)
    if clash is not None:
        raise season_overlap_error(clash)
    return Season.objects.create(club=club, name=name, start=start, end=end)
