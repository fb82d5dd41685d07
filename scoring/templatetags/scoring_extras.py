from html import escape

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``{{ mapping|get_item:key }}``: a dict lookup by a variable key."""
    return mapping.get(key, "") if hasattr(mapping, "get") else ""


@register.simple_tag
def cribbage_board(state: dict, seats) -> str:
    """An SVG cribbage board: one track per player, front and back pegs, the score to go."""
    target = state["rules"]["target"]
    width, left, right, track = 360, 8, 8, 34
    span = width - left - right
    rows = []
    for index, seat in enumerate(seats):
        y = 14 + index * track
        score = state["scores"][seat.key]
        back = state["back_pegs"][seat.key]
        holes = "".join(
            f'<circle cx="{left + span * h / target:.1f}" cy="{y}" r="1.3" class="hole'
            f'{" five" if h % 5 == 0 else ""}"/>'
            for h in range(0, target + 1, 5 if target > 61 else 1)
        )
        dealer = ' class="dealer"' if seat.key == state["dealer"] else ""
        rows.append(
            f'<g class="track track{index}">'
            f'<line x1="{left}" x2="{width - right}" y1="{y}" y2="{y}"/>'
            f"{holes}"
            f'<circle cx="{left + span * back / target:.1f}" cy="{y}" r="4.5" class="peg back"/>'
            f'<circle cx="{left + span * score / target:.1f}" cy="{y}" r="6" class="peg front"/>'
            f'<text x="{left}" y="{y + 18}"{dealer}>{escape(seat.name)}: {score} '
            f"({escape(_('%(n)s to go') % {'n': target - score})})</text></g>"
        )
    height = 14 + len(seats) * track
    title = " · ".join(f"{seat.name} {state['scores'][seat.key]}" for seat in seats)
    return mark_safe(  # noqa: S308 - every text in it is escaped above
        f'<svg viewBox="0 0 {width} {height}" class="board" role="img" '
        f'aria-label="{escape(title)}">' + "".join(rows) + "</svg>"
    )


@register.filter
def pretty_card(code) -> str:
    """``5D`` → ``5♦`` (the stored code of a card as the pad shows it)."""
    from engine.cards import parse_card  # noqa: PLC0415
    from engine.errors import CardError  # noqa: PLC0415

    try:
        return parse_card(str(code)).pretty
    except CardError:
        return str(code)
