"""A club's whole data as one versioned zip, to move it to another instance (issue 24, item 5).

The format is documented in docs/club-archive.md; in short:

- ``manifest.json``: the format's name and version, this instance's schema (the newest migration
  of every app), when and where it was made, the club's slug and name, the audit chain's head at
  the source (``ledger.audit_head``), the number of rows per table and each data file's
  SHA-256;
- ``data/<app>.<model>.json``, one file per table (``TABLES``, in the order an import writes
  them): a JSON list of rows, each the model's concrete fields by attribute name (``club_id``,
  ``member_id`` …) with the source's ids; times as ISO 8601 with microseconds (the audit seals
  are over microseconds), dates as ISO dates;
- ``data/logins.json``: the logins the club's rows name (members' and authors'): id, username,
  first and last name, e-mail. Never a password hash.

What is left out, and why, is ``LEFT_OUT`` (tables) and ``Spec.omit`` (fields); a test checks
that every model related to a club is either archived or left out with a reason, so a table
added later cannot silently stay behind.

The import (``clubdata.archive_import``) gives every row a new primary key and rewrites every
id the rows carry — in foreign keys and in the strings that embed ids (``REF_WORDS``) — then
rebuilds the audit chain under this instance's key.
"""

from __future__ import annotations

import hashlib
import json
import platform
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, models
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

import ledger
from club.models import Club, Member, Membership, Season, User
from competitions.models import Competition, Entrant, TableResult
from competitions.models import Round as CompetitionRound
from competitions.models import Table as CompetitionTable
from competitions.models import TableSeat as CompetitionSeat
from evenings.models import (
    Attendee,
    Drive,
    DriveReport,
    Evening,
    EveningOptions,
    TableSeat,
)
from evenings.models import Table as EveningTable
from honours.models import HandPrize, HonourPaid
from league.models import (
    GameResult,
    HeadToHead,
    LeagueFormat,
    LeagueProgress,
    OwedResult,
    RatingPoint,
    Standing,
)
from ledger.models import (
    Account,
    AuditRecord,
    DuesPlan,
    Entry,
    ExportJob,
    Period,
    PeriodBalance,
    Transaction,
)
from scoring.models import Confirmation, Event, Game, GuestPass, Seat
from week.models import CalendarFeed, Reply, Schedule, ScheduleException

FORMAT = "protokoll-club-archive"
VERSION = 1
MANIFEST = "manifest.json"
LOGINS = "data/logins.json"
LOGIN_FIELDS = ("id", "username", "first_name", "last_name", "email")
# The apps whose schema an archive states (and an import must know).
SCHEMA_APPS = (
    "club",
    "ledger",
    "league",
    "evenings",
    "week",
    "scoring",
    "clubdata",
    "competitions",
    "honours",
)


class ArchiveError(Exception):
    """An archive that cannot be written or loaded, in words a person can act on; nothing was
    changed."""


@dataclass(frozen=True)
class Spec:
    """One archived table: its model, the lookup that finds one club's rows, the fields left
    out (secrets), and which fields hold ids inside strings or JSON (``clubdata.archive_import``
    rewrites them, with ``clubdata.archive_ids``)."""

    model: type[models.Model]
    club_path: str
    omit: tuple[str, ...] = ()
    refs: tuple[str, ...] = field(default=())

    @property
    def label(self) -> str:
        return self.model._meta.label_lower

    @property
    def file(self) -> str:
        return f"data/{self.label}.json"

    def fields(self) -> list[models.Field]:
        return [f for f in self.model._meta.concrete_fields if f.name not in self.omit]


