"""Tonight's tables: how many, who sits where, and each pot game's share of the club's pot.

Design
- ``form_tables(evening, game_key, groups)`` seats the host's groups at tables numbered after
  the ones already there, under the club's lock (nobody sits at two tables; only tonight's
  attendees; each group within the game's player counts).
- ``draw_groups(attendees, game_key)`` draws them for the game's player counts
  (``table_sizes``): as few tables as the game's largest table allows, sizes within one of each
  other, seats in the order drawn (the first seat deals first, as on the start form). Each
  table then plays games as any table does (``scoring``: a game started at a table has
  ``Game.table``).
- Pots (a game whose declaration plays from a pot, ``evenings.pots.is_pot_game``): at an
  evening every table has its own pot and betar, keyed by the table's number
  (``ledger.game_pot(club, key, table=n)``), so two Kille tables play side by side. How the
  club's pot is shared among the tables as each is formed is ``evenings.pots``' rule; forming
  them is refused while a game outside tonight's tables plays from the club's pot (sharing it
  would pull money from under that deal). Betar stay with their table: each is owned by the
  players who put it in.
- ``table_numbered(evening, number, game_key)``: tonight's table ``number`` for games whose
  players are seated elsewhere (a competition's round seats its own tables, round after round):
  made on first use, without seats and without a share of the club's pot, so its pot is the
  table number's own (empty on a new evening under the merge policy: the opening stake fills it;
  a later round at the same number plays on from what the earlier one left). ``open_tonight``
  is the club's open evening (the newest, should yesterday's still be open).

Relies on ``engine.registry`` (player counts, names), ``evenings.pots`` and
``evenings.opening`` (the refusals).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Sequence
from random import Random

from django.db import transaction
from django.utils.translation import gettext as _

from club.models import Club, User
from engine import registry
from evenings import pots
from evenings.models import Attendee, Evening, EveningStatus, Table, TableSeat
from evenings.opening import EveningError, require_open
from live import signals as live_signals


def table_sizes(players: int, game_key: str) -> list[int]:
    """How ``players`` people sit at tables of ``game_key``: as few tables as its largest table
    allows, sizes within one of each other (larger tables first)."""
    info = registry.get(game_key)
    if players < info.min_players:
        raise EveningError(
            _("%(game)s needs at least %(n)s players.")
            % {"game": _(info.name), "n": info.min_players},
            code="players",
        )
    tables = math.ceil(players / info.max_players)
    base, extra = divmod(players, tables)
    if base < info.min_players:
        raise EveningError(
            _("%(n)s players cannot sit at tables of %(game)s (%(lo)s–%(hi)s a table).")
            % {"n": players, "game": _(info.name), "lo": info.min_players, "hi": info.max_players},
            code="players",
        )
    return [base + 1] * extra + [base] * (tables - extra)


def draw_groups(
    attendees: Sequence[Attendee], game_key: str, rng: Random | None = None
) -> list[list[Attendee]]:
    """The app's draw: shuffle, then fill the tables in order (the first seat deals first)."""
    drawn = list(attendees)
    (rng or secrets.SystemRandom()).shuffle(drawn)
    groups, start = [], 0
    for size in table_sizes(len(drawn), game_key):
        groups.append(drawn[start : start + size])
        start += size
    return groups


def form_tables(
    evening: Evening, game_key: str, groups: Sequence[Sequence[Attendee]], by: User | None
) -> list[Table]:
    """Seat each group at a new table of ``game_key`` (numbered after the evening's tables);
    for a pot game, the club's pot is shared among the tables not yet playing
    (``pots.share_club_pot``)."""
    require_open(evening)
    info = registry.get(game_key)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=evening.club_id).first()
        seated = set(
            TableSeat.objects.filter(table__evening=evening).values_list("attendee_id", flat=True)
        )
        _check_groups(evening, info, groups, seated)
        number = (evening.tables.order_by("-number").values_list("number", flat=True).first()) or 0
        tables = []
        for group in groups:
            number += 1
            table = Table.objects.create(evening=evening, number=number, game_key=game_key)
            TableSeat.objects.bulk_create(
                TableSeat(table=table, attendee=a, position=i) for i, a in enumerate(group)
            )
            tables.append(table)
        if pots.is_pot_game(game_key):
            _refuse_club_pot_in_play(evening, game_key)
            pots.share_club_pot(evening, game_key, tables, by)
        live_signals.evening_changed(evening.pk)  # the board shows the new tables
    return tables


def _check_groups(evening, info, groups, seated: set[int]) -> None:
    if not groups:
        raise EveningError(_("Choose the players of at least one table."), code="players")
    everyone = [a for group in groups for a in group]
    if len({a.pk for a in everyone}) != len(everyone):
        raise EveningError(_("Nobody can sit at two tables."), code="players")
    if any(a.evening_id != evening.pk for a in everyone):
        raise EveningError(_("Only tonight's attendees can sit at a table."), code="players")
    if any(a.pk in seated for a in everyone):
        raise EveningError(_("Somebody chosen already sits at a table."), code="players")
    for group in groups:
        if not info.min_players <= len(group) <= info.max_players:
            raise EveningError(
                _("%(game)s is for %(lo)s–%(hi)s players.")
                % {"game": _(info.name), "lo": info.min_players, "hi": info.max_players},
                code="players",
            )


def _refuse_club_pot_in_play(evening: Evening, game_key: str) -> None:
    """A game outside the evening's tables playing from the club's pot: sharing that pot would
    pull money from under its deal."""
    if evening.club.games.filter(game_key=game_key, table__isnull=True, status="open").exists():
        raise EveningError(
            _(
                "A %(game)s game outside tonight's tables is playing from the club's pot: "
                "finish it before tables of %(game)s are formed."
            )
            % {"game": _(registry.display_name(game_key))},
            code="club_pot_in_play",
        )


def open_tonight(club: Club) -> Evening | None:
    """The club's open evening (the newest one, should an earlier one still be open)."""
    return (
        Evening.objects.filter(club=club, status=EveningStatus.OPEN)
        .order_by("-date", "-pk")
        .first()
    )


def table_numbered(evening: Evening, number: int, game_key: str) -> Table:
    """Tonight's table ``number`` (see the module docstring): made once (the unique number per
    evening), refused when the evening is not open or the table plays another game tonight."""
    require_open(evening)
    table, _created = Table.objects.get_or_create(
        evening=evening, number=number, defaults={"game_key": game_key}
    )
    if table.game_key != game_key:
        raise EveningError(
            _("Table %(number)s plays %(game)s tonight.")
            % {"number": number, "game": _(registry.display_name(table.game_key))},
            code="table_game",
        )
    if _created:
        live_signals.evening_changed(evening.pk)  # the board shows the new table
    return table
