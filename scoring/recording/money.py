"""A game's money in the club's books: which account each engine key stands for, and posting
an event's transfers.

The engine pays between keys: the seats' ``s0``, ``s1`` …, the game's ``pot`` and its betar
``bet:<n>``. ``account_key`` is the one mapping to the club's accounts, for posting and for
``scoring.audit``: a member's seat is the member's account; a guest at a club evening's table
has the guest's account for the evening (``Seat.attendee``); a guest at a game outside an
evening has no account, so the money goes through the club's cash account (a guest pays or is
paid in cash at the table). The pot and betar are the club's accounts for that game, or the
evening table's (``Game.pot_table``).

An event's transfers are netted per account and posted as one transaction with
``ledger.post``, idempotent by the key ``game:<id>:event:<seq>``, booked on the day the event
happened at the table, with the event's lines as its memo. Relies on ``ledger`` and on
``scoring.messages`` for the memo.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

import ledger
from club.models import User
from engine.base import net_by_account
from ledger.models import Account, AccountKind, Source
from scoring.messages import render_lines
from scoring.models import Event, Game, Seat
from scoring.recording.outcomes import EventRefused


def account_key(game: Game, key: str, seats: dict[str, Seat]) -> str:
    """The key of the club's ledger account that the engine's ``key`` stands for in this game
    (``seats`` by seat key). The one mapping, for posting and for ``scoring.audit``."""
    if key in seats:
        seat = seats[key]
        if seat.member_id:
            return ledger.member_account_key(seat.member_id)
        if seat.attendee_id:
            return ledger.guest_account_key(seat.attendee_id)
        return AccountKind.CASH.value
    if key == "pot":
        return ledger.game_pot_key(game.game_key, game.pot_table)
    if key.startswith("bet:"):
        return ledger.game_bet_key(game.game_key, key[4:], game.pot_table)
    raise EventRefused(_("The engine named an unknown account %(key)s.") % {"key": key})


def _accounts_for(game: Game, keys: set[str]) -> dict[str, Account]:
    seats = game.seats_by_key
    accounts: dict[str, Account] = {}
    for key in keys:
        account_key(game, key, seats)  # refuses an account the engine may not name
        if key in seats:
            seat = seats[key]
            if seat.member_id:
                accounts[key] = ledger.member_account(seat.member)
            elif seat.attendee_id:
                accounts[key] = ledger.guest_account(game.club, seat.attendee_id, seat.guest_name)
            else:
                accounts[key] = ledger.system_account(game.club, AccountKind.CASH)
        elif key == "pot":
            accounts[key] = ledger.game_pot(game.club, game.game_key, table=game.pot_table)
        else:
            accounts[key] = ledger.game_bet(game.club, game.game_key, key[4:], table=game.pot_table)
    return accounts


def _post_money(game: Game, event: Event, transfers, by: User | None):
    if not transfers:
        return None
    nets = net_by_account(transfers)
    accounts = _accounts_for(game, set(nets))
    per_account: dict[int, tuple[Account, int]] = {}
    for key, amount in nets.items():
        account = accounts[key]
        previous = per_account.get(account.pk, (account, 0))[1]
        per_account[account.pk] = (account, previous + amount)
    legs = [(account, amount) for account, amount in per_account.values() if amount]
    if not legs:
        return None
    info = game.played
    names = {key: seat.name for key, seat in game.seats_by_key.items()}
    what = render_lines(event.lines, names) or event.type
    memo = f"{_(info.name)} #{game.pk}: {what}"[:200]
    ref = f"{game.ref}:event:{event.seq}"
    # Booked on the day the event happened at the table (an evening recorded afterwards, such
    # as the demo's, keeps its dates on the statements).
    booked_on = timezone.localdate(event.created_at)
    return ledger.post(game.club, legs, memo, Source.GAME, by, date=booked_on, key=ref, ref=ref)
