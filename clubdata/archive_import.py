"""Loading a club archive (``clubdata.archive``) into this instance: ``manage.py import_club``.

Everything happens in one database transaction, and anything wrong raises ``ArchiveError`` with
a sentence a person can act on, so a refused archive changes nothing:

1. **Reading** (``read_archive``): a zip of the expected files and nothing else (no path
   tricks), within ``MAX_TOTAL_BYTES`` uncompressed and ``MAX_RATIO`` per member (zip bombs),
   each file's SHA-256 as the manifest says, the format and version known, and a schema this
   instance knows (an archive from a newer Protokoll is refused: upgrade first). Every row is
   checked field by field against the model (types, lengths, choices, ranges), and the audit
   chain's links are followed from the first record to the head the manifest names.
2. **Logins**: a username free here gets a new login without a password (its owner uses "forgot
   password" or a new invite); a username taken here is left out — linking it would hand a
   stranger the member — unless ``link_users`` says to link it.
3. **Rows**, table by table (``archive.TABLES``), in the source's id order, each with a new
   primary key; every foreign key is rewritten, and one pointing to a row that is not in the
   archive (another club's id) refuses the archive. Strings that embed ids (account keys,
   transaction keys and refs, the league's game refs, audit subjects, a drive's players, the
   owed results' members) are rewritten at the end (``remap_ref``), when every id is known.
4. **The audit chain** is rebuilt in the source's order under this instance's ``AUDIT_KEY``: its
   first record (``import``) names the source (slug, instance, format version, head, the
   archive's SHA-256), then every source record with the new ids. Records of transactions and
   closings keep what the source recorded (only the ids change), so an amount edited in the
   archive disagrees with its record and ``verify_books`` refuses the import.
5. ``ledger.verify_books`` on the new club: anything red rolls everything back.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, connection, models, transaction
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

import ledger
from club.models import Club, User
from clubdata import archive
from clubdata.archive import ArchiveError, Spec
from ledger import audit
from ledger.models import AuditRecord

# Zip bombs: the most an archive may unpack to, and the most one member may grow by.
MAX_TOTAL_BYTES = 500 * 1024 * 1024
MAX_RATIO = 300
RATIO_FROM_BYTES = 1024 * 1024  # small files may compress better than that; they are small
BATCH = 500
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


@dataclass
class Imported:
    club: Club
    source: dict  # slug, name, instance, version, head
    head: ledger.AuditHead
    created: list[str] = field(default_factory=list)
    linked: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    source_seals_checked: bool = False
    dry_run: bool = False


# --- reading ---------------------------------------------------------------------------------


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
        or not _is_int(head.get("seq"))
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


def _is_int(value: Any) -> bool:
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
        if not _is_int(value):
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
        if not _is_int(row["id"]) or row["id"] < 1 or row["id"] in ids:
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


def source_seals_verify(loaded: Loaded) -> bool:
    """Whether every source record's seal is reproduced by this instance's ``AUDIT_KEY`` (true
    when the archive comes from this instance, or one sharing its key): then nothing in the
    chain was changed since it was sealed."""
    for row in loaded.rows["ledger.auditrecord"]:
        record = AuditRecord(**row)
        if audit._seal(record) != row["digest"]:
            return False
    return True


# --- ids -------------------------------------------------------------------------------------


class Ids:
    """Source id → new id, per table label; users by source id (None: left out)."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[int, int]] = {}
        self.users: dict[int, int | None] = {}

    def new(self, label: str, old: Any, where: str, *, lenient: bool = False) -> Any:
        if label == "club.user":
            if old not in self.users:
                if lenient:
                    return None
                raise ArchiveError(f"{where}: login {old} is not in the archive.")
            return self.users[old]
        table = self.tables.get(label, {})
        if not _is_int(old) or old not in table:
            if lenient:
                return old
            raise ArchiveError(
                f"{where}: it points to {label.split('.')[1]} {old}, which is not in the archive "
                "(an id of another club?)."
            )
        return table[old]

    def ref(self, text: str | None, where: str, *, lenient: bool = False) -> str | None:
        """A string with embedded ids (``archive.REF_WORDS``) with the new ids."""
        if not text:
            return text
        tokens = text.split(":")
        if tokens[0] == "dues" and len(tokens) == 4 and tokens[1].isdigit():
            # dues:<club>:<period>:<member> (ledger.dues.charge_key)
            tokens[1] = str(self.new("club.club", int(tokens[1]), where, lenient=lenient))
            if tokens[3].isdigit():
                tokens[3] = str(self.new("club.member", int(tokens[3]), where, lenient=lenient))
            return ":".join(tokens)
        for i, token in enumerate(tokens[:-1]):
            label = archive.REF_WORDS.get(token)
            if label and tokens[i + 1].isdigit():
                tokens[i + 1] = str(self.new(label, int(tokens[i + 1]), where, lenient=lenient))
        return ":".join(tokens)


