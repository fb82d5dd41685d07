"""``{% table_link table as link %}``: a table's stable link and QR code (``evenings.table_links``).

``link`` is None when no app has registered what the link opens; else ``url`` (absolute, what
the QR code encodes and the page shows beside it) and ``svg`` (the QR code, inline SVG).
"""

from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from evenings import table_links

register = template.Library()


@register.simple_tag(takes_context=True)
def table_link(context, table) -> dict | None:
    path = table_links.path_for(table)
    if path is None:
        return None
    request = context.get("request")
    url = request.build_absolute_uri(path) if request is not None else path
    title = _("Table %(n)s") % {"n": table.number}
    return {"url": url, "svg": mark_safe(table_links.qr_svg(url, title))}  # noqa: S308 - segno's own markup, the title escaped
