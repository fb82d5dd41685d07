"""A member's own data, to take away (GDPR art. 15, access, and art. 20, portability).

``member_data(member)`` gathers everything the club keeps about one member, as plain data:

- ``member``: the member record (name, e-mail, Swish number, roles, joined, left, erased);
- ``login``: his login, if he has one (username, e-mail, date joined, last login; never the
  password hash);
- ``games``: every game he sat in: the game, its dates and status, his seat and, for a finished
  game, his result (placement, score, net money) as the league recorded it. The other players
  are other people's data: a game says how many sat at the table, not who;
- ``league``: his results per game and his lines in the season tables (rank, played, won,
  points, net money, rating);
- ``accounts``: every account in the books that is his (his member account, betar he owns),
  each with its balance and every entry: date, memo (in the reader's language, as his statement
  shows it), amount in öre and formatted, running balance;
- ``evenings``: the club evenings he came to, with the fee;
- ``replies``: his answers to the evenings planned ahead (``week``), his +1 guests, whether he
  waits for a seat.

Two forms: ``member_data_json`` (machine-readable: ``"format": "protokoll-member-data"``,
``"version": 1``; amounts integer öre, times ISO 8601 in UTC, dates ``YYYY-MM-DD``; the keys
are English whatever the page's language, the texts — memos, game names — in it) and
``member_data_pdf`` (readable: the same content laid out on A4 in the member's language, one
line per game in the statement as on the statement page, made from the HTML of
``templates/clubdata/mydata_document.html`` by WeasyPrint as ``ledger.exports`` makes its
statements). Both are made in the request: one member's data is a page or two; the season
statements of a whole club are what needs a background job.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext

import ledger
from club.models import Member, Membership, Role
from core.money import format_ore
from engine import registry
from evenings.models import Attendee
from league.models import GameResult, Standing
from ledger import exports, statements
from ledger.models import Account
from scoring.models import Seat
from week.models import Reply

FORMAT = "protokoll-member-data"
VERSION = 1


def _as_json(value):
    """Times in UTC (ISO 8601), dates as ``YYYY-MM-DD``."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def _game_name(key: str) -> str:
    return gettext(registry.display_name(key))


def _member(member: Member) -> dict:
    roles = Membership.objects.filter(member=member).order_by("role")
    return {
        "id": member.pk,
        "name": member.name,
        "email": member.email,
        "swish_number": member.swish_number,
        "roles": [m.role for m in roles],
        "active": member.active,
        "joined_at": member.joined_at,
        "left_at": member.left_at,
        "erased_at": member.erased_at,
    }


def _login(member: Member) -> dict | None:
    user = member.user
    if user is None:
        return None
    return {
        "username": user.get_username(),
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
    }


def _results(member: Member) -> list[GameResult]:
    return list(GameResult.objects.filter(member=member).order_by("finished_at", "game_ref"))


def _games(member: Member, results: list[GameResult]) -> list[dict]:
    by_game = {(r.game_ref, r.seat): r for r in results}
    seats = (
        Seat.objects.filter(member=member)
        .select_related("game")
        .order_by("game__started_at", "game_id")
    )
    counts: dict[int, int] = {}
    for game_id in Seat.objects.filter(game__seats__member=member).values_list(
        "game_id", flat=True
    ):
        counts[game_id] = counts.get(game_id, 0) + 1
    games = []
    for seat in seats:
        game = seat.game
        result = by_game.get((game.ref, seat.position))
        games.append(
            {
                "game": game.pk,
                "game_key": game.game_key,
                "game_name": _game_name(game.game_key),
                "status": game.status,
                "started_at": game.started_at,
                "finished_at": game.finished_at,
                "players": counts.get(game.pk, 0),
                "seat": seat.position,
                "placement": result.placement if result else None,
                "score": result.score if result else None,
                "net_ore": result.net_ore if result else None,
            }
        )
    return games


