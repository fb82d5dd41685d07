"""A whist drive at a club evening: the rules are ``engine.whist_drive``'s; this module keeps the
tables' reports.

- ``start_drive(evening, attendees, by)``: the players in a drawn order (round 1's seating: four
  to a table, table 1 first), the rules from the club's options (``rules_for``). The engine
  refuses a count that is not a multiple of four, at least eight.
- ``report(drive, round_no, table, ns, ew, last_deal)``: one table's tricks in one round, checked
  by the engine against everything reported before, then stored (``DriveReport``, unique per
  drive, round and table: a double tap stores one). The state is always the engine's replay of
  the reports (``state``), so nothing else is stored that could disagree.
- ``correct(drive, round_no, table, ns, ew, last_deal)``: a table's round reported wrongly,
  corrected: a new ``DriveReport`` that supersedes the last one for that table and round (the
  rows stay; the replay applies the correction where it was made). The engine keeps the seats
  the players already took and seats the next round again only if no table has reported it
  yet; the page (``evenings.drive_page``) then names who moves.
- When the last table of the last round reports, the prizes are paid and the places go to the
  league (``evenings.drive_results``); a correction after the last round pays the prizes again
  by the corrected places and sends the places again.
- The engine's refusals (``refusal``) become an ``EveningError`` in the reader's language.

Relies on ``engine.whist_drive``, ``evenings.options`` (the prize shares),
``evenings.drive_results`` and ``evenings.opening`` (the refusals).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from random import Random

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from club.models import Club, User
from engine import whist_drive as engine
from engine.errors import EngineError
from evenings.drive_results import pay_prizes, repay_prizes, send_to_league
from evenings.models import Attendee, Drive, DriveReport, Evening
from evenings.opening import EveningError
from evenings.options import options_for


def refusal(error: EngineError) -> EveningError:
    """The engine's refusal in the reader's language, as a sentence."""
    template = getattr(error, "template", "") or str(error)
    try:
        text = _(template).format(**(getattr(error, "params", {}) or {}))
    except (KeyError, IndexError, ValueError):
        text = str(error)
    return EveningError(text[:1].upper() + text[1:], code="drive")


def rules_for(evening: Evening, **chosen: int) -> engine.Rules:
    """The drive's rules: what the host chose at the start (``deals_per_round``, ``rounds``)
    and the club's prize split from its evening options (the engine's default without one)."""
    percents = options_for(evening.club).prize_percent_list()
    return engine.Rules(**chosen, **({"prize_percent": percents} if percents else {}))


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
