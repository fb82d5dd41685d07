"""A game's ``State`` back from its JSON, so that a reader need not replay the game's events.

The app stores a state as ``dataclasses.asdict`` through JSON (``Game.snapshot``): tuples become
lists, nested dataclasses dicts, dict keys strings, and a ``Line`` of the log its English text.
``restore(State, data, log)`` reads the state's type hints and rebuilds each field as the engine
made it — tuples, ``X | None``, literals, dicts (int keys back from strings), nested
dataclasses — with the log's lines from their JSON (``Line.as_json()``: template and
parameters, so they are rendered in the reader's language). Dataclasses are rebuilt field by
field without ``__init__``, as ``apply`` copies them: the engine checked the values when it
made them.

Anything this does not recognise — a field missing or extra (a snapshot from an older State), a
type it cannot rebuild, a value of the wrong kind — raises ``SnapshotMismatch``: the caller then
replays the events, which is always the truth.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any

from engine.errors import Line, Ore, Text


class SnapshotMismatch(ValueError):
    """The snapshot does not hold a state of this shape."""


def restore(state_class: type, data: dict, log: list) -> Any:
    """The ``state_class`` instance that ``data`` (its ``asdict`` through JSON) was made from,
    with the log rebuilt from ``log`` (its lines as ``Line.as_json()``, or ``{"s": text}``)."""
    return _dataclass(state_class, {**data, "log": log}, lines=True)


def line_from_json(data: dict) -> Line | str:
    """A log line from what ``Line.as_json()`` made of it (``{"s": text}``: plain text)."""
    if not isinstance(data, dict):
        raise SnapshotMismatch("a log line is not an object")
    if "s" in data:
        return str(data["s"])
    params = {name: _param(value) for name, value in (data.get("p") or {}).items()}
    return Line(data["t"], **params)


def _param(value: object) -> object:
    if isinstance(value, dict):
        if "ore" in value:
            return Ore(value["ore"])
        if "text" in value:
            return Text(value["text"])
        if "line" in value:
            return line_from_json(value["line"])
        raise SnapshotMismatch(f"an unknown line parameter: {sorted(value)}")
    return value


@cache
def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


def _dataclass(cls: type, data: object, *, lines: bool = False) -> Any:
    if not isinstance(data, dict):
        raise SnapshotMismatch(f"{cls.__name__} is not an object")
    hints = _hints(cls)
    if len(data) != len(hints) or any(name not in data for name, _hint in hints):
        raise SnapshotMismatch(f"{cls.__name__} has other fields")
    made = object.__new__(cls)
    for name, hint in hints:
        value = data[name]
        if lines and name == "log":
            value = tuple(line_from_json(line) for line in value)
        else:
            value = _value(hint, value)
        object.__setattr__(made, name, value)
    return made


def _value(hint: Any, value: object) -> object:  # noqa: PLR0911 - one case per kind of hint
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return value
    if origin is typing.Literal:
        if value not in args:
            raise SnapshotMismatch(f"{value!r} is not one of {args}")
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        (only,) = [arg for arg in args if arg is not type(None)] or [None]
        if only is None:
            raise SnapshotMismatch(f"cannot rebuild {hint}")
        return _value(only, value)
    if dataclasses.is_dataclass(hint):
        return _dataclass(hint, value)
    if origin is tuple:
        return _tuple(args, value)
    if origin is dict:
        return _dict(args, value)
    if hint in (int, str, bool):
        return _plain(hint, value)
    raise SnapshotMismatch(f"cannot rebuild {hint}")


def _tuple(args: tuple, value: object) -> tuple:
    if not isinstance(value, list):
        raise SnapshotMismatch("a tuple is not a list")
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(_value(args[0], item) for item in value)
    if len(args) != len(value):
        raise SnapshotMismatch("a tuple of another length")
    return tuple(_value(arg, item) for arg, item in zip(args, value, strict=True))


def _dict(args: tuple, value: object) -> dict:
    if not isinstance(value, dict) or len(args) != 2:
        raise SnapshotMismatch("a dict is not an object")
    key_hint, value_hint = args
    if key_hint not in (str, int):
        raise SnapshotMismatch(f"cannot rebuild keys of {key_hint}")
    return {key_hint(key): _value(value_hint, item) for key, item in value.items()}


def _plain(hint: type, value: object) -> object:
    if hint is bool and not isinstance(value, bool):
        raise SnapshotMismatch("not a bool")
    if hint is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise SnapshotMismatch("not a whole number")
    if hint is str and not isinstance(value, str):
        raise SnapshotMismatch("not a text")
    return value
