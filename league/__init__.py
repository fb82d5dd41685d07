"""The league: finished games' results, season standings, ratings, head-to-head records and
the public league page.

Other apps call the service functions as ``league.record_result(…)`` (``league.services``,
loaded on first use). The league imports ``club`` and ``core``; never ``scoring`` or
``ledger`` (tests/test_infrastructure.py).
"""

from core.facade import forward

__getattr__ = forward("league.services")
