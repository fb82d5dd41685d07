"""Card-level simulators (issue 25): each shuffles the game's real deck, deals, plays random
*legal* deals to the end (random legal choices; the rules text's obligations, such as "you must
play if you can", obeyed) and emits the events a pad would record.

They are used both ways, per game, in ``tests/engine/simulate/test_<game>.py``:

- **no false refusals**: every simulated legal deal is accepted by the engine and scores what
  the simulator itself counted, where it counts;
- **no impossible acceptance**: one recorded fact of a simulated deal is mutated (a card moved,
  a count bumped, who held what swapped); the engine must refuse it unless the mutated deal is
  still producible (the simulator or an exhaustive search finds a deal that yields it).

The suite runs a small, seeded number of deals per game (well under a minute for all games
together); ``PROTOKOLL_SIMULATE=N`` runs N deals per game for a long run, and each test reports
what it ran (``report``) so a long run's numbers can be read off with ``pytest -s``.
"""

from __future__ import annotations

import os
import random
from types import ModuleType
from typing import Any

from engine.errors import IllegalEvent

# Deals per game in the suite, unless PROTOKOLL_SIMULATE says otherwise.
DEFAULT_DEALS = 200


def deals(default: int = DEFAULT_DEALS) -> int:
    """How many deals a simulator test runs: ``PROTOKOLL_SIMULATE`` or the test's default."""
    value = os.environ.get("PROTOKOLL_SIMULATE", "").strip()
    return int(value) if value.isdigit() and int(value) > 0 else default


def rng(seed: int) -> random.Random:
    """A seeded random source: a failing deal is reproduced from its seed."""
    return random.Random(seed)


def report(game: str, **counts: int) -> None:
    """Print what a simulator test ran (seen with ``pytest -s``)."""
    figures = ", ".join(f"{name} {value}" for name, value in counts.items())
    print(f"[simulate] {game}: {figures}")  # noqa: T201 - the long run's report


def apply_all(game: ModuleType, state: Any, events: list[dict]) -> Any:
    """``state`` after ``events``, applied by ``game``'s engine one by one."""
    for event in events:
        state = game.apply(state, event)
    return state


def accepted(game: ModuleType, state: Any, events: list[dict]) -> Any:
    """``state`` after ``events``, or None if the engine refuses one of them."""
    try:
        return apply_all(game, state, events)
    except IllegalEvent:
        return None
