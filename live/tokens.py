"""The stream's ticket: which channels a page may follow, for whom, until when.

Rendered into the page (after the page's own access check) and read by ``live.stream`` with
no cookie and no database. It grants only signals ("game 12 is at seq 57"), never content; a
member removed from the club keeps hearing them until the ticket expires (``MAX_AGE``) and
learns nothing more, because the pad he then fetches is checked as always.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core import signing

SALT = "protokoll.live.stream"
MAX_AGE = 12 * 3600
MAX_CHANNELS = 64


def game_channel(game_id: int) -> str:
    return f"g:{game_id}"


def evening_channel(evening_id: int) -> str:
    return f"e:{evening_id}"


def sign(channels: Iterable[str], user_id: int | None) -> str:
    return signing.dumps(
        {"c": sorted(set(channels))[:MAX_CHANNELS], "u": user_id}, salt=SALT, compress=True
    )


def read(token: str) -> list[str] | None:
    """The channels a token names, or None when it is forged, spoilt or expired."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    channels = data.get("c") if isinstance(data, dict) else None
    if not isinstance(channels, list) or not all(isinstance(c, str) for c in channels):
        return None
    return channels[:MAX_CHANNELS]
