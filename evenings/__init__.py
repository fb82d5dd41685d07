"""Club evenings (*klubbkväll*): who is here, the tables, each table's pot, the whist drive, the
evening board, and tonight's settle-up.

By noun: ``evenings.options`` (the club's options, sealed), ``evenings.opening`` (an evening
opened and closed), ``evenings.attendance`` (checking in, the fee, whose account),
``evenings.tables`` (tables drawn or seated), ``evenings.pots`` (the pots' rule and its check),
``evenings.tonight`` (tonight's result, settle-up and summary), ``evenings.drives`` with
``evenings.drive_results`` and ``evenings.drive_page`` (the whist drive), ``evenings.board``
and ``evenings.card`` (what the room's screen and the results card show).

Other apps call the evenings by their public names, ``evenings.check_in(…)``: the names in
``_PUBLIC`` below, each with the module that defines it, loaded on first use. A Django app's
package is imported before its models are ready, so this module cannot import those modules
itself; its ``__getattr__`` (PEP 562) does, when a name is first asked for. The evenings' own
modules import each other by module (``from evenings import pots``).

Layering: ``evenings`` stands on ``club``, ``ledger`` and ``league``; ``scoring`` imports it (a
game started at a table belongs to the table: ``Game.table``) and tells the board what a
table's game looks like through ``evenings.board.register_table_status``. ``evenings`` never
imports ``scoring`` (tests/test_infrastructure.py).
"""

from importlib import import_module

# Public name → the module that defines it (tests/test_infrastructure.py holds it to that).
_PUBLIC = {
    # the club's options
    "options_for": "evenings.options",
    "save_options": "evenings.options",
    "options_state": "evenings.options",
    "OPTIONS_SUBJECT": "evenings.options",
    "seal_options": "evenings.options",
    "check_options_sealed": "evenings.options",
    # an evening opened and closed
    "EveningError": "evenings.opening",
    "require_open": "evenings.opening",
    "open_evening": "evenings.opening",
    "open_games_at": "evenings.opening",
    "close_evening": "evenings.opening",
    # who is here
    "check_in": "evenings.attendance",
    "check_in_many": "evenings.attendance",
    "attendee_account": "evenings.attendance",
    "prize_pool": "evenings.attendance",
    "Expected": "evenings.attendance",
    "register_expected": "evenings.attendance",
    "expected": "evenings.attendance",
    # tables
    "table_sizes": "evenings.tables",
    "draw_groups": "evenings.tables",
    "form_tables": "evenings.tables",
    "open_tonight": "evenings.tables",
    "table_numbered": "evenings.tables",
    # tonight's money
    "PARTY_KINDS": "evenings.tonight",
    "game_ids": "evenings.tonight",
    "paid_ref": "evenings.tonight",
    "tonight_transactions": "evenings.tonight",
    "tonight_result": "evenings.tonight",
    "tonight_nets": "evenings.tonight",
    "tonight_plan": "evenings.tonight",
    "Paid": "evenings.tonight",
    "paid_so_far": "evenings.tonight",
    "Night": "evenings.tonight",
    "summary": "evenings.tonight",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> object:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'evenings' has no attribute {name!r}")
    return getattr(import_module(_PUBLIC[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})