# In the order an import writes them: every table after the tables its foreign keys point to.
TABLES: tuple[Spec, ...] = (
    Spec(Club, "pk", omit=("league_share_token",)),
    Spec(Member, "club", omit=("invite_token_hash", "invite_expires_at")),
    Spec(Membership, "member__club"),
    Spec(Season, "club"),
    Spec(Account, "club", refs=("key",)),
    Spec(Transaction, "club", refs=("key", "ref")),
    Spec(Entry, "transaction__club"),
    Spec(Period, "club"),
    Spec(PeriodBalance, "period__club"),
    Spec(DuesPlan, "club"),
    Spec(EveningOptions, "club"),
    Spec(Evening, "club"),
    Spec(Attendee, "evening__club"),
    Spec(EveningTable, "evening__club"),
    Spec(TableSeat, "table__evening__club"),
    Spec(Drive, "evening__club", refs=("players",)),
    Spec(DriveReport, "drive__evening__club"),
    # The club's week: its schedule and the members' replies to the evenings planned ahead.
    Spec(Schedule, "club"),
    Spec(ScheduleException, "schedule__club"),
    Spec(Reply, "evening__club"),
    # Competitions (issue 29): before the games, whose competition_table points at their
    # tables; the fee and prize keys and the pool's key carry the competition's and the
    # entrants' ids ("competition:3:entrant:8"), a table's result its game's ("game:17").
    Spec(Competition, "club"),
    Spec(Entrant, "competition__club"),
    Spec(CompetitionRound, "competition__club"),
    Spec(CompetitionTable, "round__competition__club"),
    Spec(CompetitionSeat, "table__round__competition__club"),
    Spec(TableResult, "table__round__competition__club", refs=("game_ref",)),
    Spec(Game, "club"),
    Spec(Seat, "game__club"),
    # A guest's leave to record one game: the events it recorded name it. Only the hash of a
    # random secret, as on the source.
    Spec(GuestPass, "game__club"),
    Spec(Event, "game__club"),
    # The table's words on its games (scoring.confirming): part of the game's record.
    Spec(Confirmation, "game__club"),
    Spec(GameResult, "club", refs=("game_ref",)),
    Spec(Standing, "season__club"),
    Spec(RatingPoint, "club", refs=("game_ref",)),
    Spec(HeadToHead, "season__club"),
    Spec(LeagueProgress, "club"),
    # How the club counts its seasons (issue 29): names no member.
    Spec(LeagueFormat, "club"),
    Spec(OwedResult, "club", refs=("game_ref", "payload")),
    # The hand prizes (issue 29): what the club rewards, and each prize paid with its
    # transaction ("game:<id>" and the payee's account key carry ids).
    Spec(HandPrize, "club"),
    Spec(HonourPaid, "club", refs=("game_ref", "payee_key")),
    Spec(AuditRecord, "club", refs=("subject", "data")),
)
BY_LABEL = {spec.label: spec for spec in TABLES}

# Tables related to a club that the archive leaves out on purpose, with the reason.
LEFT_OUT: dict[str, str] = {
    CalendarFeed._meta.label_lower: (
        "a secret calendar link, derived from this instance's secret key: the member makes a "
        "new one on the new instance"
    ),
    "notices.owedmail": (
        "a record of mail sent or owed about evenings already past; what a mail said is never "
        "stored, and a new instance owes nothing"
    ),
    "notices.mailchoice": (
        "each member's choice of mail and its language: made again with its defaults on first "
        "use, and a member on a new instance confirms his choice there"
    ),
    ExportJob._meta.label_lower: (
        "finished documents (season statements) built on request; the new instance builds "
        "them again from the books"
    ),
}

# The words before an id in the strings that embed ids (account keys, transaction keys and
# refs, audit subjects, league game refs): "member:12", "guest:7", "prizes:3",
# "game:17:event:4", "evening:5:fee:9", "evening:5:drive:2:prizes", "transaction:40",
# "period:2", "account:8", "drive:2". The dues key "dues:<club>:<period>:<member>" is the one
# exception (``clubdata.archive_ids.Ids.ref``). Pot and bet keys carry table and bet
# numbers, not ids ("pot:kille:2", "bet:polskt_pass:1:3").
REF_WORDS: dict[str, str] = {
    "competition": "competitions.competition",
    "entrant": "competitions.entrant",
    "member": "club.member",
    "guest": "evenings.attendee",
    "fee": "evenings.attendee",
    "attendee": "evenings.attendee",
    "prizes": "evenings.evening",
    "evening": "evenings.evening",
    "drive": "evenings.drive",
    "game": "scoring.game",
    "transaction": "ledger.transaction",
    "period": "ledger.period",
    "account": "ledger.account",
    "season": "club.season",
}


# --- exporting ---------------------------------------------------------------------------------


def schema_state(alias: str = DEFAULT_DB_ALIAS) -> dict[str, list[str]]:
    """The newest migration(s) of each of our apps applied to the database."""
    loader = MigrationLoader(connections[alias])
    applied = set(loader.applied_migrations)
    state: dict[str, list[str]] = {}
    for app in SCHEMA_APPS:
        names = {name for app_label, name in applied if app_label == app}
        nodes = loader.graph.node_map
        state[app] = sorted(
            name
            for name in names
            if (app, name) in nodes
            and not any(
                child.key[0] == app and child.key[1] in names
                for child in nodes[(app, name)].children
            )
        )
    return state


def instance_name() -> str:
    return getattr(settings, "INSTANCE_NAME", "") or platform.node() or "unknown"