# --- writing ---------------------------------------------------------------------------------


def choose_slug(wanted: str | None, source: str) -> str:
    if wanted:
        try:
            validate_slug(wanted)
        except ValidationError:
            raise ArchiveError(f"{wanted!r} is not a valid short name.") from None
        if len(wanted) > 50 or Club.objects.filter(slug=wanted).exists():
            raise ArchiveError(f"The short name {wanted!r} is taken here (or too long).")
        return wanted
    base = source if source and len(source) <= 50 else "club"
    try:
        validate_slug(base)
    except ValidationError:
        base = "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base[: 50 - len(str(n)) - 1]}-{n}"
    return slug


def _logins(loaded: Loaded, ids: Ids, link_users: bool, result: Imported) -> None:
    for row in loaded.logins:
        existing = User.objects.filter(username=row["username"]).first()
        if existing is None:
            user = User(
                username=row["username"],
                first_name=row["first_name"],
                last_name=row["last_name"],
                email=row["email"],
            )
            user.set_unusable_password()
            user.save()
            ids.users[row["id"]] = user.pk
            result.created.append(row["username"])
        elif link_users:
            ids.users[row["id"]] = existing.pk
            result.linked.append(row["username"])
        else:
            ids.users[row["id"]] = None
            result.left_out.append(row["username"])


def _write_table(spec: Spec, rows: list[dict], ids: Ids, club_slug: str, temp: str) -> list:
    fields = [f for f in spec.fields() if not f.primary_key]
    objects = []
    for index, row in enumerate(rows):
        where = f"{spec.file}, row {index + 1}"
        values = {}
        for f in fields:
            value = row[f.attname]
            if f.is_relation and value is not None:
                if spec.label == "ledger.transaction" and f.name == "reverses":
                    value = None  # set once every transaction has its new id
                else:
                    value = ids.new(f.related_model._meta.label_lower, value, where)
            values[f.attname] = value
        if spec.label == "club.club":
            values["slug"] = club_slug
        # Strings with ids are rewritten at the end; until then, placeholders that cannot
        # collide with a unique key (account keys, transaction keys, league game refs).
        if spec.label == "ledger.account":
            values["key"] = f"{temp}:{row['id']}"
        elif spec.label == "ledger.transaction":
            values["key"] = None
        elif spec.label in ("league.gameresult", "league.owedresult"):
            values["game_ref"] = f"{temp}:{row['id']}"
        objects.append(spec.model(**values))
    spec.model.objects.bulk_create(objects, batch_size=BATCH)
    table = ids.tables.setdefault(spec.label, {})
    for row, obj in zip(rows, objects, strict=True):
        if obj.pk is None:  # pragma: no cover - every supported database returns the ids
            raise ArchiveError("The database did not return the new rows' ids.")
        table[row["id"]] = obj.pk
    return objects


def _rewrite_refs(spec: Spec, rows: list[dict], objects: list, ids: Ids) -> None:
    """The strings and JSON that embed ids, now that every id is known."""
    changed = set()
    for index, (row, obj) in enumerate(zip(rows, objects, strict=True)):
        where = f"{spec.file}, row {index + 1}"
        for name in spec.refs:
            value = row[name]
            if name == "players":  # a drive's attendees, as the engine knows them (strings)
                if not isinstance(value, list):
                    raise ArchiveError(f"{where}: players must be a list.")
                value = [_same_kind(p, ids.new("evenings.attendee", _int(p), where)) for p in value]
            elif name == "payload":
                value = _owed_payload(value, ids, where)
            elif name == "data":
                continue  # the audit chain is rebuilt separately
            else:
                value = ids.ref(value, where)
            setattr(obj, name, value)
            changed.add(name)
        if spec.label == "ledger.transaction" and row["reverses_id"] is not None:
            obj.reverses_id = ids.new("ledger.transaction", row["reverses_id"], where)
            changed.add("reverses")
    if changed:
        spec.model.objects.bulk_update(objects, sorted(changed), batch_size=BATCH)


