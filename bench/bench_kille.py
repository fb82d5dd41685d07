"""Kille benchmarks (pure engine, one core).

- Replaying an evening of 300 deals from its events (what the recording layer does on a cache
  miss): an evening at a five-player table, played with random legal choices — budrundor, folds,
  walkovers, showings, every fourth deal with its tricks entered card by card. Median and worst
  time per replay, and per event.
- The snapshot of the evening's last state (``dataclasses.asdict`` + JSON), which every recorded
  event stores.
- ``settle_showing`` throughput (the calculator).

Quick mode (``PROTOKOLL_BENCH_QUICK=1``, bench/_quick.py): 20 deals, 3 replays, 2,000 showings.
"""

from __future__ import annotations

import dataclasses
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _quick import sized  # noqa: E402

from engine import kille as k  # noqa: E402
from engine.cards import KILLE_DECK  # noqa: E402

PLAYERS = ("s0", "s1", "s2", "s3", "s4")
DEALS = sized(300, quick=20)
REPLAYS = sized(30, quick=3)


def record_evening(rng: random.Random) -> list[dict]:
    """The events of an evening, made by playing it with random legal choices."""
    state = k.new_game(PLAYERS)
    events: list[dict] = []

    def do(event: dict) -> None:
        nonlocal state
        state = k.apply(state, event)
        events.append(event)

    do({"type": "ante"})
    for number in range(DEALS):
        deck = list(KILLE_DECK)
        rng.shuffle(deck)
        hands = {p: [deck.pop() for _ in range(5)] for p in PLAYERS}
        enter_tricks = number % 4 == 0
        while state.deal_no == number + 1:
            phase = state.phase
            if phase == "declare":
                do({"type": "bud" if rng.random() < 0.4 else "knock", "player": state.to_act})
            elif phase == "fold":  # once round the table, each in turn: stay or fold
                do({"type": "fold" if rng.random() < 0.6 else "stay", "player": state.to_act})
            elif phase == "declare2":
                do({"type": "knock" if rng.random() < 0.5 else "bud", "player": state.to_act})
            elif phase == "tricks" and enter_tricks:
                highest, cards = None, {}
                for player in k.clockwise(state.players, state.leader, state.active):
                    hand = hands[player]
                    allowed = hand if highest is None else [c for c in hand if c >= highest]
                    card = rng.choice(allowed or [min(hand)])
                    hand.remove(card)
                    cards[player] = card.label
                    highest = card if highest is None else max(highest, card)
                do({"type": "trick", "cards": cards})
            elif phase == "tricks":
                do({"type": "fourth_trick", "player": rng.choice(state.active)})
            elif phase == "showing":
                do({"type": "show" if rng.random() < 0.6 else "bud", "player": state.to_act})
            elif phase == "reveal":
                do(
                    {
                        "type": "reveal",
                        "cards": {p: rng.choice(hands[p]).label for p in state.active},
                    }
                )
    return events


def replay(events: list[dict]) -> k.State:
    state = k.new_game(PLAYERS)
    for event in events:
        state = k.apply(state, event)
    return state


rng = random.Random(300)
events = record_evening(rng)
final = replay(events)
outcomes = {
    o: sum(1 for row in final.deals if row.outcome == o)
    for o in ("budrunda", "walkover", "showing")
}
print(
    f"an evening of {len(final.deals)} deals, 5 players: {len(events):,} events "
    f"({', '.join(f'{n} {o}' for o, n in outcomes.items())})"
)

times = []
for _ in range(REPLAYS):
    start = time.perf_counter()
    replay(events)
    times.append((time.perf_counter() - start) * 1000)
median = statistics.median(times)
print(
    f"replay from events                   median {median:8.1f} ms, worst {max(times):8.1f} ms "
    f"({median * 1000 / len(events):.1f} µs per event)"
)

start = time.perf_counter()
for _ in range(REPLAYS):
    json.dumps(dataclasses.asdict(final))
elapsed = (time.perf_counter() - start) * 1000 / REPLAYS
print(f"snapshot of the last state (asdict + JSON)     {elapsed:8.2f} ms")

N = sized(50_000, quick=2_000)
showings = []
for _ in range(N):
    cards = rng.sample(KILLE_DECK, 4)
    showings.append(dict(zip(PLAYERS, cards, strict=False)))
start = time.perf_counter()
for cards in showings:
    k.settle_showing(cards, first="s0", fourth_trick="s1", pot_ore=1200, players=PLAYERS)
elapsed = time.perf_counter() - start
print(f"settle_showing                       {N / elapsed:>12,.0f} showings/s")
