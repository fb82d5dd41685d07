"""An evening opened and closed: one evening per club and day, and the refusal every service
of the evenings raises.

Design
- ``open_evening(club, by)`` opens tonight (one evening per club and day: a second tap finds
  the first; two phones at once meet the unique (club, date) and the loser finds the winner's).
  An evening of that day planned ahead by the club's schedule (``week``), or one called off, is
  opened then (status open, the options copied, its calendar sequence bumped), not made anew.
  It copies the club's options (``evenings.options``: a fee per attendee, what the fee is, what
  happens to the tables' pots between evenings) so a later change of the options does not
  rewrite an evening.
- ``close_evening``: refused while a game at its tables is still open (its pot would move
  under it); then, under the *merge* policy, the tables' pots go back to the club's pot
  (``evenings.pots``) and the closing time is set, under the club's lock; what other apps
  registered with ``register_on_close`` runs in that transaction (the mail owes the report).
- ``EveningError`` is a refusal a person can act on; ``require_open`` is the one refusal every
  change to a closed evening meets.

Relies on ``engine.registry`` (the games an evening may name), ``evenings.options`` and
``evenings.pots``; the games at the tables are scoring's, read by relation
(``Table.games``), never imported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date as Date

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, User
from engine import registry
from evenings import pots
from evenings.models import Evening, EveningStatus, PotPolicy
from evenings.options import options_for
from live import signals as live_signals


class EveningError(ValidationError):
    """A refusal a person can act on, shown where the tap was."""


def require_open(evening: Evening) -> None:
    if evening.status == EveningStatus.PLANNED:
        raise EveningError(
            _("This evening is planned, not open yet: open it on its day."), code="planned"
        )
    if evening.status == EveningStatus.CANCELLED:
        raise EveningError(_("This evening was cancelled."), code="cancelled")
    if not evening.is_open:
        raise EveningError(_("This evening is closed."), code="closed")


def open_evening(
    club: Club,
    by: User | None,
    *,
    date: Date | None = None,
    title: str = "",
    games: Sequence[str] = (),
) -> Evening:
    """Tonight's evening (made on the first tap, found on every later one)."""
    day = date or timezone.localdate()
    known = set(registry.game_keys())
    unknown = [g for g in games if g not in known]
    if unknown:
        raise EveningError(_("Unknown game: %(game)s.") % {"game": unknown[0]}, code="game")
    existing = Evening.objects.filter(club=club, date=day).first()
    if existing is not None and existing.status in _NOT_YET_OPEN:
        return _open_planned(existing, by, title=title, games=games)
    if existing is not None:
        return existing
    options = options_for(club)
    try:
        with transaction.atomic():
            return Evening.objects.create(
                club=club,
                date=day,
                title=title,
                games=list(games),
                fee_ore=options.fee_ore,
                fee_kind=options.fee_kind,
                pot_policy=options.pot_policy,
                opened_by=by,
            )
    except IntegrityError:
        return Evening.objects.get(club=club, date=day)


# An evening planned ahead (``week``), or one called off, is opened on its day by the same tap.
_NOT_YET_OPEN = (EveningStatus.PLANNED, EveningStatus.CANCELLED)


def _open_planned(
    evening: Evening, by: User | None, *, title: str, games: Sequence[str]
) -> Evening:
    """Open a planned (or cancelled) evening: the club's options copied now, the host's title
    and games if he gave any. A conditional update: two taps at once open it once."""
    options = options_for(evening.club)
    changes = {
        "status": EveningStatus.OPEN,
        "fee_ore": options.fee_ore,
        "fee_kind": options.fee_kind,
        "pot_policy": options.pot_policy,
        "opened_by": by,
        "opened_at": timezone.now(),
        "calendar_sequence": F("calendar_sequence") + 1,
    }
    if title:
        changes["title"] = title
    if games:
        changes["games"] = list(games)
    Evening.objects.filter(pk=evening.pk, status__in=_NOT_YET_OPEN).update(**changes)
    return Evening.objects.get(pk=evening.pk)


def open_games_at(evening: Evening):
    """The games at the evening's tables that are still open (scoring's, by relation)."""
    return [
        game
        for table in evening.tables.prefetch_related("games")
        for game in table.games.all()
        if game.status == "open"
    ]


# What other apps do when an evening closes (``notices`` owes the evening report): each
# ``fn(evening)`` runs inside the closing transaction, so what it writes down commits with it.
_ON_CLOSE: list[Callable[[Evening], None]] = []


def register_on_close(fn: Callable[[Evening], None]) -> Callable[[Evening], None]:
    if fn not in _ON_CLOSE:
        _ON_CLOSE.append(fn)
    return fn


def close_evening(evening: Evening, by: User | None) -> Evening:
    """Close tonight: under the *merge* policy the tables' pots go back to the club's pot."""
    if not evening.is_open:
        return evening
    still_open = open_games_at(evening)
    if still_open:
        raise EveningError(
            _("Finish or void the open games first (tables %(tables)s).")
            % {"tables": ", ".join(sorted({str(g.table.number) for g in still_open}))},
            code="open_games",
        )
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=evening.club_id).first()
        evening.refresh_from_db()
        if not evening.is_open:
            return evening
        if evening.pot_policy == PotPolicy.MERGE:
            for game_key in sorted({t.game_key for t in evening.tables.all()}):
                if pots.is_pot_game(game_key):
                    pots.merge_table_pots(evening, game_key, by)
        evening.status = EveningStatus.CLOSED
        evening.closed_at = timezone.now()
        evening.save(update_fields=["status", "closed_at"])
        for on_close in _ON_CLOSE:
            on_close(evening)
        live_signals.evening_changed(evening.pk)
    return evening
