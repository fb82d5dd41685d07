"""The ledger's public face: ``ledger.<name>`` for other apps, from an explicit map.

``ledger/__init__.py`` names, for every public name, the module that defines it (that each one
is there, and nothing else is served: tests/test_infrastructure.py); every name the old facade
over ``ledger.services`` served is still there.
"""

from __future__ import annotations

import pytest

import ledger

# What ``core.facade.forward("ledger.services")`` handed out before the split: its functions,
# classes and GENESIS (it also leaked the modules and constants the services imported —
# ``transaction``, ``timezone``, ``json`` …, ``UTC``, ``MAX_BALANCE_ORE``, ``SYSTEM_LABELS`` —
# which no caller used and which are not the books' to serve).
SERVED_BEFORE = {
    "AuditHead",
    "GENESIS",
    "LedgerError",
    "Statement",
    "StatementRow",
    "amount_ceiling",
    "append_audit",
    "audit_head",
    "audit_records",
    "audit_time",
    "balance",
    "balances_at",
    "bet_account",
    "book_notices",
    "changed_fields",
    "check_amount",
    "close_account",
    "close_period",
    "describe",
    "entries_between",
    "find_in_chain",
    "game_bet",
    "game_bet_balances",
    "game_bet_key",
    "game_money_refusal",
    "game_pot",
    "game_pot_key",
    "guest_account",
    "guest_account_key",
    "legs_for_transfer",
    "log_audit_heads",
    "member_account",
    "member_account_key",
    "opening_balance",
    "overall_head",
    "post",
    "pot_account",
    "register_check",
    "register_describer",
    "register_notice",
    "registered_checks",
    "reverse",
    "statement",
    "system_account",
    "table_pots",
    "verify_audit",
    "verify_balances",
    "verify_books",
    "verify_registered",
}


def test_every_name_the_old_facade_served_is_still_public():
    assert set(ledger._PUBLIC) >= SERVED_BEFORE
    assert set(dir(ledger)) >= SERVED_BEFORE


def test_the_services_imports_and_private_names_are_not_served():
    with pytest.raises(AttributeError, match="has no attribute '_seal'"):
        ledger._seal  # noqa: B018
    with pytest.raises(AttributeError):
        ledger.transaction  # noqa: B018 - the facade used to leak the services' imports
