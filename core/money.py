"""Money at the edges: what people type in, what they read. Inside, always integer öre.

``parse_kronor`` accepts ``12``, ``12,5``, ``12.50``, ``12,50 kr``, ``1 250 kr``, ``SEK 12.50``
and refuses more than two decimals, text, digits other than ASCII 0–9, more than
``MAX_KRONOR_DIGITS`` digits of kronor, and (unless allowed) zero or negative amounts, with
a ``ValidationError`` carrying a code. ``format_ore`` writes ``12,50 kr`` in Swedish and
``SEK 12.50`` in English.
"""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from core.i18n import language as current_language

# ASCII digits only: \d also matches "١٢" and "１２", which nobody means as an amount. At most
# MAX_KRONOR_DIGITS of kronor, so that int() is cheap and never meets Python's digit limit;
# how large an amount may be is the ledger's and the engines' business (their ceiling).
MAX_KRONOR_DIGITS = 13
_AMOUNT = re.compile(r"(?P<sign>[-−]?)(?P<kronor>[0-9]+)(?:[.,](?P<ore>[0-9]*))?")


def parse_kronor(text: str, *, allow_zero: bool = False, allow_negative: bool = False) -> int:
    if not isinstance(text, str):
        text = ""
    if len(text) > 100:  # no amount is written this long: refuse before reading it
        raise ValidationError(_("That is not an amount."), code="invalid")
    cleaned = text.strip().lower()
    for noise in ("kronor", "kr", "sek", ":-"):
        cleaned = cleaned.replace(noise, "")
    cleaned = re.sub(r"[\s\u00a0\u202f]", "", cleaned)
    if not cleaned:
        raise ValidationError(_("Enter an amount."), code="required")
    match = _AMOUNT.fullmatch(cleaned)
    if match is None:
        shown = "".join(c if c.isprintable() else "?" for c in text.strip()[:30])
        raise ValidationError(
            _("“%(text)s” is not an amount; write e.g. 12, 12,50 or 12.50 kr."),
            code="invalid",
            params={"text": shown},
        )
    decimals = match["ore"] or ""
    if len(decimals) > 2:
        raise ValidationError(_("An amount has at most two decimals (öre)."), code="decimals")
    if len(match["kronor"].lstrip("0")) > MAX_KRONOR_DIGITS:
        raise ValidationError(_("That amount is too large."), code="too_large")
    ore = int(match["kronor"]) * 100 + int(decimals.ljust(2, "0") or 0)
    if match["sign"]:
        ore = -ore
    if ore < 0 and not allow_negative:
        raise ValidationError(_("The amount cannot be negative."), code="negative")
    if ore == 0 and not allow_zero:
        raise ValidationError(_("The amount cannot be zero."), code="zero")
    return ore


def format_ore(amount_ore: int | None, language: str | None = None) -> str:
    if amount_ore is None:
        return ""
    amount_ore = int(amount_ore)
    sign = "−" if amount_ore < 0 else ""
    kronor, ore = divmod(abs(amount_ore), 100)
    language = (language or current_language())[:2]
    if language == "en":
        return f"{sign}SEK {kronor:,}.{ore:02d}"
    grouped = f"{kronor:,}".replace(",", "\u00a0")
    return f"{sign}{grouped},{ore:02d}\u00a0kr"


def ore_to_decimal_text(amount_ore: int, language: str = "sv") -> str:
    """Decimal kronor without a currency, for CSV: ``-12,50`` (sv) or ``-12.50`` (en)."""
    sign = "-" if amount_ore < 0 else ""
    kronor, ore = divmod(abs(amount_ore), 100)
    separator = "," if language[:2] == "sv" else "."
    return f"{sign}{kronor}{separator}{ore:02d}"


class KronorField(forms.CharField):
    """A form field that reads kronor and cleans to öre."""

    def __init__(self, *args, allow_zero: bool = False, allow_negative: bool = False, **kwargs):
        self.allow_zero = allow_zero
        self.allow_negative = allow_negative
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal"}))
        super().__init__(*args, **kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        return parse_kronor(value, allow_zero=self.allow_zero, allow_negative=self.allow_negative)
