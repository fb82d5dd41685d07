"""A finished whist drive's results: the prizes out of the evening's prize pool, and the
places to the league.

Design
- ``pay_prizes``: when the last table of the last round reports (``evenings.drives.report``),
  the prize pool (the entry fees, ``evenings.attendance.prize_pool``) is paid to the winners by
  the club's percentages (``engine.whist_drive.drive_prizes``): one balanced transaction, keyed
  by the drive, so it is paid once; a guest's prize comes out of the cash box.
- ``repay_prizes``: a correction of a finished drive (``evenings.drives.correct``) leaves
  unchanged amounts paid; otherwise the payment is reversed and paid again from the same pool
  by the corrected places, keyed by the correction.
- ``send_to_league``: the places, members and guests by the tricks they took, as the league's
  ``whist_drive`` (``LEAGUE_KEY``: its own table, points by place, ratings like any game's);
  sent again after a correction, which the league takes as a replacement.

Relies on ``engine.whist_drive``, ``ledger`` (postings, reversals), ``league`` (results in) and
``evenings.attendance`` (whose account, the pool).
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

import league
import ledger
from club.models import User
from engine import whist_drive as engine
from evenings.attendance import attendee_account, prize_pool
from evenings.models import Attendee, Drive, DriveReport
from ledger.models import Source, Transaction

LEAGUE_KEY = "whist_drive"  # what the league ranks a drive's results as


def pay_prizes(drive: Drive, finished: engine.Drive, by: User | None) -> Transaction | None:
    """The pool's money to the winners, once (the ledger key)."""
    if drive.prizes_id:
        return drive.prizes
    pool = prize_pool(drive.evening)
    pool.refresh_from_db()
    if pool.balance_ore <= 0:
        return None
    won = engine.drive_prizes(finished, pool.balance_ore)
    attendees = Attendee.objects.select_related("member", "evening__club").in_bulk(
        [int(p) for p in won]
    )
    legs = [(pool, -sum(won.values()))]
    for player, amount in won.items():
        attendee = attendees[int(player)]
        legs.append((attendee_account(attendee), amount))
    return _post_prizes(drive, legs, f"{drive.ref}:prizes", by)


def repay_prizes(
    drive: Drive, finished: engine.Drive, correction: DriveReport, by: User | None
) -> Transaction | None:
    """The prizes after a correction of a finished drive: unchanged amounts stay paid; others
    are taken back (a reversal of the payment) and paid again from the same pool by the
    corrected places."""
    if not drive.prizes_id:
        return pay_prizes(drive, finished, by)
    paid = drive.prizes
    pool = prize_pool(drive.evening)
    entries = list(paid.entries.all())
    pool_ore = -sum(e.amount_ore for e in entries if e.account_id == pool.pk)
    won = engine.drive_prizes(finished, pool_ore)
    attendees = Attendee.objects.select_related("member", "evening__club").in_bulk(
        [int(p) for p in won]
    )
    legs = [(pool, -pool_ore)]
    legs += [(attendee_account(attendees[int(p)]), amount) for p, amount in won.items()]
    now = {account.pk: amount for account, amount in legs}
    if now == {e.account_id: e.amount_ore for e in entries}:
        return paid
    ledger.reverse(
        paid,
        _("Whist drive %(date)s: prizes taken back, round %(round)s corrected")
        % {"date": drive.evening.date, "round": correction.round_no},
        by,
    )
    return _post_prizes(drive, legs, f"{drive.ref}:prizes:{correction.pk}", by)


def _post_prizes(drive: Drive, legs: list, key: str, by: User | None) -> Transaction:
    """One balanced payment of the prizes (``key``: paid once, or once per correction), kept
    as the drive's payment."""
    tx = ledger.post(
        drive.evening.club,
        legs,
        _("Whist drive %(date)s: prizes") % {"date": drive.evening.date},
        Source.EVENING,
        by,
        date=drive.evening.date,
        key=key,
        ref=f"{drive.ref}:prizes",
    )
    drive.prizes = tx
    drive.save(update_fields=["prizes"])
    return tx


def send_to_league(drive: Drive, finished: engine.Drive) -> None:
    """The drive's places to the league (members and guests, by the tricks they took)."""
    attendees = Attendee.objects.select_related("member").in_bulk(
        [int(p) for p in finished.players]
    )
    results = [
        league.PlayerResult(
            seat=seat,
            member=attendees[int(s.player)].member,
            guest_name=attendees[int(s.player)].guest_name,
            placement=s.placement,
            score=s.score,
        )
        for seat, s in enumerate(engine.standings(finished))
    ]
    league.record_result(
        drive.evening.club, f"drive:{drive.pk}", LEAGUE_KEY, timezone.now(), results
    )
