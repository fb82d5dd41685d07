"""What a whist drive shows between and after rounds: where each player sits and with whom,
who moves after a correction, every table's result as it stands, and the ranking with prizes.

Design
- ``page(drive)`` is read from the engine's replay of the reports (``evenings.drives.state``),
  never from anything stored beside it: the seating of the round being played
  (``engine.whist_drive.seating`` and ``partners``), the players a correction seated again
  (``reseated``), the reports (marked where corrected) and the standings. The prizes shown are
  the engine's split of what the prize transaction took from the pool, so the page and the books
  agree.
- ``Place``, ``Move``, ``Reported`` and ``Ranked`` are the rows the evening page and the results
  card render; seats are named in the reader's language (``SEAT_NAMES``).

Relies on ``engine.whist_drive``, ``evenings.drives`` (the replay) and
``evenings.attendance`` (the prize pool).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from engine import whist_drive as engine
from evenings.attendance import prize_pool
from evenings.drives import state
from evenings.models import Attendee, Drive

SEAT_NAMES = {
    "N": gettext_lazy("North"),
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
}


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


def winners(evening) -> list[str]:
    """The names that won the evening's latest whist drive, once it is finished (none before):
    what the results card and the evening report say."""
    drive = evening.drives.order_by("-pk").first()
    if drive is None:
        return []
    shown = page(drive)
    return [r.name for r in shown["ranking"] if r.placement == 1] if shown["finished"] else []
