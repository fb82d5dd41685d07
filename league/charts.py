"""Small server-rendered SVG line charts, readable on a phone.

Each chart carries a <title> and <desc> for screen readers; pages also offer the same numbers
as a table. No JavaScript, nothing fetched.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from django.utils.formats import number_format

WIDTH, HEIGHT, PAD_X, PAD_Y = 360, 180, 38, 18


@dataclass(frozen=True)
class Chart:
    svg: str
    points: list[tuple[str, float]]


def line_chart(points: list[tuple[str, float]], title: str, decimals: int = 1) -> Chart:
    """``points``: (label, value) in order. Returns the SVG and the points for a table.

    Numbers are written as the page's language writes them (1,5 in Swedish, 1.5 in English)."""

    def value_text(value: float) -> str:
        return number_format(value, decimals)

    if not points:
        return Chart("", [])
    values = [v for _label, v in points]
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    span_x = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return PAD_X + (WIDTH - PAD_X - 8) * i / span_x

    def y(v: float) -> float:
        return PAD_Y + (HEIGHT - 2 * PAD_Y) * (high - v) / (high - low)

    path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, (_label, v) in enumerate(points))
    zero = ""
    if low < 0 < high:
        zero = f'<line x1="{PAD_X}" x2="{WIDTH - 8}" y1="{y(0):.1f}" y2="{y(0):.1f}" class="zero"/>'
    last_x, last_y = x(len(points) - 1), y(values[-1])
    desc = ", ".join(f"{label}: {value_text(v)}" for label, v in points[-12:])
    svg = (
        f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" class="chart" role="img" '
        f'aria-labelledby="t d" preserveAspectRatio="xMidYMid meet">'
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>"
        f'<text x="4" y="{PAD_Y + 4}" class="axis">{escape(value_text(high))}</text>'
        f'<text x="4" y="{HEIGHT - PAD_Y + 4}" class="axis">'
        f"{escape(value_text(low))}</text>"
        f"{zero}"
        f'<polyline points="{path}" class="line"/>'
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="4" class="dot"/>'
        f'<text x="{PAD_X}" y="{HEIGHT - 2}" class="axis">{escape(points[0][0])}</text>'
        f'<text x="{WIDTH - 8}" y="{HEIGHT - 2}" class="axis end">{escape(points[-1][0])}</text>'
        "</svg>"
    )
    return Chart(svg, points)
