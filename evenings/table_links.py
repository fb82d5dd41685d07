"""A table's stable link and its QR code (issue 28, item 4).

Each table of an evening has one address that outlives its games: ``/t/<token>/``, where the
token is the table's id and an HMAC of it under the site's key (``token_for``; ``table_for``
reads it back, or None for anything forged or spoilt). The evening page and the board show it
per table as a QR code and as a link (``{% table_link table as link %}``, in
``evenings.templatetags.table_links``).

What the address opens is the games' business: scoring registers the view's URL with
``register_link`` in its ``AppConfig.ready`` (``evenings`` never imports ``scoring``). A member
of the club is sent to the table's game, anyone else follows it read-only. Without a registered
link the tables show no QR code.
"""

from __future__ import annotations

from collections.abc import Callable

import segno
from django.utils.crypto import constant_time_compare, salted_hmac

from evenings.models import Table

SALT = "evenings.table-link"
# "12-9f3a0b1c2d3e4f50": the table's id and 64 bits of an HMAC of it under the site's key. Short,
# and easy to type from the screen for a phone without a scanner; guessing one is hopeless.
MAC_CHARS = 16
MAX_TOKEN = 18 + 1 + MAC_CHARS

# (token) -> the path of the page a table's token opens.
LinkBuilder = Callable[[str], str]
_BUILDERS: list[LinkBuilder] = []


def register_link(builder: LinkBuilder) -> LinkBuilder:
    if builder not in _BUILDERS:
        _BUILDERS.append(builder)
    return builder


def _mac(value: str) -> str:
    return salted_hmac(SALT, value, algorithm="sha256").hexdigest()[:MAC_CHARS]


def token_for(table: Table) -> str:
    return f"{table.pk}-{_mac(str(table.pk))}"


def table_for(token: object) -> Table | None:
    """The table a token names, or None: forged, spoilt, too long or the table is gone."""
    if not isinstance(token, str) or not token.isascii() or len(token) > MAX_TOKEN:
        return None
    value, _, mac = token.partition("-")
    if not (value.isdigit() and value[0] != "0") or not constant_time_compare(mac, _mac(value)):
        return None
    return Table.objects.select_related("evening__club").filter(pk=int(value)).first()


def path_for(table: Table) -> str | None:
    """The table's link (a path), or None when no app has registered what it opens."""
    return _BUILDERS[-1](token_for(table)) if _BUILDERS else None


def qr_svg(url: str, title: str) -> str:
    """An inline SVG QR code of ``url`` (no XML declaration, scalable by CSS)."""
    qr = segno.make(url, error="m", micro=False)
    return qr.svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=True, title=title)
