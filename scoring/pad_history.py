"""The pad's history rows: rendered once per event, then served from this process's cache.

An event never changes once stored (events are append-only; an undo is an event of its own),
so the row the pad shows for event ``seq`` of a game — what it did from ``Event.lines`` in the
reader's language with the players' names, its time, who recorded it — is the same for every
pad of that game that shows it. ``rows(game, names, everything=…)`` answers the rows of events
``game.seq``, ``game.seq - 1`` … (the latest ``PAD_HISTORY``, or all), newest first: the rows
this process already rendered come from ``_ROWS``; only the events it has not rendered yet are
read (one query, just their columns) and rendered with the ``history-row`` partial of
``scoring/game_detail.html``. A pad at a new seq therefore reads and renders one row; a pad at
the same seq (every phone at the table after an event) reads and renders none.

The cache is keyed by what a row's text depends on besides the event: the game (its id and
start time: SQLite reuses the ids of rolled-back rows), the language, the time zone and the
seat names (a member renamed is a new key). Rows are looked up by seq up to ``game.seq`` as the
request read it, so an event recorded meanwhile by another phone is not shown before the
seq the pad carries. Only a cache: a miss reads the events, and another process keeps its own.
Who recorded an event is shown by username as it was when the row was rendered (usernames
change only in the admin).

``undo_what`` names what *Undo* takes back from these rows; each row keeps its type and, for an
undo, the seq it cancelled, which is all ``recording.effective_events`` reads.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from django.template.loader import get_template
from django.utils import timezone, translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from scoring import recording
from scoring.messages import event_text
from scoring.models import Game

PAD_HISTORY = 20  # history lines on the pad; ?history=all shows every one
ROW_TEMPLATE = "scoring/game_detail.html#history-row"

_ROWS: OrderedDict[tuple, dict[int, Row]] = OrderedDict()
_CACHE_SIZE = 256  # games


@dataclass(frozen=True)
class Row:
    """One event as the pad's history shows it: its rendered ``<li>`` and what undo reads."""

    seq: int
    type: str
    payload: dict = field(compare=False)  # for an undo, {"undoes": seq}; else empty
    display: str  # what the event did, in words
    html: SafeString


@dataclass
class _Event:
    """The columns of an event a row is made from (``event_text`` reads ``lines``,
    ``summary`` and ``type``)."""

    seq: int
    type: str
    payload: dict
    summary: str
    lines: list
    created_at: datetime
    by: str | None  # who recorded it (username)


def rows(
    game: Game, names: Mapping[str, str], *, everything: bool, show_by: bool = True
) -> list[Row]:
    """The rows of the game's latest ``PAD_HISTORY`` events (or all), newest first.
    ``show_by``: whether the rows name the login that recorded each event — a member's pad
    does; a page for readers outside the club (a follower, a guest) does not, since a login
    name is the club's business."""
    lowest = 1 if everything else max(1, game.seq - PAD_HISTORY + 1)
    wanted = range(game.seq, lowest - 1, -1)
    cached = _cached(game, names, show_by)
    missing = [seq for seq in wanted if seq not in cached]
    if missing:
        for event in _events(game, min(missing), max(missing), show_by):
            cached[event.seq] = _row(event, names)
    return [cached[seq] for seq in wanted if seq in cached]


def undo_what(game: Game, history: list[Row], names: Mapping[str, str]) -> str:
    """What *Undo* takes back, in words: the newest event that counts ("Bo knackar").

    ``history`` is the newest events, newest first. An undo takes back an earlier event, so
    whether one of these counts is decided among them alone; only when none of them counts
    (a run of undos longer than the pad shows) are the older events read."""
    effective = recording.effective_events(list(reversed(history)))
    if effective:
        text = effective[-1].display
    elif len(history) < game.seq:
        effective = recording.effective_events(list(game.events.order_by("seq")))
        text = event_text(effective[-1], names) if effective else ""
    else:
        return ""
    first, *rest = text.split(" · ")
    return f"{first} …" if rest else first


def _cached(game: Game, names: Mapping[str, str], show_by: bool) -> dict[int, Row]:
    key = (
        game.pk,
        show_by,
        game.started_at.isoformat(),
        translation.get_language(),
        timezone.get_current_timezone_name(),
        tuple(sorted(names.items())),
    )
    cached = _ROWS.get(key)
    if cached is None:
        cached = _ROWS[key] = {}
        while len(_ROWS) > _CACHE_SIZE:
            _ROWS.popitem(last=False)
    else:
        _ROWS.move_to_end(key)
    return cached


def _events(game: Game, first: int, last: int, show_by: bool) -> list[_Event]:
    """Events ``first`` … ``last`` of the game, with the columns a row shows."""
    columns = ("seq", "type", "payload", "summary", "lines", "created_at")
    found = game.events.filter(seq__gte=first, seq__lte=last).values_list(
        *columns, "recorded_by__username", "guest_pass_id"
    )
    # Recorded through the host's guest link (scoring.guest): by "a guest".
    return [
        _Event(
            *values[:-2],
            (values[-2] if show_by else None) or (_("guest") if values[-1] else None),
        )
        for values in found
    ]


def _row(event: _Event, names: Mapping[str, str]) -> Row:
    display = event_text(event, names)
    undoes = event.payload.get("undoes") if event.type == recording.UNDO else None
    html = get_template(ROW_TEMPLATE).render({"event": event, "display": display})
    return Row(
        seq=event.seq,
        type=event.type,
        payload={} if undoes is None else {"undoes": undoes},
        display=display,
        html=SafeString(html),
    )
