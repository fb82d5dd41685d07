"""Paying the club's hand prizes, once, in the game's own transaction.

Design
- ``reconcile(club, game, honours, players)``: the honours the game's state holds (the engine's
  ``State.honours``, rebuilt by replay) against the game's unreversed ``HonourPaid`` rows. A row
  whose hand is no longer in the state (an undo) is taken back: its payment reversed
  (``ledger.reverse(..., game_recording=True)``: the books let only the game take a game's money
  back) and the row marked. A hand with no row is paid if the club has an active prize for it
  set up before the game started (a prize does not reach back into a game already under way):
  one balanced transaction from the prize's pot to the player's account, keyed
  ``honour:<game_ref>:<deal>:<seat>:<kind>:<n>`` (n: how often this hand was paid before, so a
  hand done again after an undo pays again, once). The row's partial unique constraint
  (one unreversed row per game, deal, seat and kind) and the ledger key make a double tap or a
  race pay once; the caller holds the game's row lock, so one game's events take turns anyway.
- A pot that holds less than the prize pays what it holds, and the row says so; an empty pot
  pays nothing (a row of 0, no transaction). A pot never goes negative: its balance is read
  under the club's row lock, which every posting takes (``ledger.post``).
- Cost: a game whose state holds no honours costs one query (are there paid rows to take
  back?); an engine without honours costs none (the caller skips it). Writes happen only when
  a prized hand appears or goes.
- Whose account: the caller (scoring, which owns seats) says, per seat key, who sits there
  (``Player``): a member's account, a guest's evening account, or the cash box for a guest at
  no evening, as the game's own money goes. So a guest's prize is paid like a guest's winnings.
- Money in a pot: ``fund_pot`` (a treasurer, from the treasury or the cash box), posted through
  the ledger with a one-time key.

Relies on ``ledger`` (posting, reversing, accounts) and ``engine.honours`` (the kinds).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

import ledger
from club.models import Club, Member, User
from engine import honours as engine_honours
from engine.honours import Honour
from honours.models import HandPrize, HonourPaid, kind_name
from ledger.models import Account, AccountKind, Source, Transaction

POT_PREFIX = "hands-"
REF_PREFIX = "honour:"
FUND_REF_PREFIX = "hands-fund:"


@dataclass(frozen=True)
class Player:
    """Who sits at a seat, as the caller (scoring) knows it: the seat's position, the member
    (None: a guest and his name), the key of the account the game's money goes to, and how to
    open that account (only when a prize is paid)."""

    seat: int
    member: Member | None
    guest_name: str
    account_key: str
    account: Callable[[], Account]


def pot_key(name: str) -> str:
    """A hand-prize pot's account key from the name the club gives it."""
    return POT_PREFIX + (slugify(name)[:60] or "pot")


def hand_pot(club: Club, key: str, name: str | None = None) -> Account:
    return ledger.pot_account(club, key, (name or key)[:100])


def hand_pots(club: Club) -> list[Account]:
    return list(Account.objects.filter(club=club, kind=AccountKind.POT, key__startswith=POT_PREFIX))


def honour_key(game_ref: str, deal: int, seat: int, kind: str, n: int) -> str:
    return f"{REF_PREFIX}{game_ref}:{deal}:{seat}:{kind}:{n}"


def reconcile(
    club: Club,
    game_ref: str,
    game_key: str,
    started_at: datetime,
    honours: Sequence[Honour],
    seat_of: Callable[[str], int],
    player_of: Callable[[str], Player],
    by: User | None = None,
) -> None:
    """Pay the new honours of a game and take back those whose hand is gone (see the module's
    docstring). ``seat_of(player)`` is the seat's position for the engine's player key,
    ``player_of(player)`` who sits there (read only when a prize is paid). Runs inside the
    caller's transaction, which holds the game's row lock."""
    paid = list(HonourPaid.objects.filter(game_ref=game_ref, reversed_at__isnull=True))
    if not honours and not paid:
        return
    held = {(h.deal, seat_of(h.player), h.kind): h for h in honours}
    for row in paid:
        if (row.deal, row.seat, row.kind) not in held:
            take_back(row, by)
    have = {(row.deal, row.seat, row.kind) for row in paid}
    new = [honour for key, honour in held.items() if key not in have]
    if not new:
        return
    prizes = {
        prize.kind: prize
        for prize in HandPrize.objects.filter(
            club=club, game_key=game_key, active=True, created_at__lte=started_at
        )
    }
    for honour in new:
        prize = prizes.get(honour.kind)
        if prize is not None:
            _pay(club, game_ref, game_key, honour, player_of(honour.player), prize, by)


