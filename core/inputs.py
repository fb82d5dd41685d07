"""Every input is parsed once, at the edge, into a value the app can trust, or refused.

Text from a request is hostile until one of these functions has read it. A view or a form calls
them where a request's text first becomes a value (a number, a date, a name, a key, an event's
payload); everything behind them (services, the engines, the database) may then assume:

- a number was written in ASCII digits with at most one leading minus, of bounded length, and
  lies in the caller's range (``parse_int``). ``str.isdigit()`` and ``int()`` also take ``²``,
  ``١٢`` and ``１２``; ``int()`` refuses more than 4,300 digits with a ``ValueError`` that no
  view expects.
- text holds no NUL (PostgreSQL refuses it) nor any other control character but tab (and
  newlines in multi-line text), and fits its column (``clean_text``); an opaque key
  (idempotency key, submission key, token) is a short run of ``A-Z a-z 0-9 _ -``
  (``parse_token``).
- a date lies within ``DATE_RANGE_YEARS`` of today (``bounded_date``): a payment dated
  0001-01-01 or 9999-12-31 is a typo, and arithmetic on such dates steps off the calendar.
- JSON is of bounded size and depth, has no ``NaN``/``Infinity``, no NUL, no float, no number
  beyond ``MAX_JSON_INT`` and only short string keys (``parse_json`` for text, ``check_json``
  for a value built otherwise). ``parse_payload`` builds an event's payload from a pad's form,
  a JSON object in ``payload`` plus ``p_<name>`` fields, and refuses fields that collide.
  Which keys an event may carry, and of which types, each game's event table declares
  (``engine.base.EventType``, checked by ``engine.base.dispatch``); here a payload is only
  bounded.

Each refusal is a ``django.core.exceptions.ValidationError`` with a ``code`` and a translatable
message; the view answers it with 400 or 422 and a page or fragment that says what was wrong.
The form fields at the end (``IntegerField``, ``TextField``, ``DateField``) put the same rules
into Django forms. Limits on what amounts mean (a ceiling on money) belong to the ledger and the
engines, not here: this module only makes reading safe.

``core`` sits beneath ``club`` and ``scoring``: it imports Django and the standard library only.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Mapping
from datetime import date
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# Eighteen digits hold any 64-bit integer: more is never a count, a seq or öre.
MAX_DIGITS = 18
DATE_RANGE_YEARS = 10
# An event's payload: a few picks, cards and per-seat numbers. Far below these in practice.
PAYLOAD_MAX_BYTES = 8_000
PAYLOAD_MAX_DEPTH = 5
PAYLOAD_MAX_KEY_LENGTH = 40
PAYLOAD_MAX_STRING = 200
MAX_JSON_INT = 2**53 - 1  # the largest whole number every JSON reader keeps exactly
TOKEN_MAX_LENGTH = 64

_INT = re.compile(r"-?[0-9]+")  # [0-9], not \d: \d matches every script's digits
_TOKEN = re.compile(r"[A-Za-z0-9_-]+")
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def _shown(text: str, limit: int = 30) -> str:
    """A refused value as a message may quote it: short and printable."""
    printable = "".join(c if c.isprintable() else "?" for c in text[:limit])
    return printable + ("…" if len(text) > limit else "")


# --- numbers -----------------------------------------------------------------------------------


def is_int_text(text: object) -> bool:
    """Whether ``text`` is written as a whole number: ASCII digits, one optional leading minus."""
    return isinstance(text, str) and _INT.fullmatch(text.strip()) is not None


def parse_int(text: object, *, lo: int, hi: int) -> int:
    """A whole number from ``lo`` to ``hi`` written in ASCII digits, else ``ValidationError``
    (codes ``required``, ``invalid``, ``range``)."""
    if not isinstance(text, str) or not text.strip():
        raise ValidationError(_("Enter a whole number."), code="required")
    cleaned = text.strip()
    if _INT.fullmatch(cleaned) is None:
        raise ValidationError(
            _("“%(text)s” is not a whole number; write it with the digits 0–9."),
            code="invalid",
            params={"text": _shown(cleaned)},
        )
    if len(cleaned.lstrip("-")) > MAX_DIGITS:
        raise ValidationError(
            _("Enter a whole number from %(lo)s to %(hi)s."),
            code="range",
            params={"lo": lo, "hi": hi},
        )
    value = int(cleaned)
    if not lo <= value <= hi:
        raise ValidationError(
            _("Enter a whole number from %(lo)s to %(hi)s."),
            code="range",
            params={"lo": lo, "hi": hi},
        )
    return value


# --- text --------------------------------------------------------------------------------------


def _control_character(text: str, *, multiline: bool) -> str | None:
    for character in text:
        if multiline and character in _ALLOWED_CONTROLS:
            continue
        if character == "\t":
            continue
        if unicodedata.category(character) in ("Cc", "Cs"):
            return character
    return None


def clean_text(text: object, *, max_length: int, multiline: bool = False) -> str:
    """``text`` stripped; refused (``ValidationError``) when it is not text, holds NUL or another
    control character (tab always, newlines only when ``multiline``, are allowed) or is longer
    than ``max_length`` (codes ``invalid``, ``control``, ``max_length``)."""
    if not isinstance(text, str):
        raise ValidationError(_("Enter text."), code="invalid")
    if len(text) > 4 * max_length + 100:  # far too long: no need to look at every character
        raise _too_long(max_length)
    if _control_character(text, multiline=multiline) is not None:
        raise ValidationError(
            _("The text holds an invisible control character; type it again."), code="control"
        )
    cleaned = text.strip()
    if len(cleaned) > max_length:
        raise _too_long(max_length)
    return cleaned


def _too_long(max_length: int) -> ValidationError:
    return ValidationError(
        _("Write at most %(limit)s characters."), code="max_length", params={"limit": max_length}
    )


def parse_token(text: object, *, max_length: int = TOKEN_MAX_LENGTH) -> str:
    """An opaque key a page or link carries (``[A-Za-z0-9_-]``, at most ``max_length``), else
    ``ValidationError`` (code ``token``)."""
    if not isinstance(text, str) or len(text) > max_length or _TOKEN.fullmatch(text) is None:
        raise ValidationError(
            _("The page sent a damaged key; reload it and try again."), code="token"
        )
    return text


# --- dates -------------------------------------------------------------------------------------


def _years_from(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February in a year without one
        return day.replace(year=day.year + years, day=28)


def date_bounds(today: date | None = None) -> tuple[date, date]:
    """The dates the app accepts: ``DATE_RANGE_YEARS`` either side of today."""
    today = today or timezone.localdate()
    return _years_from(today, -DATE_RANGE_YEARS), _years_from(today, DATE_RANGE_YEARS)


def bounded_date(value: date, *, today: date | None = None) -> date:
    """``value`` when it lies within ``DATE_RANGE_YEARS`` of today, else ``ValidationError``
    (code ``date_range``)."""
    lo, hi = date_bounds(today)
    if not lo <= value <= hi:
        raise ValidationError(
            _("Choose a date from %(lo)s to %(hi)s."),
            code="date_range",
            params={"lo": lo.isoformat(), "hi": hi.isoformat()},
        )
    return value


# --- JSON --------------------------------------------------------------------------------------


def _payload_error(message, code: str = "payload", **params) -> ValidationError:
    return ValidationError(message, code=code, params=params or None)


def _refuse_constant(name: str):
    raise _payload_error(
        _("The form sent %(name)s, which is not a number."), code="payload_number", name=name
    )


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _payload_error(_("A number in the form is too large."), code="payload_number")
    return int(text)


def _refuse_float(text: str):
    raise _payload_error(
        _("Numbers in an event are whole numbers, not %(text)s."),
        code="payload_number",
        text=_shown(text),
    )


def parse_json(
    text: object,
    *,
    max_bytes: int = PAYLOAD_MAX_BYTES,
    max_depth: int = PAYLOAD_MAX_DEPTH,
) -> Any:
    """JSON text read safely: at most ``max_bytes`` (UTF-8) and ``max_depth`` levels, whole
    numbers only, then ``check_json``. Refusals are ``ValidationError`` (codes ``payload``,
    ``payload_size``, ``payload_depth``, ``payload_number``, ``payload_text``)."""
    if not isinstance(text, str):
        raise _payload_error(_("The form sent a broken payload."))
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise _payload_error(
            _("The form sent more than %(limit)s bytes of data."),
            code="payload_size",
            limit=max_bytes,
        )
    try:  # within max_bytes the parser's own recursion is safe; check_json bounds the depth
        value = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=_whole,
            parse_float=_refuse_float,
        )
    except (json.JSONDecodeError, RecursionError, ValueError, TypeError):
        raise _payload_error(_("The form sent a broken payload.")) from None
    return check_json(value, max_bytes=max_bytes, max_depth=max_depth)


def check_json(
    value: Any,
    *,
    max_bytes: int = PAYLOAD_MAX_BYTES,
    max_depth: int = PAYLOAD_MAX_DEPTH,
) -> Any:
    """``value`` if the database and every reader can hold it as JSON: objects with short text
    keys, lists, text without control characters, booleans, null and whole numbers up to
    ``MAX_JSON_INT``; at most ``max_depth`` levels and ``max_bytes`` written out."""
    _check_value(value, max_depth)
    size = len(json.dumps(value, ensure_ascii=False, allow_nan=False).encode())
    if size > max_bytes:
        raise _payload_error(
            _("The form sent more than %(limit)s bytes of data."),
            code="payload_size",
            limit=max_bytes,
        )
    return value


def _check_value(value: Any, depth_left: int) -> None:
    if isinstance(value, (dict, list)):
        if depth_left <= 0:
            raise _payload_error(_("The form sent data nested too deeply."), code="payload_depth")
        if isinstance(value, dict):
            for key, inner in value.items():
                _check_key(key)
                _check_value(inner, depth_left - 1)
        else:
            for inner in value:
                _check_value(inner, depth_left - 1)
    elif isinstance(value, str):
        if len(value) > PAYLOAD_MAX_STRING:
            raise _payload_error(
                _("A text in the form is longer than %(limit)s characters."),
                code="payload_text",
                limit=PAYLOAD_MAX_STRING,
            )
        if _control_character(value, multiline=True) is not None:
            raise _payload_error(
                _("A text in the form holds an invisible control character."),
                code="payload_text",
            )
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_JSON_INT:
            raise _payload_error(_("A number in the form is too large."), code="payload_number")
    elif isinstance(value, float):
        if not math.isfinite(value):
            _refuse_constant(repr(value))
        _refuse_float(repr(value))
    else:
        raise _payload_error(_("The form sent a broken payload."))


def _check_key(key: object) -> None:
    if (
        not isinstance(key, str)
        or not key
        or len(key) > PAYLOAD_MAX_KEY_LENGTH
        or _control_character(key, multiline=False) is not None
        or "\t" in key
    ):
        raise _payload_error(_("The form sent a field with a broken name."), code="payload_key")


def coerce_scalar(text: str) -> int | bool | str:
    """A form field's text as the engines read it: a whole number (ASCII digits), ``true`` or
    ``false``, else the text itself (stripped)."""
    cleaned = text.strip()
    if is_int_text(cleaned):
        return _whole(cleaned)
    if cleaned in ("true", "false"):
        return cleaned == "true"
    return cleaned


def parse_payload(data: Mapping, *, prefix: str = "p_", json_field: str = "payload") -> dict:
    """An event's payload from a form: a JSON object in ``json_field``, plus ``<prefix>`` fields.

    ``p_points=5`` → ``{"points": 5}``; ``p_cards[]`` (repeated) → a list;
    ``p_bids.s0=4`` → ``{"bids": {"s0": 4}}``. Digits become ints (``coerce_scalar``); empty
    fields are left out; a repeated plain field counts once (its first value). A name given
    twice in different ways (in the JSON and as a field, or as ``p_x`` and ``p_x.y``) is
    refused (code ``payload_collision``), as is anything ``check_json`` refuses.
    ``data`` is a ``QueryDict`` (or any mapping with ``getlist``).
    """
    raw = data.get(json_field) or "{}"
    payload = parse_json(raw)
    if not isinstance(payload, dict):
        raise _payload_error(_("The form sent a broken payload."))
    given_as = dict.fromkeys(payload, "json")
    for name in data:
        if not isinstance(name, str) or not name.startswith(prefix):
            continue
        values = [coerce_scalar(v) for v in data.getlist(name) if v.strip() != ""]
        field = name[len(prefix) :]
        if field.endswith("[]"):
            key, how, value = field[:-2], "list", values
        elif "." in field:
            if not values:
                continue
            key, inner = field.split(".", 1)
            _check_key(inner)
            how, value = "dotted", {inner: values[0]}
        elif values:
            key, how, value = field, "plain", values[0]
        else:
            continue
        _check_key(key)
        if given_as.get(key, how) != how or (how != "dotted" and key in given_as):
            raise _payload_error(
                _("The form sent %(name)s twice, in different ways."),
                code="payload_collision",
                name=_shown(key),
            )
        given_as[key] = how
        payload[key] = {**payload[key], **value} if how == "dotted" and key in payload else value
    return check_json(payload)


# --- form fields -------------------------------------------------------------------------------


class IntegerField(forms.IntegerField):
    """Django's ``IntegerField`` that reads ASCII digits only (``parse_int``); ``min_value``
    and ``max_value`` are required, so every number a form takes is bounded."""

    def __init__(self, *, min_value: int, max_value: int, **kwargs):
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        return parse_int(str(value), lo=self.min_value, hi=self.max_value)

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        attrs.setdefault("inputmode", "numeric")
        return attrs


MAX_PK = 2**63 - 1  # the databases' largest key: a bigger "id" is no row, not a crash


def is_pk_text(value: object) -> bool:
    """Whether a submitted value can be a row's key: ASCII digits within ``MAX_PK``."""
    text = (value if isinstance(value, str) else str(value)).strip()
    return is_int_text(text) and len(text) <= 19 and 0 <= int(text) <= MAX_PK


class ModelMultipleChoiceField(forms.ModelMultipleChoiceField):
    """Django's ``ModelMultipleChoiceField`` that answers "not one of the choices" for a value
    that cannot be a key (``²``, 5,000 nines) before the database is asked: its ``pk__in``
    query with a number beyond the database's integers raises instead of finding nothing
    (a single ``ModelChoiceField`` already finds nothing)."""

    def _check_values(self, value):
        for item in value:
            if not is_pk_text(item):
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": str(item)[:40]},
                )
        return super()._check_values(value)


class TextField(forms.CharField):
    """A one-line (or ``multiline``) text field through ``clean_text``: a ``max_length`` is
    required, and control characters are refused."""

    def __init__(self, *, max_length: int, multiline: bool = False, **kwargs):
        self.multiline = multiline
        super().__init__(max_length=max_length, **kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return value
        return clean_text(value, max_length=self.max_length, multiline=self.multiline)


class DateField(forms.DateField):
    """Django's ``DateField`` that accepts only dates within ``DATE_RANGE_YEARS`` of today."""

    def to_python(self, value):
        value = super().to_python(value)
        return value if value is None else bounded_date(value)