def _league(member: Member, results: list[GameResult]) -> dict:
    standings = (
        Standing.objects.filter(member=member)
        .select_related("season")
        .order_by("season__start", "game_key")
    )
    return {
        "results": [
            {
                "game": r.game_ref,
                "game_key": r.game_key,
                "game_name": _game_name(r.game_key),
                "finished_at": r.finished_at,
                "players": r.players,
                "placement": r.placement,
                "score": r.score,
                "net_ore": r.net_ore,
            }
            for r in results
        ],
        "standings": [
            {
                "season": s.season.name,
                "season_start": s.season.start,
                "season_end": s.season.end,
                "game_key": s.game_key,
                "game_name": _game_name(s.game_key),
                "rank": s.rank,
                "played": s.played,
                "won": s.won,
                "points": s.points,
                "net_ore": s.net_ore,
                "rating": s.rating,
            }
            for s in standings
        ],
    }


def _accounts(member: Member) -> list[tuple[Account, ledger.Statement]]:
    accounts = Account.objects.filter(member=member).select_related("club").order_by("kind", "key")
    return [(account, ledger.statement(account)) for account in accounts]


def _account(account: Account, stmt: ledger.Statement) -> dict:
    return {
        "key": account.key,
        "kind": account.kind,
        "label": account.label,
        "balance_ore": account.balance_ore,
        "balance": format_ore(account.balance_ore),
        "entries": [
            {
                "date": row.entry.date,
                "transaction": row.entry.transaction_id,
                "memo": row.entry.transaction.memo,
                "source": row.entry.transaction.source,
                "reverses": row.entry.transaction.reverses_id,
                "amount_ore": row.amount_ore,
                "amount": format_ore(row.amount_ore),
                "running_ore": row.running_ore,
            }
            for row in stmt.rows
        ],
    }


def _evenings(member: Member) -> list[dict]:
    attendances = (
        Attendee.objects.filter(member=member)
        .select_related("evening")
        .order_by("evening__date", "evening_id")
    )
    return [
        {
            "evening": a.evening_id,
            "date": a.evening.date,
            "title": a.evening.title,
            "arrived_at": a.arrived_at,
            "fee_ore": a.evening.fee_ore if a.fee_id else 0,
        }
        for a in attendances
    ]


def _replies(member: Member) -> list[dict]:
    """His answers to the evenings planned ahead (the club's week), his +1 guests with them."""
    rows = (
        Reply.objects.filter(member=member)
        .select_related("evening")
        .order_by("evening__date", "evening_id")
    )
    return [
        {
            "evening": r.evening_id,
            "date": r.evening.date,
            "answer": r.answer,
            "guest_name": r.guest_name,
            "waiting": r.waiting,
            "updated_at": r.updated_at,
        }
        for r in rows
    ]


def member_data(member: Member, accounts: list | None = None) -> dict:
    """Everything the club keeps about ``member``, as JSON-ready data (see the module);
    ``accounts``: his accounts with their statements, if already read."""
    results = _results(member)
    if accounts is None:
        accounts = _accounts(member)
    return {
        "format": FORMAT,
        "version": VERSION,
        "made_at": timezone.now(),
        "language": translation.get_language(),
        "club": {"name": member.club.name, "slug": member.club.slug},
        "member": _member(member),
        "login": _login(member),
        "games": _games(member, results),
        "league": _league(member, results),
        "accounts": [_account(account, stmt) for account, stmt in accounts],
        "evenings": _evenings(member),
        "replies": _replies(member),
    }


def member_data_json(member: Member) -> bytes:
    return json.dumps(member_data(member), ensure_ascii=False, indent=2, default=_as_json).encode()


def member_data_html(member: Member) -> str:
    """The printable document the PDF is made of, in the active language."""
    read = _accounts(member)
    data = member_data(member, read)
    accounts = [
        {"account": account, "statement": stmt, "lines": statements.statement_lines(stmt)}
        for account, stmt in read
    ]
    return render_to_string(
        "clubdata/mydata_document.html",
        {
            "club": member.club,
            "person": member,
            "data": data,
            "roles": [Role(role).label for role in data["member"]["roles"]],
            "accounts": accounts,
            "made_at": data["made_at"],
            "language": translation.get_language(),
        },
    )


def member_data_pdf(member: Member) -> bytes:
    return exports.html_to_pdf(member_data_html(member))
