"""A game's special hands stored: pay the club's prizes for the hands the state holds, once,
in the game's own transaction (``honours``, issue 29).

- ``game_stored(game, state)``: called by ``turns._store`` in every append and undo, after the
  game row is saved, under its lock. An engine whose ``State`` has no ``honours`` costs nothing;
  one that has them costs one query while the game holds none (``honours.services.reconcile``
  pays new ones and takes back those an undo removed).
- Who is paid: the seat's member's account; a guest at a club evening's table his evening
  account, a guest at no evening the cash box: where the game's own money for that seat goes
  (``money.account_key``), so a guest's prize is paid like a guest's winnings.
- A voided game's prizes go back to their pots: ``void_game`` calls ``game_voided`` in the
  voiding's transaction, beside the competition table's result going back.
- ``check_honours_replay`` (registered with ``ledger.register_check`` when this module loads;
  ``tests/honours`` asserts it is registered once Django is set up): every unreversed prize
  paid is a hand the game's replay still holds, and no voided game keeps one. One query for the
  rows and one replay per game that has any.
"""

from __future__ import annotations

from typing import Any

import ledger
from club.models import Club
from honours import services
from honours.models import HonourPaid
from scoring.models import Game, GameStatus
from scoring.recording import money, replay


def _player(game: Game, key: str) -> services.Player:
    seats = game.seats_by_key
    seat = seats[key]
    return services.Player(
        seat=seat.position,
        member=seat.member if seat.member_id else None,
        guest_name=seat.guest_name,
        account_key=money.account_key(game, key, seats),
        account=lambda: money._accounts_for(game, {key})[key],
    )


def _seat_of(key: str) -> int:
    """The seat's position from its key (``Seat.key``: ``s0``, ``s1`` …)."""
    return int(key.removeprefix("s"))


def game_stored(game: Game, state: Any) -> None:
    honours = getattr(state, "honours", None)
    if honours is None:
        return  # this game's engine knows no special hands
    services.reconcile(
        game.club,
        game.ref,
        game.game_key,
        game.started_at,
        honours,
        _seat_of,
        lambda key: _player(game, key),
    )


def game_voided(game: Game) -> None:
    """The voided game's prizes back to their pots (called by ``undoing.void_game``)."""
    services.game_voided(game.ref)


def check_honours_replay(club: Club) -> list[str]:
    """Every unreversed prize paid is a hand its game's replay holds; a voided game keeps none."""
    rows = list(HonourPaid.objects.filter(club=club, reversed_at__isnull=True))
    if not rows:
        return []
    ids = {int(row.game_ref.partition(":")[2]) for row in rows if row.game_ref.startswith("game:")}
    games = {
        game.ref: game
        for game in Game.objects.filter(club=club, pk__in=ids).prefetch_related("events")
    }
    held: dict[str, set | None] = {}
    problems = []
    for row in rows:
        label = f"honour {row.pk} ({row.game_ref}, deal {row.deal}, seat {row.seat}, {row.kind})"
        game = games.get(row.game_ref)
        if game is None:
            problems.append(f"{label}: no such game in this club")
            continue
        if game.status == GameStatus.VOIDED:
            problems.append(f"{label}: the game is voided, but its prize is still paid")
            continue
        if row.game_ref not in held:
            held[row.game_ref] = _replayed_honours(game)
        if held[row.game_ref] is None:
            continue  # a game that no longer replays: scoring's own check names it
        if (row.deal, row.seat, row.kind) not in held[row.game_ref]:
            problems.append(f"{label}: the game's replay holds no such hand")
    return problems


def _replayed_honours(game: Game) -> set | None:
    try:
        state, _nets = replay._replay_with_nets(game, sorted(game.events.all(), key=_seq))
    except Exception:  # noqa: BLE001 - scoring.audit names a game that does not replay
        return None
    return {(h.deal, _seat_of(h.player), h.kind) for h in getattr(state, "honours", ())}


def _seq(event) -> int:
    return event.seq


ledger.register_check(check_honours_replay)
