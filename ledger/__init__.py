"""The club's books: accounts, double-entry transactions, pots and betar, payments, dues,
settle-up, closed periods, the audit trail, exports and statements.

Other apps call the service functions as ``ledger.post(…)``, ``ledger.game_pot(club, key)``
(``ledger.services``, loaded on first use). The ledger imports ``club`` (clubs, members,
seasons) and ``core``; never ``scoring`` or ``league`` (tests/test_infrastructure.py).
"""

from core.facade import forward

__getattr__ = forward("ledger.services")