def _pay(
    club: Club,
    game_ref: str,
    game_key: str,
    honour: Honour,
    player: Player,
    prize: HandPrize,
    by: User | None,
) -> HonourPaid:
    seat, deal, kind = player.seat, honour.deal, honour.kind
    # The pot's balance under the club's lock, which every posting takes: no other game pays
    # from it between the reading and the posting, so it never goes below zero.
    Club.objects.select_for_update().get(pk=club.pk)
    earlier = HonourPaid.objects.filter(game_ref=game_ref, deal=deal, seat=seat, kind=kind)
    n = earlier.count()
    pot = hand_pot(club, prize.pot_key)
    pot.refresh_from_db(fields=["balance_ore"])
    held = max(pot.balance_ore, 0)
    amount = held if prize.whole_pot else min(prize.amount_ore, held)
    tx = None
    if amount > 0:
        game_id = game_ref.partition(":")[2]
        memo = _("Hand prize: %(hand)s, game #%(game)s, deal %(deal)s") % {
            "hand": kind_name(kind),
            "game": game_id,
            "deal": deal,
        }
        tx = ledger.post(
            club,
            ledger.legs_for_transfer(pot, player.account(), amount),
            memo,
            Source.GAME,
            by,
            key=honour_key(game_ref, deal, seat, kind, n),
            ref=f"{REF_PREFIX}{game_ref}:{deal}:{seat}",
        )
    try:
        with transaction.atomic():
            return HonourPaid.objects.create(
                club=club,
                game_ref=game_ref,
                game_key=game_key,
                deal=deal,
                seat=seat,
                member=player.member,
                guest_name="" if player.member else player.guest_name[:100],
                kind=kind,
                detail=honour.detail[:100],
                amount_ore=amount,
                pot_key=prize.pot_key,
                payee_key=player.account_key,
                transaction=tx,
            )
    except IntegrityError:
        # Paid already (the same transaction came back by its key): the row that holds it.
        return HonourPaid.objects.get(
            game_ref=game_ref, deal=deal, seat=seat, kind=kind, reversed_at__isnull=True
        )


def take_back(row: HonourPaid, by: User | None, reason: str | None = None) -> None:
    """The hand is gone (undone, or the game voided): reverse its prize and mark the row."""
    reversal = None
    if row.transaction_id is not None:
        reason = reason or _("Hand prize taken back: %(hand)s, deal %(deal)s undone") % {
            "hand": kind_name(row.kind),
            "deal": row.deal,
        }
        reversal = ledger.reverse(row.transaction, reason, by, game_recording=True)
    row.reversal = reversal
    row.reversed_at = timezone.now()
    row.save(update_fields=["reversal", "reversed_at"])


def game_voided(game_ref: str, by: User | None = None) -> None:
    """A voided game's prizes go back to their pots."""
    for row in HonourPaid.objects.filter(game_ref=game_ref, reversed_at__isnull=True):
        take_back(row, by, _("Hand prize taken back: the game was voided"))


# --- the club's settings -----------------------------------------------------------------


def choosable_kinds(game_keys: Sequence[str] | None = None) -> list[engine_honours.HonourKind]:
    return [
        kind
        for kind in engine_honours.kinds().values()
        if game_keys is None or kind.game_key in game_keys
    ]


@transaction.atomic
def save_prize(
    club: Club,
    kind: str,
    *,
    amount_ore: int,
    whole_pot: bool,
    pot_name: str,
    active: bool = True,
    ordering: int = 0,
) -> HandPrize | None:
    """Set up (or change) the club's prize for one hand, opening its pot. Without an amount
    (and not the whole pot) there is no prize: an existing one is switched off, as it stands."""
    found = engine_honours.kinds()[kind]
    if not whole_pot and amount_ore <= 0:
        if active:
            raise ValueError("an active prize needs an amount or the whole pot")
        HandPrize.objects.filter(club=club, kind=kind).update(active=False)
        return HandPrize.objects.filter(club=club, kind=kind).first()
    key = pot_key(pot_name)
    hand_pot(club, key, pot_name.strip() or key)
    prize, _created = HandPrize.objects.update_or_create(
        club=club,
        kind=kind,
        defaults={
            "game_key": found.game_key,
            "amount_ore": 0 if whole_pot else amount_ore,
            "whole_pot": whole_pot,
            "pot_key": key,
            "active": active,
            "ordering": ordering,
        },
    )
    return prize


def fund_pot(
    club: Club, pot: Account, source_kind: str, amount_ore: int, by: User | None, key: str
) -> Transaction:
    """Money into a hand-prize pot from the treasury or the cash box, posted once (``key``)."""
    if not pot.key.startswith(POT_PREFIX) or pot.club_id != club.pk:
        raise ledger.LedgerError(_("That is not one of the club's hand-prize pots."), code="pot")
    source = ledger.system_account(club, source_kind)
    return ledger.post(
        club,
        ledger.legs_for_transfer(source, pot, amount_ore),
        _("Into %(pot)s") % {"pot": pot.label},
        Source.MANUAL,
        by,
        key=key,
        ref=f"{FUND_REF_PREFIX}{pot.key}",
    )
