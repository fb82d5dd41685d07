"""The link from a competition's table to its game's pad.

``competitions`` never imports ``scoring`` (the layering); scoring registers, from its
``AppConfig.ready``, a function that makes a table's URL (``register_table_link``), and the
competition's pages ask ``table_link(table)``. Without a registered function (a test of the
competitions app alone) the link is empty.
"""

from __future__ import annotations

from collections.abc import Callable

from competitions.models import Table

TableLink = Callable[[Table], str]

_LINK: list[TableLink] = []


def register_table_link(fn: TableLink) -> TableLink:
    """Have ``table_link`` answer with ``fn(table)`` (the last one registered wins)."""
    _LINK[:] = [fn]
    return fn


def table_link(table: Table) -> str:
    """The URL of the table's pad (start or continue its game), or "" when nobody registered."""
    return _LINK[0](table) if _LINK else ""
