"""``{{ score|score_of:competition }}``: a table's or a round's score as the competition's game
counts it: kronor for a pot game (the money won at the table), points otherwise; "–" for a
round not played."""

from __future__ import annotations

from django import template

from core.money import format_ore

register = template.Library()


@register.filter
def score_of(score: int | None, competition) -> str:
    if score is None:
        return "–"
    return format_ore(score) if competition.scores_in_ore else str(score)
