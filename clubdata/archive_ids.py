"""Source ids to new ids, for a club archive being imported (``clubdata.archive_import``).

The import gives every row a new primary key and notes the pair in an ``Ids``, table by table
(logins apart: one left out maps to ``None``). Then everything that carries an id is rewritten
through it: foreign keys (``Ids.new``); the strings that embed ids, such as account keys,
transaction keys and refs, audit subjects and the league's game refs (``Ids.ref``: by the word
before an id, ``archive.REF_WORDS``, and the dues key); a drive's players as the engine knows
them (``players``); the owed results' members (``owed_payload``). An id without a pair is
another club's and refuses the archive, unless ``lenient`` leaves it as it is: for data whose
shape is not known field by field (an audit record's, ``clubdata.archive_chain``).

Writes nothing. Relies on the format (``clubdata.archive``) and on ``clubdata.archive_reading``
for what a whole number is.
"""

from __future__ import annotations

from typing import Any

from clubdata import archive
from clubdata.archive import ArchiveError
from clubdata.archive_reading import is_int


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
        if not is_int(old) or old not in table:
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


def players(value: Any, ids: Ids, where: str) -> list:
    """A drive's attendees as the engine knows them (strings, or numbers), with the new ids."""
    if not isinstance(value, list):
        raise ArchiveError(f"{where}: players must be a list.")
    return [_same_kind(p, ids.new("evenings.attendee", _int(p), where)) for p in value]


def _int(value: Any) -> int | None:
    if is_int(value):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _same_kind(old: Any, new: int) -> Any:
    return str(new) if isinstance(old, str) else new


def owed_payload(payload: Any, ids: Ids, where: str) -> Any:
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
