"""A whist drive at a club evening: the rules are ``engine.whist_drive``'s; this module keeps the
tables' reports and turns the engine's answers into pages and money.

- ``start_drive(evening, attendees, by)``: the players in a drawn order (round 1's seating: four
  to a table, table 1 first), the rules from the club's options. The engine refuses a count that
  is not a multiple of four, at least eight.
- ``report(drive, round_no, table, ns, ew, last_deal)``: one table's tricks in one round, checked
  by the engine against everything reported before, then stored (``DriveReport``, unique per
  drive, round and table: a double tap stores one). The state is always the engine's replay of
  the reports, so nothing else is stored that could disagree.
- ``correct(drive, round_no, table, ns, ew, last_deal)``: a table's round reported wrongly,
  corrected: a new ``DriveReport`` that supersedes the last one for that table and round (the
  rows stay; the replay applies the correction where it was made). The engine keeps the seats
  the players already took and seats the next round again only if no table has reported it
  yet; the page then names who moves. A correction after the last round takes the prizes back
  (a reversal) and pays them again by the corrected places, and sends the places to the league
  again.
- ``where_to_sit(drive)``: each player's table and seat in the round being played, and his
  partner: what the board and each phone show between rounds.
- When the last table of the last round reports, the prizes are paid from the evening's prize
  pool (the entry fees) by the club's percentages: one balanced transaction, keyed, so it is
  paid once; a guest's prize comes out of the cash box. The places go to the league
  (``whist_drive``: its own table, points by place, ratings like any game's).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import league
import ledger
from club.models import Club, User
from engine import whist_drive as engine
from engine.errors import EngineError
from evenings.models import Attendee, Drive, DriveReport, Evening
from evenings.services import EveningError, attendee_account, options_for, prize_pool
from ledger.models import Source, Transaction

LEAGUE_KEY = "whist_drive"  # what the league ranks a drive's results as
SEAT_NAMES = {
    "N": gettext_lazy("North"),
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
}


def refusal(error: EngineError) -> EveningError:
    """The engine's refusal in the reader's language, as a sentence."""
    template = getattr(error, "template", "") or str(error)
    try:
        text = _(template).format(**(getattr(error, "params", {}) or {}))
    except (KeyError, IndexError, ValueError):
        text = str(error)
    return EveningError(text[:1].upper() + text[1:], code="drive")


def rules_for(evening: Evening) -> engine.Rules:
    percents = options_for(evening.club).prize_percent_list()
    return engine.Rules(prize_percent=percents) if percents else engine.Rules()


def start_drive(
    evening: Evening,
    attendees: Sequence[Attendee],
    by: User | None,
    *,
    rules: engine.Rules | None = None,
    rng: Random | None = None,
) -> Drive:
    if not evening.is_open:
        raise EveningError(_("This evening is closed."), code="closed")
    if any(a.evening_id != evening.pk for a in attendees):
        raise EveningError(_("Only tonight's attendees can sit at a table."), code="players")
    order = [str(a.pk) for a in attendees]
    (rng or secrets.SystemRandom()).shuffle(order)
    rules = rules or rules_for(evening)
    try:
        engine.new_drive(order, rules)
    except EngineError as error:
        raise refusal(error) from None
    return Drive.objects.create(
        evening=evening,
        players=order,
        rules={
            "deals_per_round": rules.deals_per_round,
            "rounds": rules.rounds,
            "prize_percent": list(rules.prize_percent),
        },
        created_by=by,
    )


def state(drive: Drive) -> engine.Drive:
    """The drive as the engine sees it: its replay of the stored reports."""
    rules = engine.Rules(
        deals_per_round=drive.rules.get("deals_per_round", 4),
        rounds=drive.rules.get("rounds", 6),
        prize_percent=tuple(drive.rules.get("prize_percent", (50, 30, 20))),
    )
    current = engine.new_drive(drive.players, rules)
    for r in drive.reports.order_by("id"):
        apply = engine.correct_round if r.supersedes_id else engine.record_round
        current = apply(current, r.round_no, r.table, r.ns_tricks, r.ew_tricks, r.last_deal or None)
    return current


def report(
    drive: Drive,
    round_no: int,
    table: int,
    ns_tricks: int,
    ew_tricks: int,
    last_deal: str | None,
    by: User | None,
) -> DriveReport:
    """Store one table's round; the report that ends the drive pays the prizes."""
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=drive.evening.club_id).first()
        found = DriveReport.objects.filter(drive=drive, round_no=round_no, table=table).first()
        if found is not None and (found.ns_tricks, found.ew_tricks) == (ns_tricks, ew_tricks):
            return found  # the same report again: a double tap, a resent form
        try:
            after = engine.record_round(
                state(drive), round_no, table, ns_tricks, ew_tricks, last_deal or None
            )
        except EngineError as error:
            raise refusal(error) from None
        try:
            with transaction.atomic():
                stored = DriveReport.objects.create(
                    drive=drive,
                    round_no=round_no,
                    table=table,
                    ns_tricks=ns_tricks,
                    ew_tricks=ew_tricks,
                    last_deal=last_deal if ns_tricks == ew_tricks else "",
                    recorded_by=by,
                )
        except IntegrityError:
            return DriveReport.objects.get(drive=drive, round_no=round_no, table=table)
        if after.finished:
            pay_prizes(drive, after, by)
            send_to_league(drive, after)
    return stored


