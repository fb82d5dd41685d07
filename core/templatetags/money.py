"""``{{ amount_ore|money }}``: the one template filter that shows money to people."""

from __future__ import annotations

from django import template

from core.money import format_ore

register = template.Library()


@register.filter
def money(amount_ore: int | None) -> str:
    return format_ore(amount_ore)