def _int(value: Any) -> int | None:
    if _is_int(value):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _same_kind(old: Any, new: int) -> Any:
    return str(new) if isinstance(old, str) else new


def _owed_payload(payload: Any, ids: Ids, where: str) -> Any:
    if not isinstance(payload, dict) or "results" not in payload:
        return payload
    results = payload["results"]
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise ArchiveError(f"{where}: the owed results are malformed.")
    payload = dict(payload)
    payload["results"] = [
        {**r, "member": ids.new("club.member", r["member"], where)}
        if r.get("member") is not None
        else r
        for r in results
    ]
    return payload


# --- the audit chain -------------------------------------------------------------------------

_GENERIC_IDS = {
    "member": "club.member",
    "members": "club.member",
    "into": "club.member",  # a merge's (clubdata.merge)
    "by_member": "club.member",  # an erasure's (clubdata.erase)
    "results": "league.gameresult",
    "attendees": "evenings.attendee",
    "user": "club.user",
    "by": "club.user",
    "created_by": "club.user",
    "recorded_by": "club.user",
    "game": "scoring.game",
    "money": "ledger.transaction",
    "transaction": "ledger.transaction",
    "account": "ledger.account",
    "attendee": "evenings.attendee",
    "evening": "evenings.evening",
    "season": "club.season",
}


