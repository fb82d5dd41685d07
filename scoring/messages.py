"""The engine's messages in the user's language.

The engine raises errors with an English template and named values
(``IllegalEvent(_("{player} is not at the table"), player="s1")``); the template is a msgid in
``locale/``. A template without a translation is shown in English, as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from django.db.models import Q
from django.utils.translation import gettext

from core.money import format_ore
from engine import registry
from engine.errors import EngineError, Line, Ore, Text


def engine_message(error: EngineError, *, sentence: bool = True) -> str:
    """The refusal in the reader's language; as a sentence (a capital first letter) unless it
    is a part of another message."""
    text = _message(error)
    return _sentence(text) if sentence else text


def _sentence(text: str) -> str:
    """A message as a sentence: its first letter a capital (after names are put in: a seat key
    at the start must still be found)."""
    return text[:1].upper() + text[1:]


sentence = _sentence


def _message(error: EngineError) -> str:
    template = getattr(error, "template", "") or str(error)
    params = getattr(error, "params", {}) or {}
    if not params:
        return gettext(template)
    params = {name: _value(value) for name, value in params.items()}
    try:
        return gettext(template).format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English is safe
        return str(error)


def _value(value):
    """A value may itself be a refusal (whist: "deal 3: …") or a marked text (the card
    parser's "write a rank and a suit …"): those are translated too."""
    if isinstance(value, EngineError):
        return engine_message(value, sentence=False)
    if isinstance(value, Line):
        return render_line(value.as_json(), {})
    if isinstance(value, Text):
        return gettext(value)
    if isinstance(value, Ore):
        return format_ore(int(value))
    return value


# --- what an event did, in the reader's language ---------------------------------------------
# An event stores its lines as ``engine.errors.Line.as_json()`` gives them: ``{"t": template,
# "p": params}``; a parameter is a seat key, a number, ``{"ore": n}`` (money), ``{"text": t}`` (a
# marked phrase), ``{"line": line}`` or ``{"lines": [line, …]}``; ``{"s": text}`` is a line
# that is only text (an event stored before lines were kept).


def lines_of(state) -> list[dict]:
    """The lines of what the last applied event did, as an event stores them."""
    return lines_of_log(getattr(state, "log", ()))


def event_text(event, names: Mapping[str, str]) -> str:
    """What an event did, in the reader's language with the players' names."""
    if event.lines:
        return render_lines(event.lines, names)
    return with_names(event.summary or event.type, names)


def render_log(log, names: Mapping[str, str]) -> list[str]:
    """An engine state's log (``Line`` objects) in the reader's language, one text a line."""
    return [render_line(line, names) for line in lines_of_log(log)]


def lines_of_log(log) -> list[dict]:
    return [line.as_json() if isinstance(line, Line) else {"s": str(line)} for line in log]


def undo_line(target) -> dict:
    """The line of an undo: what the event it took back did."""
    undone = target.lines or [{"s": target.summary or target.type}]
    return {"t": "Undid: {what}", "p": {"what": {"lines": undone}}}


def render_lines(lines: list, names: Mapping[str, str]) -> str:
    """Lines in the reader's language, seat keys as the players' names, joined by " · "."""
    return " · ".join(render_line(line, names) for line in lines if isinstance(line, dict))


def render_line(line: dict, names: Mapping[str, str]) -> str:
    if "s" in line:
        return with_names(str(line["s"]), names)
    template = str(line.get("t", ""))
    params = {key: _param(value, names) for key, value in (line.get("p") or {}).items()}
    try:
        return gettext(template).format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English is safe
        return template.format(**params)


def _param(value, names: Mapping[str, str]):
    if isinstance(value, dict):
        if "ore" in value:
            return format_ore(value["ore"])
        if "text" in value:
            return gettext(str(value["text"]))
        if "line" in value:
            return render_line(value["line"], names)
        if "lines" in value:
            return render_lines(value["lines"], names)
        return ""
    if isinstance(value, str):
        if _NEGATIVE.fullmatch(value):  # a signed number an engine wrote as text ("-14")
            return f"\u2212{value[1:]}"
        return names.get(value, value)
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        return f"\u2212{-value}"  # one minus sign, as in money
    return value


def with_names(text: str, names: Mapping[str, str]) -> str:
    """Seat keys in a text ("s2 knackar") as the players' names ("Bo knackar")."""
    return _SEAT_KEY.sub(lambda m: names.get(m.group(0), m.group(0)), text)


_SEAT_KEY = re.compile(r"\bs\d+\b")
_NEGATIVE = re.compile(r"-\d+")


# --- the ledger's memos of game money --------------------------------------------------------

_GAME_EVENT_REF = re.compile(r"^game:(\d+):event:(\d+)$")


def describe_game_money(transactions: list) -> dict:
    """The memo of each game transaction in the reader's language: "<game> #<id>: <what the
    event did>" from the event's lines with today's names, and "Undo in game #<id>" for the
    reversal of one (``ledger.describe``). Two queries for any number, reading only
    the columns a memo needs: the events' lines and game keys, the seats' names."""
    from scoring.models import Event, Seat  # noqa: PLC0415 - models load with the app registry

    texts = {}
    wanted: dict = {}
    for tx in transactions:
        match = _GAME_EVENT_REF.match(tx.ref or "")
        if not match:
            continue
        game_id, seq = int(match[1]), int(match[2])
        if tx.reverses_id:
            texts[tx] = gettext("Undo in game #%(id)s") % {"id": game_id}
        else:
            wanted[tx] = (game_id, seq)
    if not wanted:
        return texts
    seqs: dict[int, set[int]] = {}
    for game_id, seq in wanted.values():
        seqs.setdefault(game_id, set()).add(seq)
    which = Q()
    for game_id, game_seqs in seqs.items():
        which |= Q(game_id=game_id, seq__in=game_seqs)
    events = {
        (game_id, seq): (lines, game_key)
        for game_id, seq, lines, game_key in Event.objects.filter(which).values_list(
            "game_id", "seq", "lines", "game__game_key"
        )
    }
    names: dict[int, dict[str, str]] = {}
    seats = Seat.objects.filter(game_id__in=seqs).values_list(
        "game_id", "position", "guest_name", "member__name"
    )
    for game_id, position, guest_name, member_name in seats:
        # ``Seat.key`` and ``Seat.name``, from the two columns they are made of.
        names.setdefault(game_id, {})[f"s{position}"] = (
            guest_name if member_name is None else member_name
        )
    for tx, (game_id, seq) in wanted.items():
        lines, game_key = events.get((game_id, seq), (None, None))
        if not lines:
            continue
        what = render_lines(lines, names.get(game_id, {}))
        texts[tx] = f"{gettext(registry.display_name(game_key))} #{game_id}: {what}"
    return texts
