"""A game's state from its rows: its rules, the engine's new game, its events replayed.

Events are append-only, so a game's state is the engine's ``new_game`` (the seats' keys
``s0``, ``s1`` …, the club's rules options, the setup it started from) with the effective
events applied in order: all but ``undo`` events and the events they cancelled. Each
account's net so far (``s0``, ``pot``, ``bet:3`` …) is summed from the transfers the events
made; a start moves no money.

Replaying is only the truth: this process keeps its last replayed states in a small cache
(``_STATE_CACHE``, keyed by the game's id, start time and seq), so an append on a busy game
applies only the new event, and a process a few events behind (another gunicorn worker
recorded them) applies only those. An undo among them changes which earlier events count,
so that is a full replay. The snapshot stored on ``Game`` is this state as JSON, with a record
(``RESTORE``) that a process whose cache misses restores the state from instead of replaying
(``_restored``, ``engine.snapshots``): only while the engine that made it is today's, else the
events are replayed (they are the truth).

Relies on the engine's registry and ``Game.played`` (the game's resolved module) and on
``scoring.messages`` for the engine's refusals in the reader's language. The package's other
modules use the underscored helpers here; other code asks ``current_state``.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import sys
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import gettext as _

from engine import registry
from engine.base import net_by_account
from engine.errors import EngineError
from engine.snapshots import SnapshotMismatch, restore
from scoring.messages import engine_message, lines_of_log, sentence
from scoring.models import Event, Game
from scoring.recording.outcomes import EventRefused

UNDO = "undo"


def rules_for(game_key: str, options: dict) -> Any:
    module = registry.get(game_key).module
    fields = {f.name for f in dataclasses.fields(module.Rules)}
    unknown = set(options) - fields
    if unknown:
        raise EventRefused(
            _("Unknown rules options: %(names)s") % {"names": ", ".join(sorted(unknown))},
            code="rules",
        )
    try:
        return module.Rules(**options)
    except EngineError as error:  # e.g. a stake above the engine's bound, in the user's language
        raise EventRefused(sentence(engine_message(error, sentence=False)), code="rules") from None
    except (TypeError, ValueError) as error:
        raise EventRefused(str(error), code="rules") from None


# The last replayed state per game: appends on a busy game replay nothing but the new event.
# Only a cache: a miss replays from the events. Keyed by id, start time and seq, because an
# id alone can come back (SQLite reuses the row ids of rolled-back inserts).
_STATE_CACHE: OrderedDict[tuple, tuple[Any, dict[str, int]]] = OrderedDict()
_CACHE_SIZE = 256


def effective_events(events: Sequence[Event]) -> list[Event]:
    """The events that count: all but undo events and the events they cancelled."""
    undone = {e.payload.get("undoes") for e in events if e.type == UNDO}
    return [e for e in events if e.type != UNDO and e.seq not in undone]


def engine_event(event: Event) -> dict:
    return {**event.payload, "type": event.type}


def _new_state(game: Game) -> Any:
    module = game.played.module
    players = [seat.key for seat in game.seats.all()]  # a check of many games prefetched them
    try:
        return module.new_game(players, rules_for(game.game_key, game.rules), **game.setup)
    except EngineError as error:
        raise EventRefused(engine_message(error, sentence=False), code="illegal") from None


def _replay(game: Game, events: Sequence[Event]) -> Any:
    state, _nets = _replay_with_nets(game, events)
    return state


def _replay_with_nets(game: Game, events: Sequence[Event]) -> tuple[Any, dict[str, int]]:
    module = game.played.module
    state = _new_state(game)
    # Money moves only with events (a start posts nothing), so new_game's state has none.
    transfers = []
    for event in effective_events(events):
        state = module.apply(state, engine_event(event))
        transfers.extend(state.transfers)
    return state, net_by_account(transfers)


def _cache_key(game: Game) -> tuple:
    return (game.pk, game.started_at.isoformat(), game.seq)


def current_state(game: Game) -> tuple[Any, dict[str, int]]:
    """The engine's state after the game's last event, and each account's net so far.

    From the cache; else from this process's newest cached state of the game, with only the
    events after it applied (another process recorded them: each gunicorn worker has a cache of
    its own); else restored from the game's snapshot (``_restored``); else replayed from all
    events."""
    key = _cache_key(game)
    cached = _STATE_CACHE.get(key)
    if cached is not None:
        _STATE_CACHE.move_to_end(key)
        return cached
    result = _caught_up(game) or _restored(game)
    if result is None:
        result = _replay_with_nets(game, list(_replay_events(game)))
    _remember(game, result)
    return result


def _replay_events(game: Game, after: int = 0):
    """The events up to ``game.seq`` that a replay reads, with only the fields it uses
    (``effective_events``, ``engine_event``)."""
    events = game.events.filter(seq__gt=after, seq__lte=game.seq)
    return events.only("game_id", "seq", "type", "payload").order_by("seq")


def _caught_up(game: Game) -> tuple[Any, dict[str, int]] | None:
    """The newest cached state of this game at an earlier seq, brought up to ``game.seq`` by
    applying the events after it; None when there is none, or when an undo is among those
    events (it changes which earlier events count: that is a replay)."""
    pk, started_at, seq = _cache_key(game)
    base = max(
        (k[2] for k in _STATE_CACHE if k[0] == pk and k[1] == started_at and k[2] < seq),
        default=None,
    )
    if base is None:
        return None
    events = list(_replay_events(game, after=base))
    if any(e.type == UNDO for e in events) or len(events) != seq - base:
        return None
    module = game.played.module
    state, nets = _STATE_CACHE[(pk, started_at, base)]
    for event in events:
        state = module.apply(state, engine_event(event))
        nets = _add_nets(nets, state.transfers)
    return state, nets


def _remember(game: Game, result: tuple[Any, dict[str, int]]) -> None:
    _STATE_CACHE[_cache_key(game)] = result
    while len(_STATE_CACHE) > _CACHE_SIZE:
        _STATE_CACHE.popitem(last=False)


def _snapshot(state: Any, nets: dict[str, int]) -> dict:
    data = dataclasses.asdict(state)
    data["nets"] = nets
    # What a cold process restores the state from (``_restored``): the engine it was made by,
    # and the log as lines (``data["log"]`` holds only their English text).
    # As text: PostgreSQL's jsonb keeps an object's keys in an order of its own, and a pad
    # shows some dicts in the order the engine made them.
    kept = {**data, "log": lines_of_log(getattr(state, "log", ()))}
    data[RESTORE] = {
        "engine": _engine_of(type(state).__module__),
        "state": json.dumps(kept, cls=DjangoJSONEncoder),
    }
    # Through JSON once, so the snapshot is exactly what the database will hold.
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def _restored(game: Game) -> tuple[Any, dict[str, int]] | None:
    """The state and nets at ``game.seq`` from the game's stored snapshot, or None: when the
    game has moved on since ``game`` was read, when the snapshot was made by another engine
    (``_engine_of``: then today's engine might replay the events differently, and the replay is the
    truth) or when it does not hold a state of the game's shape (``engine.snapshots``)."""
    snapshot = (
        Game.objects.filter(pk=game.pk, seq=game.seq).values_list("snapshot", flat=True).first()
    )
    kept = snapshot.get(RESTORE) if isinstance(snapshot, dict) else None
    engine = _engine_of(game.played.module.__name__)
    if not isinstance(kept, dict) or kept.get("engine") != engine:
        return None
    try:
        data = json.loads(kept["state"])
        nets = data.pop("nets")
        state = restore(game.played.module.State, data, data.pop("log"))
    except (SnapshotMismatch, KeyError, TypeError, ValueError):
        return None
    return state, nets


@functools.cache
def _engine_of(module_name: str) -> str:
    """Which engine made a snapshot: the source of the game's module and of ``engine/``, and
    the names of scoring's migrations (a data migration may change how a stored game replays,
    as 0004 and 0005 did). Any change to them and snapshots are replayed, not restored."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    own = getattr(sys.modules.get(module_name), "__file__", None)
    for path in [*sorted((root / "engine").glob("*.py")), *([Path(own)] if own else [])]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for path in sorted((root / "scoring" / "migrations").glob("*.py")):
        digest.update(path.name.encode())
    return digest.hexdigest()[:16]


RESTORE = "restore"  # the snapshot's key for what ``_restored`` reads


def _add_nets(nets: dict[str, int], transfers) -> dict[str, int]:
    merged = dict(nets)
    for account, amount in net_by_account(transfers).items():
        merged[account] = merged.get(account, 0) + amount
    return merged
