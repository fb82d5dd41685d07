"""Loading a club archive (``clubdata.archive``) into this instance: ``manage.py import_club``.

Everything happens in one database transaction, and anything wrong raises ``ArchiveError`` with
a sentence a person can act on, so a refused archive changes nothing:

1. **Reading** (``clubdata.archive_reading``): a zip of the expected files and nothing else, no
   zip bomb, each file's SHA-256 as the manifest says, a format, version and schema this
   instance knows; every row checked field by field against its model, and the audit chain's
   links followed to the head the manifest names.
2. **Logins**: a username free here gets a new login without a password (its owner uses "forgot
   password" or a new invite); a username taken here is left out — linking it would hand a
   stranger the member — unless ``link_users`` says to link it.
3. **Rows**, table by table (``archive.TABLES``), in the source's id order, each with a new
   primary key noted in an ``Ids`` (``clubdata.archive_ids``); every foreign key is rewritten,
   and one pointing to a row that is not in the archive (another club's id) refuses the archive.
   Strings that embed ids (account keys, transaction keys and refs, the league's game refs, a
   drive's players, the owed results' members) hold placeholders until the end
   (``_rewrite_refs``), when every id is known.
4. **The audit chain** is rebuilt in the source's order under this instance's ``AUDIT_KEY``
   (``clubdata.archive_chain``): first a record of the source, then every source record with
   the new ids, each keeping what the source recorded.
5. ``ledger.verify_books`` on the new club: anything red rolls everything back.

This module writes (steps 2, 3 and 5, and the chain's records); it relies on the three named
above and on the ledger's checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import DatabaseError, transaction

import ledger
from club.models import Club, User
from clubdata import archive, archive_ids
from clubdata.archive import ArchiveError, Spec
from clubdata.archive_chain import resealed_chain, source_seals_verify
from clubdata.archive_ids import Ids
from clubdata.archive_reading import Loaded, read_archive
from ledger.models import AuditRecord

BATCH = 500


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
                value = archive_ids.players(value, ids, where)
            elif name == "payload":
                value = archive_ids.owed_payload(value, ids, where)
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
    AuditRecord.objects.bulk_create(resealed_chain(club, loaded, ids, origin), batch_size=BATCH)
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
