"""Property tests over every engine (issue 14, item 3): random streams of events — real events
from the engine tests, the same with one part broken, and events made up from hostile values —
make ``apply`` either return a new state or refuse with an ``EngineError``, never another
exception. Every accepted stream moves only whole, positive amounts between known accounts
(nets sum to zero), keeps the state JSON-serialisable, and replays to the same state.

The seeds (``property_seeds.json``) are streams the engine tests themselves play, recorded
with their players, rules and setup (by wrapping each module's ``new_game`` and ``apply``
during a run of ``tests/engine``; up to four streams of up to 30 events per game, chosen to
cover the event types), so that generated streams get deep into a game: a stream follows its
seed, and a broken event that is refused leaves the seed's next event still to come.

"Refused" is any ``EngineError`` (``IllegalEvent``, ``CardError`` …): the web layer catches
that class and shows its message. ``EXAMPLES`` and ``DERANDOMIZE`` are module constants so
that a longer, random hunt can be run by hand (set them, then call the test function).
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import registry
from engine.base import POT, is_whole, net_by_account
from engine.errors import EngineError

SEEDS = json.loads((Path(__file__).parent / "property_seeds.json").read_text(encoding="utf-8"))
GAMES = [info.key for info in registry.all_games()]
STEPS = 16  # events per stream, at most
EXAMPLES = 80  # streams per game
DERANDOMIZE = True

HOSTILE_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([0, 1, -1, 2, 5, 13, 29, 121, 500, 10**30, -(10**30), 2**63]),
    st.integers(min_value=-3, max_value=60),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.5, 1.0, -0.0]),
    st.sampled_from(["", "ZZ", "a\x00", "pot", "bet:1", "10♠", "XX", "11", "♠", "-1", "nan"]),
    st.text(max_size=4),
)


@functools.cache
def hostile_values(key: str) -> st.SearchStrategy:
    """Hostile values (nested in lists and in dicts with odd keys) mixed with the values seen
    in the game's real events (players, cards, choices)."""
    seen = vocabulary(key)[1]
    leaves = st.one_of(HOSTILE_SCALARS, st.sampled_from(seen)) if seen else HOSTILE_SCALARS
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(st.one_of(leaves, st.integers(0, 3)), inner, max_size=3),
        ),
        max_leaves=6,
    )


def _walk(value, keys: set, leaves: list) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            keys.add(key)
            leaves.append(key)
            _walk(item, keys, leaves)
    elif isinstance(value, list):
        for item in value:
            _walk(item, keys, leaves)
    else:
        leaves.append(value)


@functools.cache
def vocabulary(key: str) -> tuple[list, list]:
    """The payload keys and the leaf values (players, cards, numbers) of the game's seeds."""
    keys: set = set()
    leaves: list = []
    for seed in SEEDS[key]:
        for event in seed["events"]:
            _walk({k: v for k, v in event.items() if k != "type"}, keys, leaves)
    unique = sorted({json.dumps(v) for v in leaves})[:200]
    return sorted(keys), [json.loads(v) for v in unique]


def _paths(value, path=()):
    """Every place in a payload a value could be replaced at."""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _replace(value, path, new):
    if not path:
        return new
    head, *rest = path
    copied = copy.copy(value)
    copied[head] = _replace(value[head], tuple(rest), new)
    return copied


def next_event(draw, key: str, source: dict) -> dict:
    """The seed's next event as it is, broken in one place, missing a key, with one key too
    many, or an event made up from the game's payload keys and hostile values."""
    module = registry.get(key).module
    keys = vocabulary(key)[0]
    values = hostile_values(key)
    kind = draw(st.sampled_from(["seed", "seed", "seed", "break", "drop", "extra", "made_up"]))
    event = copy.deepcopy(source)
    if kind == "break":
        path = draw(st.sampled_from(list(_paths(source))[1:] or [("type",)]))
        event = _replace(event, path, draw(values))
    elif kind == "drop" and len(event) > 1:
        event.pop(draw(st.sampled_from(sorted(k for k in event if k != "type"))))
    elif kind == "extra":
        event[draw(st.sampled_from([*keys, "zz", 1]))] = draw(values)
    elif kind == "made_up":
        types = st.sampled_from([*module.EVENT_TYPES, "", "nope", None, 3, "DEAL", ["deal"]])
        names = draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)) if keys else []
        event = {"type": draw(types), **{name: draw(values) for name in names}}
    return event


def _start(key: str, seed: dict):
    module = registry.get(key).module
    return module, module.new_game(
        seed["players"], module.Rules(**seed["rules"]), **copy.deepcopy(seed["setup"])
    )


def _check_money(state, accounts: set[str], all_transfers: list) -> None:
    for transfer in state.transfers:
        assert is_whole(transfer.amount_ore), transfer
        assert transfer.amount_ore > 0, transfer
        assert transfer.payer in accounts or transfer.payer.startswith("bet:"), transfer
        assert transfer.payee in accounts or transfer.payee.startswith("bet:"), transfer
    all_transfers.extend(state.transfers)
    assert sum(net_by_account(all_transfers).values()) == 0


@pytest.mark.parametrize("key", GAMES)
def test_random_events_are_applied_or_refused_and_accepted_streams_keep_the_invariants(key):
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=DERANDOMIZE,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(st.data())
    def check(data):
        seed = data.draw(st.sampled_from(SEEDS[key]))
        module, state = _start(key, seed)
        accounts = {*state.players, POT}
        accepted, transfers, position = [], [], 0
        for _ in range(data.draw(st.integers(min_value=1, max_value=STEPS))):
            source = seed["events"][position % len(seed["events"])]
            event = next_event(data.draw, key, source)
            before = dataclasses.asdict(state)
            try:
                new = module.apply(state, copy.deepcopy(event))
            except EngineError:
                assert dataclasses.asdict(state) == before
                continue
            state = new
            position += 1
            accepted.append(event)
            _check_money(state, accounts, transfers)
            json.dumps(dataclasses.asdict(state), allow_nan=False)
        _, replayed = _start(key, seed)
        for event in accepted:
            replayed = module.apply(replayed, copy.deepcopy(event))
        assert replayed == state

    check()


def test_the_seeds_cover_every_game():
    assert sorted(SEEDS) == sorted(GAMES)
