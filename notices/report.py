"""The evening report: what a member who came reads after the evening closed.

Queued when an evening closes (``queue_report``, registered with
``evenings.opening.register_on_close`` in ``NoticesConfig.ready``, so the outbox rows commit
with the closing) to every member who attended and has an address; rendered when sent, in the
member's language (``render_report``).

What it says, all read from the records, nothing stored beside them:
- tonight: each attendee's evening (``evenings.summary``: games, won, result) and each game
  at the tables with its winner (the league's ``GameResult``, placement 1), the whist drive's
  winners;
- the league's movement, when a season holds the evening's date: for each game kind played
  tonight, the positions of tonight's players before tonight and after it. Both are worked out
  the same way, from the season's results up to tonight's last game (later evenings left out),
  with the league's own arithmetic (``league.tables``): points, then points per game, then
  wins. The league page breaks a remaining tie by rating; the report shares the place instead
  ("3" for both), which is true either way;
- the pots of tonight's games as the books stand when the mail is written (right after the
  closing, or when the server is back);
- the member's own line: his result tonight (fees and games; ``evenings.summary``), his balance
  at the club (``ledger``), and what he still has to pay whom, or is owed, in tonight's
  settle-up (``evenings.tonight_plan``: what is open, so a payment recorded at the table is not
  asked again), with the payee's Swish link (``ledger.settle.swish_payment_url``).
Money stays öre here; the templates format it (``core``'s ``money`` filter).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Max
from django.urls import reverse
from django.utils import formats
from django.utils.translation import get_language
from django.utils.translation import gettext as _

import evenings
import ledger
import notices
from club.models import Member, Season
from evenings import drive_page
from evenings.models import Evening, EveningStatus
from league.models import GameResult
from league.names import game_name
from league.rows import by_game, read_rows
from league.tables import add_game, season_results, sort_key
from ledger import pots, settle
from ledger.models import Account
from ledger.settle_rows import within_ceiling
from notices.mail import Mail, absolute, memo, render_mail


@dataclass(frozen=True)
class Night:
    key: str  # the account: ``member:<id>`` or ``guest:<id>``
    name: str
    games: int
    won: int
    net_ore: int


@dataclass(frozen=True)
class GameLine:
    table: int
    game: str
    winners: str


@dataclass(frozen=True)
class Place:
    member_id: int
    name: str
    before: int | None
    after: int
    points: int


@dataclass(frozen=True)
class Table:
    game: str
    places: list[Place]


@dataclass(frozen=True)
class Pot:
    label: str
    amount_ore: int


@dataclass(frozen=True)
class Payment:
    """One payment of tonight's settle-up that concerns the reader."""

    other: str
    amount_ore: int
    i_pay: bool
    swish_url: str


def queue_report(evening: Evening) -> int:
    """Owe the report to every member who came (inside the closing transaction)."""
    members = evening.attendees.filter(member__isnull=False).values_list("member_id", flat=True)
    return notices.queue("report", evening.pk, list(members))


def render_report(member: Member, evening_id: int) -> Mail | None:
    evening = (
        Evening.objects.select_related("club")
        .filter(pk=evening_id, club_id=member.club_id, status=EveningStatus.CLOSED)
        .first()
    )
    if evening is None:
        return None
    context = report_context(evening, member)
    if context["me"] is None:
        return None
    day = formats.date_format(evening.date, "j F Y")
    subject = _("%(club)s: the evening of %(date)s") % {"club": evening.club.name, "date": day}
    return render_mail("report", member, subject, context)


def report_context(evening: Evening, member: Member) -> dict:
    """The report's context for ``member``: what every reader shares is read once a batch."""
    shared = memo(("report", evening.pk, get_language()), lambda: evening_parts(evening))
    mine = ledger.member_account_key(member.pk)
    me = next((n for n in shared["nights"] if n.key == mine), None)
    balance = (
        Account.objects.filter(club=evening.club, key=mine)
        .values_list("balance_ore", flat=True)
        .first()
    )
    return {
        **shared,
        "evening": evening,
        "date": evening.date,
        "mine": mine,
        "me": me,
        "result_abs_ore": abs(me.net_ore) if me else 0,
        "balance_ore": balance or 0,
        "payments": my_payments(evening, shared, mine),
    }


