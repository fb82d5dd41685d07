"""``{{ amount_ore|money }}``: the one place money is formatted for people.

Swedish: ``12,50 kr`` and ``−3 kr`` (whole kronor without decimals? no: always two, as a
ledger should); English: ``SEK 12.50``. Negative amounts carry a real minus sign.
"""

from __future__ import annotations

from django import template
from django.utils.translation import get_language

register = template.Library()


def format_ore(amount_ore: int | None, language: str | None = None) -> str:
    if amount_ore is None:
        return ""
    amount_ore = int(amount_ore)
    sign = "−" if amount_ore < 0 else ""
    kronor, ore = divmod(abs(amount_ore), 100)
    language = (language or get_language() or "sv")[:2]
    if language == "en":
        return f"{sign}SEK {kronor:,}.{ore:02d}"
    grouped = f"{kronor:,}".replace(",", "\u00a0")
    return f"{sign}{grouped},{ore:02d}\u00a0kr"


@register.filter
def money(amount_ore: int | None) -> str:
    return format_ore(amount_ore)
