"""Quick mode for the benchmarks: ``--quick`` on the command line, or ``PROTOKOLL_BENCH_QUICK=1``
in the environment (the two are the same thing).

The same code paths with small sizes and few repeats, so that each benchmark finishes in a few
seconds (tests/test_bench.py runs them all this way, so none breaks unnoticed). The figures are
still printed but mean little. Without either (``make bench``) nothing changes.

Read here only, and importable without Django, by the pure-engine benchmarks too: every
benchmark imports this module before it sizes anything, so ``--quick`` works for each of them
with no parsing of its own. ``--quick`` also sets the variable, so that a benchmark's child
processes (bench_federation.py builds and measures in children) are quick too. The flag is left
in ``sys.argv`` for a benchmark that parses its own arguments (load.py has a ``--quick`` too)::

    from _quick import QUICK, repeats, sized

    GAMES = sized(20_000, quick=20)
    report("a page", timed(page, repeats(20)))
"""

from __future__ import annotations

import os
import sys

if "--quick" in sys.argv[1:]:
    os.environ["PROTOKOLL_BENCH_QUICK"] = "1"

QUICK = os.environ.get("PROTOKOLL_BENCH_QUICK", "").strip() not in ("", "0")


def sized[T](full: T, quick: T) -> T:
    """``full`` normally, ``quick`` in quick mode."""
    return quick if QUICK else full


def repeats(runs: int) -> int:
    """How many times to time a thing: ``runs`` normally, at most 3 in quick mode."""
    return min(runs, 3) if QUICK else runs