def evening_parts(evening: Evening) -> dict:
    """What the report says the same to everyone who came (in the active language)."""
    game_ids = evenings.game_ids(evening)
    summary = evenings.summary(evening, game_ids)
    return {
        "nights": [
            Night(n.attendee.account_key, n.attendee.name, n.games, n.won, n.net_ore)
            for n in summary
        ],
        "games": games_played(evening, game_ids),
        "drive_winners": drive_winners(evening),
        "league": league_moves(evening, game_ids),
        "pots": pots_after(evening),
        "plan": evenings.tonight_plan(evening),
        "names": {n.attendee.account_key: n.attendee.name for n in summary}
        | {"cash": _("the club")},
        "numbers": {"cash": evening.club.swish_number}
        | {
            n.attendee.account_key: n.attendee.member.swish_number
            for n in summary
            if n.attendee.member_id
        },
        "summary_url": absolute(reverse("evenings:summary", args=[evening.club.slug, evening.pk])),
    }


def games_played(evening: Evening, game_ids: list[int]) -> list[GameLine]:
    """Each finished game at tonight's tables, with its winner(s), table by table."""
    tables = evening.tables.filter(games__id__in=game_ids).values_list(
        "number", "game_key", "games__id"
    )
    winners: dict[str, list[str]] = defaultdict(list)
    firsts = (
        GameResult.objects.filter(game_ref__in=[f"game:{pk}" for pk in game_ids], placement=1)
        .select_related("member")
        .order_by("seat")
    )
    for result in firsts:
        winners[result.game_ref].append(result.member.name if result.member else result.guest_name)
    return [
        GameLine(number, game_name(key), ", ".join(winners[f"game:{pk}"]))
        for number, key, pk in sorted(tables)
        if winners.get(f"game:{pk}")
    ]


def drive_winners(evening: Evening) -> str:
    return ", ".join(drive_page.winners(evening))


def _ranks(club, games) -> dict[int, tuple[int, int]]:
    """Member → (place, points) after ``games``: the league's points and order, a full tie
    sharing the place."""
    lines: dict = {}
    h2h: dict = defaultdict(lambda: [0, 0, 0])
    for rows in games:
        add_game(club, lines, h2h, rows)
    keys = {m: sort_key(line, None) for m, line in lines.items()}
    return {
        m: (1 + sum(1 for other in keys.values() if other < key), lines[m].points)
        for m, key in keys.items()
    }


def league_moves(evening: Evening, game_ids: list[int]) -> list[Table]:
    season = Season.objects.filter(
        club=evening.club, start__lte=evening.date, end__gte=evening.date
    ).first()
    if season is None or not game_ids:
        return []
    refs = {f"game:{pk}" for pk in game_ids}
    tonight = GameResult.objects.filter(club=evening.club, game_ref__in=refs)
    last = tonight.aggregate(last=Max("finished_at"))["last"]
    if last is None:
        return []
    players = set(tonight.exclude(member=None).values_list("member_id", flat=True))
    keys = sorted(set(tonight.values_list("game_key", flat=True)))
    names = dict(Member.objects.filter(pk__in=players).values_list("pk", "name"))
    tables = []
    for key in keys:
        games = by_game(read_rows(season_results(season, [key]).filter(finished_at__lte=last)))
        after = _ranks(evening.club, games)
        before = _ranks(evening.club, [g for g in games if g[0].game_ref not in refs])
        places = sorted(
            (
                Place(m, names[m], before.get(m, (None,))[0], after[m][0], after[m][1])
                for m in after
                if m in players
            ),
            key=lambda p: (p.after, p.name),
        )
        if places:
            tables.append(Table(game_name(key), places))
    return tables


def pots_after(evening: Evening) -> list[Pot]:
    """The pots of tonight's games (the club's, then each table's), as the books stand."""
    found = []
    for key in sorted(set(evening.tables.values_list("game_key", flat=True))):
        club_pot = Account.objects.filter(club=evening.club, key=pots.game_pot_key(key)).first()
        tables = [pot for _n, pot in sorted(pots.table_pots(evening.club, key).items())]
        found += [Pot(p.label, p.balance_ore) for p in [club_pot, *tables] if p and p.balance_ore]
    return found


def my_payments(evening: Evening, shared: dict, mine: str) -> list[Payment]:
    """The reader's payments in what is still open of tonight's settle-up."""
    plan = [p for p in shared["plan"] if mine in (p.payer, p.payee)]
    if not plan:
        return []
    names, numbers = shared["names"], shared["numbers"]
    message = _("%(club)s: evening %(date)s") % {"club": evening.club.name, "date": evening.date}
    rows = []
    for payment in within_ceiling(plan, evening.club):
        i_pay = payment.payer == mine
        other = payment.payee if i_pay else payment.payer
        url = ""
        if i_pay and numbers.get(other):
            try:
                url = settle.swish_payment_url(numbers[other], payment.amount_ore, message)
            except settle.SettlementError:
                url = ""
        rows.append(Payment(names.get(other, other), payment.amount_ore, i_pay, url))
    return sorted(rows, key=lambda r: (not r.i_pay, r.other))