def _generic(value: Any, ids: Ids, where: str, key: str = "") -> Any:
    """Ids in a record's data of a kind this module does not know field by field (settings,
    erasures, merges with their seats): ints under the names in ``_GENERIC_IDS``, and the ids
    in strings (``Ids.ref``: a merged seat's ``posted_to`` account key)."""
    if isinstance(value, dict):
        return {k: _generic(v, ids, where, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_generic(v, ids, where, key) for v in value]
    if key in _GENERIC_IDS and _is_int(value):
        return ids.new(_GENERIC_IDS[key], value, where, lenient=True)
    if isinstance(value, str):
        return ids.ref(value, where, lenient=True)
    return value


def _record_data(row: dict, ids: Ids, where: str) -> Any:
    """A source record's data with the new ids (its shape per action and subject)."""
    data, subject = row["data"], row["subject"]
    if not isinstance(data, dict):
        return data
    try:
        if row["transaction_id"] is not None:
            new = dict(data)
            new["id"] = ids.new("ledger.transaction", data["id"], where)
            if data.get("reverses") is not None:
                new["reverses"] = ids.new("ledger.transaction", data["reverses"], where)
            if data.get("created_by") is not None:
                new["created_by"] = ids.new("club.user", data["created_by"], where)
            new["key"] = ids.ref(data.get("key"), where)
            new["ref"] = ids.ref(data.get("ref"), where)
            new["entries"] = sorted(
                [ids.new("ledger.account", a, where), amount, day]
                for a, amount, day in data["entries"]
            )
            return new
        if row["period_id"] is not None:
            new = dict(data)
            new["id"] = ids.new("ledger.period", data["id"], where)
            if data.get("closed_by") is not None:
                new["closed_by"] = ids.new("club.user", data["closed_by"], where)
            new["balances"] = sorted(
                [ids.new("ledger.account", a, where), opening, closing]
                for a, opening, closing in data["balances"]
            )
            return new
        if row["action"] in (AuditRecord.Action.EVENT, AuditRecord.Action.VOID):
            new = dict(data)
            new["game"] = ids.new("scoring.game", data["game"], where)
            if data.get("money") is not None:
                new["money"] = ids.new("ledger.transaction", data["money"], where)
            if data.get("recorded_by") is not None:
                new["recorded_by"] = ids.new("club.user", data["recorded_by"], where)
            return new
        if row["action"] == AuditRecord.Action.SEAL and subject.startswith("member:"):
            new = dict(data)
            if data.get("user") is not None:
                new["user"] = ids.new("club.user", data["user"], where)
            return new
        if row["action"] == AuditRecord.Action.SEAL and subject.startswith("account:"):
            new = dict(data)
            if data.get("member") is not None:
                new["member"] = ids.new("club.member", data["member"], where)
            new["key"] = ids.ref(data.get("key"), where)
            return new
        if subject in ("club", "evening_options") or row["action"] == AuditRecord.Action.IMPORT:
            return data  # the club's Swish number, the evening options, a source: no ids
    except (KeyError, TypeError, ValueError):
        raise ArchiveError(f"{where}: the record's data is malformed.") from None
    return _generic(data, ids, where)


def _rebuild_chain(club: Club, loaded: Loaded, ids: Ids, source: dict) -> None:
    now = timezone.now()
    records = [
        AuditRecord(
            club=club,
            seq=1,
            action=AuditRecord.Action.IMPORT,
            subject="import",
            data=json.loads(audit._canonical({"source": source})),
            by=None,
            at=now,
            prev_digest=ledger.GENESIS,
        )
    ]
    for index, row in enumerate(loaded.rows["ledger.auditrecord"]):
        where = f"{archive.BY_LABEL['ledger.auditrecord'].file}, row {index + 1}"
        tx, period = row["transaction_id"], row["period_id"]
        records.append(
            AuditRecord(
                club=club,
                seq=row["seq"] + 1,
                action=row["action"],
                subject=ids.ref(row["subject"], where),
                transaction_id=ids.new("ledger.transaction", tx, where) if tx else None,
                period_id=ids.new("ledger.period", period, where) if period else None,
                by_id=ids.new("club.user", row["by_id"], where) if row["by_id"] else None,
                at=row["at"],
                data=json.loads(audit._canonical(_record_data(row, ids, where))),
            )
        )
    prev = ledger.GENESIS
    for record in records:
        record.prev_digest = prev
        record.digest = prev = audit._seal(record)
    AuditRecord.objects.bulk_create(records, batch_size=BATCH)


class _DryRun(Exception):
    pass


def import_club(
    source: str | Path | bytes | IO[bytes],
    *,
    slug: str | None = None,
    link_users: bool = False,
    dry_run: bool = False,
) -> Imported:
    """Load an archive as a new club; ``ArchiveError`` (and nothing changed) if it is refused.
    ``dry_run``: check everything, then roll back."""
    loaded = read_archive(source)
    manifest = loaded.manifest
    origin = {
        "slug": manifest["club"]["slug"],
        "name": manifest["club"].get("name", ""),
        "instance": manifest.get("instance", ""),
        "format_version": manifest["version"],
        "created_at": manifest.get("created_at", ""),
        "head": {"seq": manifest["audit_head"]["seq"], "digest": manifest["audit_head"]["digest"]},
        "archive_sha256": loaded.sha256,
    }
    checked = source_seals_verify(loaded)
    try:
        with transaction.atomic():
            result = _import(loaded, origin, slug, link_users)
            result.source_seals_checked = checked
            if dry_run:
                result.dry_run = True
                raise _DryRun
    except _DryRun:
        pass
    except DatabaseError as error:
        raise ArchiveError(
            f"The database refused the archive's rows ({error}); nothing was imported."
        ) from None
    return result


def _import(loaded: Loaded, origin: dict, slug: str | None, link_users: bool) -> Imported:
    ids = Ids()
    new_slug = choose_slug(slug, origin["slug"])
    # Keep the database writes of concurrent imports apart (unique placeholders below).
    result = Imported(club=None, source=origin, head=ledger.AuditHead(0, ledger.GENESIS))  # type: ignore[arg-type]
    _logins(loaded, ids, link_users, result)
    written = {}
    temp = f"import-{new_slug}"[:30]
    for spec in archive.TABLES:
        if spec.label == "ledger.auditrecord":
            continue
        written[spec.label] = _write_table(spec, loaded.rows[spec.label], ids, new_slug, temp)
    club = Club.objects.get(slug=new_slug)
    for spec in archive.TABLES:
        if spec.label != "ledger.auditrecord" and (spec.refs or spec.label == "ledger.transaction"):
            _rewrite_refs(spec, loaded.rows[spec.label], written[spec.label], ids)
    _rebuild_chain(club, loaded, ids, origin)
    problems = ledger.verify_books(club)
    if problems:
        shown = "; ".join(problems[:5]) + (" …" if len(problems) > 5 else "")
        raise ArchiveError(
            f"The imported club's books do not check ({len(problems)} problems: {shown}); "
            "nothing was imported. Was the archive edited?"
        )
    result.club = club
    result.head = ledger.audit_head(club)
    return result