def correct(
    drive: Drive,
    round_no: int,
    table: int,
    ns_tricks: int,
    ew_tricks: int,
    last_deal: str | None,
    by: User | None,
) -> DriveReport:
    """Correct one table's round: a new report superseding the one it corrects. After the last
    round the prizes are paid again by the corrected places."""
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=drive.evening.club_id).first()
        if not drive.evening.is_open:
            raise EveningError(_("This evening is closed."), code="closed")
        latest = (
            DriveReport.objects.filter(
                drive=drive, round_no=round_no, table=table, superseded_by__isnull=True
            )
            .order_by("-id")
            .first()
        )
        last_deal = (last_deal or "") if ns_tricks == ew_tricks else ""
        if latest is not None and (latest.ns_tricks, latest.ew_tricks, latest.last_deal) == (
            ns_tricks,
            ew_tricks,
            last_deal,
        ):
            return latest  # the same result again: nothing to correct (or a double tap)
        before = state(drive)
        try:
            after = engine.correct_round(
                before, round_no, table, ns_tricks, ew_tricks, last_deal or None
            )
        except EngineError as error:
            raise refusal(error) from None
        try:
            with transaction.atomic():
                stored = DriveReport.objects.create(
                    drive=drive,
                    round_no=round_no,
                    table=table,
                    ns_tricks=ns_tricks,
                    ew_tricks=ew_tricks,
                    last_deal=last_deal,
                    recorded_by=by,
                    supersedes=latest,
                )
        except IntegrityError:  # the same correction from a second phone
            return DriveReport.objects.get(supersedes=latest)
        if after.finished:
            repay_prizes(drive, after, stored, by)
            send_to_league(drive, after)
    return stored


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
    tx = ledger.post(
        drive.evening.club,
        legs,
        _("Whist drive %(date)s: prizes") % {"date": drive.evening.date},
        Source.EVENING,
        by,
        date=drive.evening.date,
        key=f"{drive.ref}:prizes:{correction.pk}",
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
    club = drive.evening.club
    legs = [(pool, -sum(won.values()))]
    for player, amount in won.items():
        attendee = attendees[int(player)]
        legs.append((attendee_account(attendee), amount))
    tx = ledger.post(
        club,
        legs,
        _("Whist drive %(date)s: prizes") % {"date": drive.evening.date},
        Source.EVENING,
        by,
        date=drive.evening.date,
        key=f"{drive.ref}:prizes",
        ref=f"{drive.ref}:prizes",
    )
    drive.prizes = tx
    drive.save(update_fields=["prizes"])
    return tx


@dataclass(frozen=True)
class Place:
    name: str
    table: int
    seat_code: str
    partner: str

    @property
    def seat(self) -> str:
        return str(SEAT_NAMES[self.seat_code])


@dataclass(frozen=True)
class Move:
    """A player whose seat changed because a correction seated the round again."""

    name: str
    was_table: int
    was_seat_code: str
    table: int
    seat_code: str

    @property
    def was_seat(self) -> str:
        return str(SEAT_NAMES[self.was_seat_code])

    @property
    def seat(self) -> str:
        return str(SEAT_NAMES[self.seat_code])


@dataclass(frozen=True)
class Reported:
    """One table's result of a round as it stands (corrected or not)."""

    round_no: int
    table: int
    ns_tricks: int
    ew_tricks: int
    last_deal: str
    corrected: bool


@dataclass(frozen=True)
class Ranked:
    placement: int
    name: str
    tricks: int
    prize_ore: int


def page(drive: Drive) -> dict:
    """What the drive's part of the evening page shows."""
    current = state(drive)
    names = {
        str(a.pk): a.name
        for a in Attendee.objects.filter(pk__in=[int(p) for p in drive.players]).select_related(
            "member"
        )
    }
    round_no = current.current_round
    places = []
    if round_no is not None:
        seats = engine.seating(current, round_no)
        partner = engine.partners(current, round_no)
        places = sorted(
            (Place(names[p], table, seat, names[partner[p]]) for p, (table, seat) in seats.items()),
            key=lambda place: (place.table, "NESW".index(place.seat_code)),
        )
    won: dict[str, int] = {}
    if current.finished and drive.prizes_id:
        pool = prize_pool(drive.evening)
        paid = -sum(e.amount_ore for e in drive.prizes.entries.all() if e.account_id == pool.pk)
        won = engine.drive_prizes(current, paid)
    ranking = [
        Ranked(s.placement, names[s.player], s.score, won.get(s.player, 0))
        for s in engine.standings(current)
    ]
    waiting = current.rounds[-1].waiting if round_no is not None else ()
    moves = []
    if round_no is not None:
        moves = [
            Move(names[p], was[0], was[1], now[0], now[1])
            for p, (was, now) in engine.reseated(current, round_no).items()
        ]
    corrected = set(drive.reports.filter(supersedes__isnull=False).values_list("round_no", "table"))
    reported = [
        Reported(
            r.number,
            res.table,
            res.ns_tricks,
            res.ew_tricks,
            res.last_deal or "",
            (r.number, res.table) in corrected,
        )
        for r in current.rounds
        for res in sorted(r.results, key=lambda res: res.table)
    ]
    return {
        "moves": moves,
        "reported": reported,
        "drive": drive,
        "state": current,
        "round_no": round_no,
        "places": places,
        "waiting": waiting,
        "ranking": ranking,
        "deals": current.rules.deals_per_round,
        "finished": current.finished,
    }