def _value(field: models.Field, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(field, models.DateTimeField):
        return value.isoformat()
    if isinstance(field, models.DateField | models.TimeField):  # a schedule's start: "18:30:00"
        return value.isoformat()
    return value


def rows_of(spec: Spec, club: Club) -> list[dict]:
    fields = spec.fields()
    names = [f.attname for f in fields]
    query = (
        spec.model.objects.filter(**{spec.club_path: club.pk}).order_by("pk").values_list(*names)
    )
    return [
        {f.attname: _value(f, v) for f, v in zip(fields, row, strict=True)}
        for row in query.iterator(chunk_size=2000)
    ]


def _user_ids(spec: Spec, rows: list[dict]) -> set[int]:
    user_fields = [
        f.attname
        for f in spec.fields()
        if f.is_relation and f.related_model is not None and issubclass(f.related_model, User)
    ]
    return {row[name] for row in rows for name in user_fields if row[name] is not None}


def _dump(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_archive(club: Club, out: IO[bytes]) -> dict:
    """Write the club's archive as a zip to ``out``; returns the manifest."""
    files: dict[str, bytes] = {}
    counts: dict[str, int] = {}
    users: set[int] = set()
    for spec in TABLES:
        rows = rows_of(spec, club)
        users |= _user_ids(spec, rows)
        files[spec.file] = _dump(rows)
        counts[spec.label] = len(rows)
    logins = list(User.objects.filter(pk__in=users).order_by("pk").values(*LOGIN_FIELDS).iterator())
    files[LOGINS] = _dump(logins)
    counts["logins"] = len(logins)
    head = ledger.audit_head(club)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "schema": schema_state(),
        "created_at": timezone.now().isoformat(),
        "instance": instance_name(),
        "club": {"slug": club.slug, "name": club.name},
        "audit_head": {"seq": head.seq, "digest": head.digest},
        "counts": counts,
        "files": {name: sha256(data) for name, data in files.items()},
    }
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=2))
        for name, data in files.items():
            archive.writestr(name, data)
    return manifest


def export_club(club: Club, path: str | Path) -> dict:
    """Write the club's archive to ``path`` (through a temporary file beside it)."""
    target = Path(path)
    with tempfile.NamedTemporaryFile(dir=target.parent or ".", delete=False, suffix=".part") as f:
        temporary = Path(f.name)
        try:
            manifest = write_archive(club, f)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    temporary.replace(target)
    return manifest


def archive_name(club: Club) -> str:
    return f"{club.slug}-{timezone.localdate().isoformat()}.zip"


# --- comparing two copies of a club ------------------------------------------------------------


def _member_names(club: Club) -> dict[int, str]:
    return dict(Member.objects.filter(club=club).values_list("pk", "name"))


def _attendee_names(club: Club) -> dict[int, str]:
    rows = Attendee.objects.filter(evening__club=club).values_list(
        "pk", "evening__date", "member__name", "guest_name"
    )
    return {pk: f"{day}:{member or guest}" for pk, day, member, guest in rows}


def _evening_dates(club: Club) -> dict[int, str]:
    return {pk: str(day) for pk, day in Evening.objects.filter(club=club).values_list("pk", "date")}


def portable_key(key: str, names: dict[str, dict[int, str]]) -> str:
    """An account key with its ids replaced by what they name (a member's name, an attendee's
    evening and name), so two instances' keys compare."""
    kind, _sep, rest = key.partition(":")
    table = {"member": "member", "guest": "attendee", "prizes": "evening"}.get(kind)
    if table and rest.isdigit():
        return f"{kind}:{names[table].get(int(rest), rest)}"
    return key


def summary(club: Club) -> dict:
    """What must be the same after a move, in terms that do not depend on ids: every account's
    balance (by portable key), every standing (by season, game and member name), every game's
    seats and events, the counts of rows, and what the books' check says."""
    names = {
        "member": _member_names(club),
        "attendee": _attendee_names(club),
        "evening": _evening_dates(club),
    }
    balances = {
        portable_key(key, names): balance
        for key, balance in Account.objects.filter(club=club).values_list("key", "balance_ore")
    }
    standings: dict[str, list] = {}
    rows = Standing.objects.filter(season__club=club).select_related("season", "member")
    for s in rows.order_by("season__start", "game_key", "rank", "member__name"):
        standings.setdefault(f"{s.season.name}/{s.game_key}", []).append(
            [s.rank, s.member.name, s.played, s.won, s.points, s.net_ore, s.rating, s.form]
        )
    games = []
    for game in Game.objects.filter(club=club).order_by("pk").prefetch_related("seats", "events"):
        games.append(
            {
                "game": game.game_key,
                "status": game.status,
                "started_at": game.started_at.isoformat(),
                "seats": [seat.name for seat in sorted(game.seats.all(), key=lambda s: s.position)],
                "events": [
                    [e.seq, e.type, e.payload, e.summary]
                    for e in sorted(game.events.all(), key=lambda e: e.seq)
                ],
            }
        )
    counts = {
        spec.label: spec.model.objects.filter(**{spec.club_path: club.pk}).count()
        for spec in TABLES
    }
    counts["ledger.auditrecord"] -= AuditRecord.objects.filter(
        club=club, action=AuditRecord.Action.IMPORT
    ).count()
    return {
        "club": {"slug": club.slug, "name": club.name},
        "balances": dict(sorted(balances.items())),
        "standings": standings,
        "games": games,
        "counts": counts,
        "problems": ledger.verify_books(club),
    }
