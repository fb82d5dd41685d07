"""Cribbage benchmarks (pure engine, one core).

- ``hand_points`` throughput on random hands (hands per second), and ``score_hand`` with the
  full breakdown; the peer package ``cribbage-scorer`` (a benchmark-only dependency, the
  ``bench`` extra) on the same hands as a yardstick.
- The time to score all 12,994,800 hand + starter combinations as hands and as cribs
  (``distribution()``: one pass, rank points looked up per hand and starter rank, suits counted).
- Discard advice for a 6-card hand, exact crib included: median and worst of 1,000 random hands.
- The table of totals each starter rank allows (``IMPOSSIBLE_WITH_STARTER``) recomputed by brute
  force for all 13 ranks (13 x 249,900 hands, each as a hand and as a crib) and checked.

Quick mode (``PROTOKOLL_BENCH_QUICK=1``, bench/_quick.py): 2,000 hands, a deck of 20 cards for
the distribution, 20 discard advices, one starter rank by brute force.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _quick import sized  # noqa: E402

from engine import cribbage as c  # noqa: E402
from engine.cards import FULL_DECK  # noqa: E402

rng = random.Random(121)
N = sized(200_000, quick=2_000)
FULL_BREAKDOWN, PEER = sized(20_000, quick=1_000), sized(5_000, quick=500)
DISTRIBUTION_DECK = sized(tuple(range(52)), quick=tuple(range(20)))  # 5 ranks, 4 suits
ADVICE, RANKS = sized(1_000, quick=20), sized(range(1, 14), quick=range(5, 6))
shows = [rng.sample(range(52), 5) for _ in range(N)]

start = time.perf_counter()
for s in shows:
    c.hand_points(s[:4], s[4])
elapsed = time.perf_counter() - start
print(f"hand_points (fast path)              {N / elapsed:>12,.0f} hands/s")

cards = [[c.number_card(n) for n in s] for s in shows[:FULL_BREAKDOWN]]
start = time.perf_counter()
for s in cards:
    c.score_hand(s[:4], s[4])
elapsed = time.perf_counter() - start
print(f"score_hand (full breakdown)          {len(cards) / elapsed:>12,.0f} hands/s")

try:
    import cribbage_scorer.cribbage_scorer as peer
except ImportError:
    print("cribbage-scorer not installed (pip install -e '.[bench]'): no yardstick")
else:
    letters = {"H": "H", "D": "D", "C": "C", "S": "S"}
    peer_shows = [[(x.rank, letters[x.suit.value]) for x in s] for s in cards[:PEER]]
    start = time.perf_counter()
    for s in peer_shows:
        peer.show_calc_score(s[4], s[:4])
    elapsed = time.perf_counter() - start
    print(f"cribbage-scorer show_calc_score      {len(peer_shows) / elapsed:>12,.0f} hands/s")

start = time.perf_counter()
hands, cribs = c.distribution(DISTRIBUTION_DECK)
elapsed = time.perf_counter() - start
total = sum(hands.values())
print(
    f"all {total:,} hand+starter combinations as hands and as cribs: {elapsed:.2f} s "
    f"({2 * total / elapsed:,.0f} scores/s)"
)

times = []
for _ in range(ADVICE):
    six = rng.sample(FULL_DECK, 6)
    begin = time.perf_counter()
    c.discard_advice(six, is_dealer=rng.random() < 0.5)
    times.append((time.perf_counter() - begin) * 1000)
print(
    f"discard advice, {ADVICE:,} random hands: median {statistics.median(times):.2f} ms, "
    f"worst {max(times):.2f} ms"
)

start = time.perf_counter()
for rank in RANKS:
    assert c.impossible_totals_by_brute_force(rank) == c.IMPOSSIBLE_WITH_STARTER[rank], rank
elapsed = time.perf_counter() - start
print(
    f"totals per starter rank by brute force, {len(RANKS)} of 13 ranks: {elapsed:.2f} s "
    "(table agrees)"
)
