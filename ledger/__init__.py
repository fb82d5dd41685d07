"""The club's books: accounts, double-entry transactions, pots and betar, payments, dues,
settle-up, closed periods, the audit trail, exports and statements.

Other apps call the books as ``ledger.post(…)``, ``ledger.game_pot(club, key)``: the names in
``_PUBLIC`` below, each with the module that defines it, loaded on first use. A Django app's
package is imported before its models are ready, so this module cannot import those modules
itself; its ``__getattr__`` (PEP 562) does, when a name is first asked for. The ledger's own
modules import each other by name (``from ledger import postings``), so the import test sees
every edge between them. The ledger imports ``club`` (clubs, members, seasons) and ``core``;
never ``scoring`` or ``league`` (tests/test_infrastructure.py).
"""

from importlib import import_module

# Public name → the module that defines it (tests/test_infrastructure.py holds it to that).
_PUBLIC = {
    # the accounts of members, guests and the club
    "member_account_key": "ledger.accounts",
    "member_account": "ledger.accounts",
    "guest_account_key": "ledger.accounts",
    "guest_account": "ledger.accounts",
    "system_account": "ledger.accounts",
    "close_account": "ledger.accounts",
    # pots and betar
    "pot_account": "ledger.pots",
    "bet_account": "ledger.pots",
    "game_pot_key": "ledger.pots",
    "game_bet_key": "ledger.pots",
    "game_pot": "ledger.pots",
    "game_bet": "ledger.pots",
    "game_bet_balances": "ledger.pots",
    "table_pots": "ledger.pots",
    # posting, the ceiling and reversals
    "LedgerError": "ledger.postings",
    "legs_for_transfer": "ledger.postings",
    "amount_ceiling": "ledger.postings",
    "check_amount": "ledger.postings",
    "post": "ledger.postings",
    "reverse": "ledger.postings",
    "game_money_refusal": "ledger.postings",
    # balances
    "balance": "ledger.balances",
    "opening_balance": "ledger.balances",
    "entries_between": "ledger.balances",
    "balances_at": "ledger.balances",
    "verify_balances": "ledger.balances",
    # statements and memos
    "Statement": "ledger.statements",
    "StatementRow": "ledger.statements",
    "statement": "ledger.statements",
    "register_describer": "ledger.memos",
    "describe": "ledger.memos",
    # closed periods
    "close_period": "ledger.periods",
    # the audit trail
    "GENESIS": "ledger.audit",
    "AuditHead": "ledger.audit",
    "audit_time": "ledger.audit",
    "append_audit": "ledger.audit",
    "audit_records": "ledger.audit",
    "changed_fields": "ledger.audit",
    "verify_audit": "ledger.audit",
    "audit_head": "ledger.audit",
    "overall_head": "ledger.audit",
    "find_in_chain": "ledger.audit",
    "log_audit_heads": "ledger.audit",
    # the checks of the books
    "register_check": "ledger.checks",
    "registered_checks": "ledger.checks",
    "register_notice": "ledger.checks",
    "book_notices": "ledger.checks",
    "verify_registered": "ledger.checks",
    "verify_books": "ledger.checks",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> object:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'ledger' has no attribute {name!r}")
    return getattr(import_module(_PUBLIC[name]), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PUBLIC))
