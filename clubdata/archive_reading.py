"""Reading a club archive (``clubdata.archive``) and checking it, before anything is written.

``read_archive`` takes a file, bytes or a stream and returns it ``Loaded``: the manifest, every
table's rows decoded and checked, the logins, and the archive's SHA-256. Anything wrong raises
``ArchiveError`` with a sentence a person can act on:

- the zip holds the expected files and nothing else (no path tricks), within
  ``MAX_TOTAL_BYTES`` uncompressed and ``MAX_RATIO`` per member (zip bombs), judged by the
  sizes the zip states before a byte is unpacked, and each file is the size it states;
- each file's SHA-256 is the manifest's, the format and version are known, and the schema is
  one this instance knows (an archive from a newer Protokoll is refused: upgrade first);
- every row is checked field by field against its model (types, lengths, choices, ranges; no
  NUL characters and no infinite numbers, which PostgreSQL refuses) and comes back by
  attribute name, in id order;
- the audit chain's links are followed from the first record to the head the manifest names.
  Its seals need a key: whether this instance's reproduces them is ``clubdata.archive_chain``'s.

Nothing here writes; the import (``clubdata.archive_import``) does. Relies on the format
(``clubdata.archive``: its files, ``TABLES`` and ``LOGIN_FIELDS``), the models' fields and
the migrations this instance knows.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import zipfile
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.db import connection, models
from django.db.migrations.loader import MigrationLoader

import ledger
from club.models import User
from clubdata import archive
from clubdata.archive import ArchiveError, Spec

# Zip bombs: the most an archive may unpack to, and the most one member may grow by.
MAX_TOTAL_BYTES = 500 * 1024 * 1024
MAX_RATIO = 300
RATIO_FROM_BYTES = 1024 * 1024  # small files may compress better than that; they are small
_DIGEST = re.compile(r"[0-9a-f]{64}")
_INT_RANGES = {
    "SmallIntegerField": (-(2**15), 2**15 - 1),
    "PositiveSmallIntegerField": (0, 2**15 - 1),
    "IntegerField": (-(2**31), 2**31 - 1),
    "PositiveIntegerField": (0, 2**31 - 1),
    "BigIntegerField": (-(2**63), 2**63 - 1),
    "PositiveBigIntegerField": (0, 2**63 - 1),
    "AutoField": (1, 2**31 - 1),
    "BigAutoField": (1, 2**63 - 1),
}
_ID_RANGE = (1, 2**63 - 1)


@dataclass
class Loaded:
    """An archive read and checked, not yet written."""

    manifest: dict
    rows: dict[str, list[dict]]  # by table label, decoded values by attname, in id order
    logins: list[dict]
    sha256: str


def read_archive(source: str | Path | bytes | IO[bytes]) -> Loaded:
    """Open and check an archive; ``ArchiveError`` says what is wrong with it."""
    if isinstance(source, str | Path):
        try:
            data = Path(source).read_bytes()
        except OSError as error:
            raise ArchiveError(f"Cannot read {source}: {error.strerror or error}.") from None
    elif isinstance(source, bytes):
        data = source
    else:
        data = source.read()
    digest = hashlib.sha256(data).hexdigest()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zipped:
            contents = _unpack(zipped)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError) as error:
        raise ArchiveError(
            f"This is not a club archive: not a readable zip file ({error})."
        ) from None
    manifest = _manifest(_json(contents, archive.MANIFEST))
    expected = set(manifest["files"])
    present = set(contents) - {archive.MANIFEST}
    if missing := sorted(expected - present):
        raise ArchiveError(f"The archive is incomplete: {', '.join(missing)} is missing.")
    if extra := sorted(present - expected):
        raise ArchiveError(
            f"The archive holds files the manifest does not name: {', '.join(extra)}."
        )
    for name in sorted(expected):
        if hashlib.sha256(contents[name]).hexdigest() != manifest["files"][name]:
            raise ArchiveError(
                f"{name} does not match the SHA-256 the manifest gives for it: the archive was "
                "changed after it was made (or damaged)."
            )
    rows = {}
    for spec in archive.TABLES:
        rows[spec.label] = _decode_table(spec, _json(contents, spec.file))
    logins = _decode_logins(_json(contents, archive.LOGINS))
    counts = {**{label: len(r) for label, r in rows.items()}, "logins": len(logins)}
    if manifest["counts"] != counts:
        raise ArchiveError(
            "The manifest's row counts do not match the data files: the archive is inconsistent."
        )
    if len(rows["club.club"]) != 1:
        raise ArchiveError("An archive holds exactly one club.")
    _check_chain(rows["ledger.auditrecord"], manifest["audit_head"])
    return Loaded(manifest, rows, logins, digest)


def _unpack(zipped: zipfile.ZipFile) -> dict[str, bytes]:
    expected = {archive.MANIFEST, archive.LOGINS, *(spec.file for spec in archive.TABLES)}
    infos = zipped.infolist()
    if len(infos) > 4 * len(expected):
        raise ArchiveError("The archive holds far more files than a club archive has.")
    total = 0
    names: set[str] = set()
    for info in infos:
        name = info.filename
        if name.startswith(("/", "\\")) or ".." in name.split("/") or "\\" in name or ":" in name:
            raise ArchiveError(f"The archive holds a file with an unsafe name ({name!r}).")
        if name in names:
            raise ArchiveError(f"The archive holds {name} twice.")
        names.add(name)
        total += info.file_size
        if total > MAX_TOTAL_BYTES:
            raise ArchiveError(
                f"The archive unpacks to more than {MAX_TOTAL_BYTES // 2**20} MB: refused."
            )
        if info.file_size > RATIO_FROM_BYTES and info.file_size > MAX_RATIO * max(
            info.compress_size, 1
        ):
            raise ArchiveError(
                f"{name} unpacks to more than {MAX_RATIO} times its packed size: refused as a "
                "zip bomb."
            )
    contents = {}
    for info in infos:
        if info.filename not in expected:
            if info.filename.endswith("/"):
                continue  # a folder entry
            raise ArchiveError(
                f"The archive holds a file a club archive does not have: {info.filename}."
            )
        with zipped.open(info) as member:
            data = member.read(info.file_size + 1)
        if len(data) != info.file_size:
            raise ArchiveError(f"{info.filename} is not the size the zip says: refused.")
        contents[info.filename] = data
    if archive.MANIFEST not in contents:
        raise ArchiveError("This is not a club archive: it has no manifest.json.")
    return contents


def _json(contents: dict[str, bytes], name: str) -> Any:
    try:
        return json.loads(contents[name].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ArchiveError(f"{name} is not valid JSON ({error}).") from None


def _manifest(manifest: Any) -> dict:
    if not isinstance(manifest, dict) or manifest.get("format") != archive.FORMAT:
        raise ArchiveError("This is not a club archive: its manifest names another format.")
    version = manifest.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ArchiveError(f"The archive's format version ({version!r}) is unknown.")
    if version > archive.VERSION:
        raise ArchiveError(
            f"The archive is in format version {version}, made by a newer Protokoll; this "
            f"instance reads versions up to {archive.VERSION}. Upgrade this instance first."
        )
    _check_schema(manifest.get("schema"))
    files, counts, head, club = (manifest.get(k) for k in ("files", "counts", "audit_head", "club"))
    if not isinstance(files, dict) or not all(
        isinstance(v, str) and _DIGEST.fullmatch(v) for v in files.values()
    ):
        raise ArchiveError("The manifest's list of files is malformed.")
    expected = {archive.LOGINS, *(spec.file for spec in archive.TABLES)}
    if set(files) != expected:
        missing, extra = sorted(expected - set(files)), sorted(set(files) - expected)
        raise ArchiveError(
            "The manifest does not list the files of a club archive "
            f"(missing: {', '.join(missing) or 'none'}; unknown: {', '.join(extra) or 'none'})."
        )
    if not isinstance(counts, dict):
        raise ArchiveError("The manifest's row counts are malformed.")
    if (
        not isinstance(head, dict)
        or not is_int(head.get("seq"))
        or not isinstance(head.get("digest"), str)
    ):
        raise ArchiveError("The manifest's audit head is malformed.")
    if not isinstance(club, dict) or not isinstance(club.get("slug"), str):
        raise ArchiveError("The manifest does not name the club.")
    return manifest


def _check_schema(schema: Any) -> None:
    if not isinstance(schema, dict):
        raise ArchiveError("The manifest does not state the schema it was made with.")
    known = MigrationLoader(connection, ignore_no_migrations=True).graph.nodes
    for app, names in schema.items():
        if app not in archive.SCHEMA_APPS:
            raise ArchiveError(
                f"The archive holds data of an app this instance does not have ({app!r}): it "
                "was made by a newer Protokoll. Upgrade this instance first."
            )
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ArchiveError("The manifest's schema is malformed.")
        ahead = [n for n in names if (app, n) not in known]
        if ahead:
            raise ArchiveError(
                f"The archive's schema is ahead of this instance ({app}: {', '.join(ahead)} is "
                "unknown here). Upgrade this instance first."
            )


def is_int(value: Any) -> bool:
    """A whole number, and not a boolean (``True`` is an ``int`` to Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _no_nul(value: Any, where: str) -> None:
    """PostgreSQL refuses NUL characters in text and JSON: refuse them here, in words."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ArchiveError(f"{where}: a text holds a NUL character.")
    elif isinstance(value, dict):
        for k, v in value.items():
            _no_nul(k, where)
            _no_nul(v, where)
    elif isinstance(value, list):
        for v in value:
            _no_nul(v, where)
    elif isinstance(value, float) and not math.isfinite(value):
        raise ArchiveError(f"{where}: a number is not finite.")


def _decode_value(f: models.Field, value: Any, where: str) -> Any:
    if value is None:
        if f.null or (f.primary_key is False and isinstance(f, models.JSONField)):
            return None
        raise ArchiveError(f"{where}: {f.attname} may not be empty.")
    kind = f.get_internal_type()
    if f.is_relation or f.primary_key or kind in _INT_RANGES:
        if not is_int(value):
            raise ArchiveError(f"{where}: {f.attname} must be a whole number, not {value!r}.")
        low, high = _ID_RANGE if f.is_relation else _INT_RANGES.get(kind, _ID_RANGE)
        if not low <= value <= high:
            raise ArchiveError(f"{where}: {f.attname} is out of range ({value}).")
        return value
    if isinstance(f, models.BooleanField):
        if not isinstance(value, bool):
            raise ArchiveError(f"{where}: {f.attname} must be true or false.")
        return value
    if isinstance(f, models.FloatField):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ArchiveError(f"{where}: {f.attname} must be a number.")
        _no_nul(float(value), where)
        return float(value)
    if isinstance(f, models.DateTimeField):
        try:
            moment = datetime.fromisoformat(value)
        except (TypeError, ValueError):
            moment = None
        if moment is None or moment.tzinfo is None:
            raise ArchiveError(f"{where}: {f.attname} must be a time with its zone, not {value!r}.")
        return moment
    if isinstance(f, models.DateField):
        try:
            return date.fromisoformat(value)
        except (TypeError, ValueError):
            raise ArchiveError(f"{where}: {f.attname} must be a date, not {value!r}.") from None
    if isinstance(f, models.TimeField):  # a schedule's start (week.Schedule)
        try:
            return time.fromisoformat(value)
        except (TypeError, ValueError):
            message = f"{where}: {f.attname} must be a time of day, not {value!r}."
            raise ArchiveError(message) from None
    if isinstance(f, models.JSONField):
        _no_nul(value, where)
        return value
    if isinstance(f, models.CharField | models.TextField):
        if not isinstance(value, str):
            raise ArchiveError(f"{where}: {f.attname} must be text.")
        if f.max_length is not None and len(value) > f.max_length:
            raise ArchiveError(f"{where}: {f.attname} is longer than {f.max_length} characters.")
        _no_nul(value, where)
        if f.choices and value not in {str(choice) for choice, _label in f.flatchoices}:
            raise ArchiveError(f"{where}: {f.attname} {value!r} is not one of its choices.")
        return value
    raise ArchiveError(f"{where}: {f.attname}: a kind of field this version cannot read ({kind}).")


def _decode_table(spec: Spec, rows: Any) -> list[dict]:
    if not isinstance(rows, list):
        raise ArchiveError(f"{spec.file} must hold a list of rows.")
    fields = {f.attname: f for f in spec.fields()}
    decoded, seen = [], set()
    for index, row in enumerate(rows):
        where = f"{spec.file}, row {index + 1}"
        if not isinstance(row, dict):
            raise ArchiveError(f"{where}: a row must be an object.")
        if unknown := sorted(set(row) - set(fields)):
            raise ArchiveError(f"{where}: unknown fields {', '.join(unknown)}.")
        values = {}
        for name, f in fields.items():
            if name in row:
                values[name] = _decode_value(f, row[name], where)
            elif f.primary_key or not (f.has_default() or f.null):
                raise ArchiveError(f"{where}: {name} is missing.")
            else:
                values[name] = f.get_default()
        if values["id"] in seen:
            raise ArchiveError(f"{where}: the id {values['id']} appears twice.")
        seen.add(values["id"])
        decoded.append(values)
    decoded.sort(key=lambda r: r["id"])
    return decoded


def _decode_logins(rows: Any) -> list[dict]:
    if not isinstance(rows, list):
        raise ArchiveError(f"{archive.LOGINS} must hold a list of logins.")
    decoded, ids, names = [], set(), set()
    for index, row in enumerate(rows):
        where = f"{archive.LOGINS}, row {index + 1}"
        if not isinstance(row, dict) or set(row) != set(archive.LOGIN_FIELDS):
            raise ArchiveError(f"{where}: a login has {', '.join(archive.LOGIN_FIELDS)}.")
        if not is_int(row["id"]) or row["id"] < 1 or row["id"] in ids:
            raise ArchiveError(f"{where}: a login's id is a whole number, once.")
        for name in archive.LOGIN_FIELDS[1:]:
            limit = User._meta.get_field(name).max_length
            if not isinstance(row[name], str) or len(row[name]) > limit or "\x00" in row[name]:
                raise ArchiveError(f"{where}: {name} must be text of at most {limit} characters.")
        try:
            User.username_validator(row["username"])
        except ValidationError:
            raise ArchiveError(f"{where}: {row['username']!r} is not a valid username.") from None
        if not row["username"] or row["username"] in names:
            raise ArchiveError(f"{where}: the username {row['username']!r} is empty or twice.")
        ids.add(row["id"])
        names.add(row["username"])
        decoded.append(dict(row))
    return decoded


def _check_chain(records: list[dict], head: dict) -> None:
    """Follow the chain's links, without the source's key: every record points at the one
    before it, numbered 1, 2, 3 …, and the last one is the head the manifest names."""
    prev = ledger.GENESIS
    for expected, record in enumerate(records, start=1):
        if record["seq"] != expected:
            raise ArchiveError(f"The audit chain is broken: record {expected} is missing.")
        if record["prev_digest"] != prev or not _DIGEST.fullmatch(record["digest"]):
            raise ArchiveError(f"The audit chain is broken at record {expected}.")
        prev = record["digest"]
    if (len(records), prev) != (head["seq"], head["digest"]):
        raise ArchiveError("The audit chain does not end at the head the manifest names.")
