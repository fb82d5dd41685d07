"""Starting a game: its seats, its rules and setup checked by the engine, its first snapshot.

One transaction. The players (members, or guests by name) are seated in order; the engine's
``new_game`` must accept them and the club's rules options, or nothing is stored. The start
form's one-time key makes a double tap on "Start the game" open the first game (the unique
``(club, start_key)``, with the club's row lock so the second tap finds the first one's game).

A game at a club evening's table seats tonight's attendees (``Seat.attendee``; someone not
checked in is checked in as the game starts). A game that plays from a pot (its declaration's
``plays_from_pot``: Kille, Polskt pass) is open at one table at a time, the club's pot or one
table number's, and its ``pot_ore`` (and betar) are read again under the club's lock as it
starts, so a pot shared among tables in between is not played twice.

Relies on the engine's registry (players, the declaration), ``scoring.games`` (what a pot game
starts from), ``evenings`` (check-in) and ``replay`` (the engine's first state).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

import evenings
from club.models import Club, Member, User
from engine import registry
from evenings.models import Table
from live import signals as live_signals
from scoring import games
from scoring.models import Game, GameStatus, Seat
from scoring.recording import replay
from scoring.recording.outcomes import EventRefused


@transaction.atomic
def start_game(
    club: Club,
    game_key: str,
    players: Sequence[Member | str],
    by: User | None,
    rules: dict | None = None,
    setup: dict | None = None,
    *,
    key: str | None = None,
    table: Table | None = None,
) -> Game:
    """Seat the players (members, or guests by name) in order and check the engine agrees.

    ``key`` is the start form's one-time key: the same key again returns the game it started
    (a double tap on "Start the game"), made certain by the unique ``(club, start_key)``.
    ``table``: the club evening's table it is played at (its pot, its betar)."""
    if key:
        # Starts of one club take turns, so the second tap finds the first one's game (rather
        # than, for a pot game, being refused because that game is now open).
        Club.objects.select_for_update().filter(pk=club.pk).first()
        existing = Game.objects.filter(club=club, start_key=key).first()
        if existing is not None:
            return existing
    info = registry.get(game_key)
    if not info.min_players <= len(players) <= info.max_players:
        raise EventRefused(
            _("%(game)s is for %(lo)s–%(hi)s players.")
            % {"game": _(info.name), "lo": info.min_players, "hi": info.max_players},
            code="players",
        )
    members = [p for p in players if isinstance(p, Member)]
    if len({m.pk for m in members}) != len(members):
        raise EventRefused(_("A member cannot have two seats."), code="players")
    if any(m.club_id != club.pk for m in members):
        raise EventRefused(
            _("Every player must be a member of this club or a guest."), code="players"
        )
    if table is not None and (table.evening.club_id != club.pk or not table.evening.is_open):
        raise EventRefused(_("That table is not at an open evening of this club."), code="table")
    plays_from_pot = info.declaration.plays_from_pot
    if plays_from_pot and _open_pot_game(club, game_key, table):
        # The pot (and any betar) is one account: two games playing from it at once would each
        # start from the same amount and pay out the same money. Tables of a club evening have
        # a pot each.
        raise EventRefused(
            _("A %(game)s game is already open: its pot can be at one table only. Finish it first.")
            % {"game": _(info.name)},
            code="pot_in_use",
        )
    if plays_from_pot:
        # Read again under the club's lock (taken above): the page read it before.
        setup = {
            **(setup or {}),
            **games.start_setup(club, game_key, table.number if table else None),
        }
    try:
        with transaction.atomic():
            game = Game.objects.create(
                club=club,
                game_key=game_key,
                rules=rules or {},
                setup=setup or {},
                created_by=by,
                start_key=key or None,
                table=table,
            )
    except IntegrityError:
        # Only a start key can collide: the same tap arrived twice past the club lock.
        return Game.objects.get(club=club, start_key=key)
    attendees = _attendees_at(table, players, by) if table is not None else {}
    Seat.objects.bulk_create(
        Seat(
            game=game,
            position=i,
            member=p if isinstance(p, Member) else None,
            guest_name="" if isinstance(p, Member) else p.strip(),
            attendee=attendees.get(i),
        )
        for i, p in enumerate(players)
    )
    state = replay._replay(game, [])  # the engine refuses bad rules or players here
    game.snapshot = replay._snapshot(state, {})
    game.save(update_fields=["snapshot"])
    if table is not None:
        live_signals.evening_changed(table.evening_id)  # the board shows the new game
    return game


def _attendees_at(table: Table, players: Sequence[Member | str], by: User | None) -> dict:
    """Each player's attendee row at the table's evening, by seat position: whoever plays at
    tonight's table is at tonight's evening (checked in, with the fee, if not yet)."""
    evening = table.evening
    return {
        position: evenings.check_in(
            evening,
            by,
            member=player if isinstance(player, Member) else None,
            guest_name="" if isinstance(player, Member) else player,
        )
        for position, player in enumerate(players)
    }


def _open_pot_game(club: Club, game_key: str, table: Table | None = None) -> bool:
    """Is a game playing from the same pot open? The club's pot, or one table number's."""
    # The club row is locked first, so that two phones starting at once take turns and the
    # second one sees the first one's game (PostgreSQL; SQLite serialises writers anyway).
    Club.objects.select_for_update().filter(pk=club.pk).first()
    open_games = Game.objects.filter(club=club, game_key=game_key, status=GameStatus.OPEN)
    if table is None:
        return open_games.filter(table__isnull=True).exists()
    return open_games.filter(table__number=table.number, table__evening=table.evening).exists()
