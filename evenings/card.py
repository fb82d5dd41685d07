"""The evening's results card: a square PNG the host shares (the phone's share sheet sends it
as an image to the club's chat): the club, the date, tonight's top three with their money,
the whist drive's winners, and every table's pot.

``card_lines(evening)`` is what the card says, as (style, text) lines in the reader's
language; ``card_png(evening)`` draws them with Pillow (a dependency of WeasyPrint, pinned
in pyproject) in DejaVu Sans (Debian's fonts-dejavu-core, which the set-up installs), falling
back to Pillow's own font where that is missing.
"""

from __future__ import annotations

import io
from pathlib import Path

from django.utils import formats
from django.utils.translation import gettext as _

from core.money import format_ore
from evenings import board, drive_page, tonight
from evenings.models import Evening

SIZE = 1080
MARGIN = 72
FONTS = Path("/usr/share/fonts/truetype/dejavu")
STYLES = {"title": (64, "DejaVuSans-Bold.ttf"), "head": (44, "DejaVuSans-Bold.ttf")}
BODY = (40, "DejaVuSans.ttf")
GREEN, WHITE, SOFT = (20, 83, 45), (255, 255, 255), (220, 252, 231)
MAX_LINES = 18


def card_lines(evening: Evening) -> list[tuple[str, str]]:
    lines = [
        ("title", evening.club.name),
        ("head", _("Club evening %(date)s") % {"date": formats.date_format(evening.date)}),
    ]
    top = tonight.summary(evening)[:3]
    if top:
        lines.append(("gap", ""))
        for place, night in enumerate(top, start=1):
            money = format_ore(night.net_ore)
            lines.append(("body", f"{place}. {night.attendee.name}  {money}"))
    winners = drive_page.winners(evening)
    if winners:
        lines.append(("gap", ""))
        lines.append(("head", _("Whist drive")))
        lines.append(("body", _("Won by %(names)s") % {"names": ", ".join(winners)}))
    pots = [row for row in board.board(evening)["tables"] if row.pot_ore is not None]
    if pots:
        lines.append(("gap", ""))
        for row in pots:
            words = {"n": row.table.number, "game": row.game_name, "pot": format_ore(row.pot_ore)}
            lines.append(("body", _("Table %(n)s, %(game)s: pot %(pot)s") % words))
    return lines[:MAX_LINES]


def _font(size: int, name: str):
    from PIL import ImageFont  # noqa: PLC0415 - Pillow is only needed when a card is drawn

    try:
        return ImageFont.truetype(str(FONTS / name), size)
    except OSError:
        return ImageFont.load_default(size)


def card_png(evening: Evening) -> bytes:
    from PIL import Image, ImageDraw  # noqa: PLC0415

    image = Image.new("RGB", (SIZE, SIZE), GREEN)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    for style, text in card_lines(evening):
        if style == "gap":
            y += 28
            continue
        size, name = STYLES.get(style, BODY)
        font = _font(size, name)
        text = _fit(draw, text, font, SIZE - 2 * MARGIN)
        draw.text((MARGIN, y), text, font=font, fill=WHITE if style != "body" else SOFT)
        y += int(size * 1.35)
    draw.text((MARGIN, SIZE - MARGIN - 32), "Protokoll", font=_font(32, BODY[1]), fill=SOFT)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _fit(draw, text: str, font, width: int) -> str:
    """The text, cut with an ellipsis where it would run off the card."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"
