"""The member list as CSV: import (a preview first, then all rows or none) and export.

Format: a header row, then one member a row. Columns (Swedish or English headers, any case):
``namn``/``name``, ``e-post``/``email``/``e-mail``, ``telefon``/``swish``/``phone``,
``roller``/``roles``. Roles are separated by ``;``, ``,`` or ``/`` and written in either
language (``admin; kassör``, ``treasurer, scorer``); every member is a member anyway. Other
columns are ignored, and so are ids: a file never names another club's rows.

Reading is hostile-proof: at most ``MAX_BYTES`` and ``MAX_ROWS``; UTF-8 with or without a
BOM, else Excel's cp1252; a NUL byte or undecodable bytes is "not a CSV file"; the delimiter
(``,`` or ``;``) is taken from the header line. Each row is checked on its own (``Row.problems``):
an empty name, a name twice in the file or already a member's (any case), a bad Swish number or
e-mail, an unknown role, too long, control characters, and a name starting with ``=``, ``+``,
``-`` or ``@`` (a spreadsheet would run it as a formula). Other cells are stored literally and
never run. The export (UTF-8 with BOM, ``;``, as Swedish Excel opens it) prefixes any cell
starting with such a character with ``'`` (OWASP, CSV injection); the import takes that
prefix off again, so an export re-imports as the same members.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import ledger
from club import members
from club.models import Club, Member, Role, User
from core import inputs
from ledger.models import AuditRecord

MAX_BYTES = 1_000_000
MAX_ROWS = 2_000
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
SWISH = re.compile(r"[0-9+ ()./-]*")
HEADERS = {
    "name": ("namn", "name", "förnamn efternamn"),
    "email": ("e-post", "epost", "email", "e-mail", "mail"),
    "swish": ("telefon", "swish", "phone", "mobil", "mobile", "swish-nummer", "swishnummer"),
    "roles": ("roller", "roles", "roll", "role"),
}
ROLE_NAMES = {
    "admin": Role.ADMIN,
    "administratör": Role.ADMIN,
    "kassör": Role.TREASURER,
    "kassor": Role.TREASURER,
    "treasurer": Role.TREASURER,
    "scorer": Role.SCORER,
    "protokollförare": Role.SCORER,
    "markör": Role.SCORER,
    "member": Role.MEMBER,
    "medlem": Role.MEMBER,
}
ROLE_SPLIT = re.compile(r"[;,/|]")
EXPORT_HEADER = ["namn", "e-post", "telefon", "roller"]
EXPORT_ROLES = {Role.ADMIN: "admin", Role.TREASURER: "kassör", Role.SCORER: "scorer"}


class CsvError(ValidationError):
    """The file as a whole is refused (too big, not CSV, no name column)."""


@dataclass
class Row:
    line: int
    name: str = ""
    email: str = ""
    swish: str = ""
    roles: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def as_json(self) -> list:
        return [self.line, self.name, self.email, self.swish, self.roles]

    @classmethod
    def from_json(cls, data: list) -> Row:
        line, name, email, swish, roles = data
        return cls(int(line), str(name), str(email), str(swish), [str(r) for r in roles])


def decode(data: bytes) -> str:
    """The file's text: UTF-8 (BOM or not), else cp1252; refuses binary and huge files."""
    if len(data) > MAX_BYTES:
        raise CsvError(
            _("The file is too large: at most %(kb)s kB.") % {"kb": MAX_BYTES // 1000},
            code="too_large",
        )
    if b"\x00" in data:
        raise CsvError(_("This is not a CSV file."), code="binary")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:
        raise CsvError(_("This is not a CSV file."), code="encoding") from None


def _uncell(value: str) -> str:
    """A cell as written, less the ``'`` an export put before a formula character."""
    value = value.strip()
    if value.startswith("'") and value[1:2] in FORMULA_START and value[1:2]:
        return value[1:]
    return value


def read(data: bytes, club: Club) -> list[Row]:
    """The rows of an uploaded file, each with its problems; ``CsvError`` for the whole file."""
    text = decode(data)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise CsvError(_("The file is empty."), code="empty")
    header_line = lines[0]
    delimiter = ";" if header_line.count(";") > header_line.count(",") else ","
    try:
        table = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error:
        raise CsvError(_("This is not a CSV file."), code="malformed") from None
    if len(table) - 1 > MAX_ROWS:
        raise CsvError(
            _("The file has too many rows: at most %(n)s members at a time.") % {"n": MAX_ROWS},
            code="too_many",
        )
    columns = _columns(table[0])
    existing = {n.casefold() for n in Member.objects.for_club(club).values_list("name", flat=True)}
    seen: dict[str, int] = {}
    rows = []
    for number, cells in enumerate(table[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue
        row = _row(number, cells, columns)
        _check(row, existing, seen)
        rows.append(row)
    if not rows:
        raise CsvError(_("The file has no members in it."), code="empty")
    return rows


def _columns(header: list[str]) -> dict[str, int]:
    columns = {}
    for index, title in enumerate(header):
        title = title.strip().lstrip("\ufeff").strip().casefold()
        for column, names in HEADERS.items():
            if title in names and column not in columns:
                columns[column] = index
    columns["width"] = len(header)
    if "name" not in columns:
        raise CsvError(
            _("The first row must name the columns; a column namn (or name) is needed."),
            code="no_name",
        )
    return columns


def _row(number: int, cells: list[str], columns: dict[str, int]) -> Row:
    def cell(column: str) -> str:
        index = columns.get(column)
        return _uncell(cells[index]) if index is not None and index < len(cells) else ""

    row = Row(number, cell("name"), cell("email"), cell("swish"))
    roles = cell("roles")
    if columns.get("roles") == columns["width"] - 1:
        # The last column: "admin; kassör" unquoted in a file separated by ";" spills over.
        roles = ";".join(cells[columns["roles"] :])
    for word in ROLE_SPLIT.split(roles):
        word = word.strip().casefold()
        if not word:
            continue
        role = ROLE_NAMES.get(word)
        if role is None:
            row.problems.append(_("Unknown role: %(role)s.") % {"role": inputs._shown(word)})
        elif role != Role.MEMBER and role not in row.roles:
            row.roles.append(role.value)
    return row


def _check(row: Row, existing: set[str], seen: dict[str, int]) -> None:
    problems = row.problems
    for value, limit in ((row.name, 100), (row.email, 254), (row.swish, 20)):
        try:
            inputs.clean_text(value, max_length=limit)
        except ValidationError as error:
            problems.extend(error.messages)
    if not row.name:
        problems.append(_("The name is empty."))
    elif row.name.startswith(FORMULA_START):
        problems.append(_("A name cannot start with =, +, - or @."))
    key = row.name.casefold()
    if key and key in existing:
        problems.append(_("%(name)s is already a member.") % {"name": row.name})
    elif key in seen:
        problems.append(_("The same name as row %(line)s.") % {"line": seen[key]})
    elif key:
        seen[key] = row.line
    if row.swish and not SWISH.fullmatch(row.swish):
        problems.append(_("A Swish number is written with the digits 0–9 (and + or spaces)."))
    if row.email:
        try:
            validate_email(row.email)
        except ValidationError:
            problems.append(_("Not an e-mail address: %(email)s.") % {"email": row.email[:60]})


IMPORT_SUBJECT = "import:members:"


@transaction.atomic
def import_rows(
    club: Club, rows: Iterable[Row], *, submission: str, by: User | None = None
) -> list[Member] | None:
    """Add every row as a member, or none (``ValidationError``) if any row has a problem now:
    the rows are checked again, under the club's lock, against the members as they are. The
    import is sealed in the club's audit chain (who added whom, subject
    ``import:members:<submission>``); ``None``: this submission was imported already."""
    Club.objects.select_for_update().get(pk=club.pk)
    subject = IMPORT_SUBJECT + submission
    if AuditRecord.objects.filter(club=club, action=AuditRecord.Action.SEAL, subject=subject):
        return None
    rows = list(rows)
    existing = {n.casefold() for n in Member.objects.for_club(club).values_list("name", flat=True)}
    seen: dict[str, int] = {}
    for row in rows:
        row.problems = []
        _check(row, existing, seen)
        if row.problems:
            raise ValidationError(
                _("Row %(line)s: %(problems)s")
                % {"line": row.line, "problems": " ".join(row.problems)},
                code="row",
            )
    added = []
    for row in rows:
        member = members.add_member(club, row.name, roles=row.roles, swish_number=row.swish)
        if row.email:
            member.email = row.email
            member.save(update_fields=["email"])
        added.append(member)
    data = {"members": [[m.pk, m.name] for m in added]}
    ledger.append_audit(
        club, AuditRecord.Action.SEAL, by, timezone.now(), subject=subject, data=data
    )
    return added


def _safe(value: str) -> str:
    """A cell a spreadsheet will not run: a formula character first gets a ``'`` before it."""
    return "'" + value if value.startswith(FORMULA_START) else value


def export(club: Club) -> str:
    """The club's active members as CSV text (the caller adds the BOM)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(EXPORT_HEADER)
    people = Member.objects.for_club(club).active().prefetch_related("memberships")
    for member in people.order_by("name"):
        roles = sorted(
            EXPORT_ROLES[m.role] for m in member.memberships.all() if m.role in EXPORT_ROLES
        )
        writer.writerow(
            [_safe(member.name), _safe(member.email), _safe(member.swish_number), ", ".join(roles)]
        )
    return out.getvalue()
