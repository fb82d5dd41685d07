"""Per-game hooks for the table pages: one ``Pad`` per game, declared in the game's module
``scoring/games/<key>.py`` as ``PAD`` and registered here.

Design: a game is described in two places only — its rules in ``engine/<key>.py`` (found by
``engine.registry``) and its table pages here. A ``Pad`` says, explicitly, everything the pages
need beyond the engine:

- ``template``: the pad template (``scoring/pads/<key>.html``; a game without one gets the
  generic pad, which records any event from a JSON payload);
- ``css``: its own stylesheet under ``static/`` (``css/pads/<key>.css``), if any;
- ``context(game, state, seats) -> dict``: what its template needs beyond the engine's state
  (``state`` is the engine's ``State``, from the replay cache, so a hook reads the engine's
  fields and properties; ``seats`` the game's seats in order, as the view loaded them, so a hook
  runs no query of its own for names);
- ``start_setup(club, table) -> dict``: engine arguments fixed when a game starts besides players,
  rules and first dealer (the outstanding betar of the club's Polskt pass), passed to
  ``new_game`` as keywords and stored in ``Game.setup`` so that replays never change;
- ``calculator``: the dotted path of its calculator module (``urlpatterns`` and ``LINKS``), if
  it has one;
- ``demo``: its part in the demo club's evenings (``scoring.demo.Demo``: the tables it is
  played at and the generator that plays it), if any;
- ``evening_status(snapshot, players) -> list[Rival]``: who is ahead at a club evening's board
  (``scoring.evening_status``; a game without one is read by its ``scores``, else by money).

The built-in games' hook modules are found on first use, one per game the engine registry
knows, by its key; a game from elsewhere (the test suite's toy game) joins with
``register(Pad(...))``. The helpers below are
shared by the hooks.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine import registry

GENERIC_TEMPLATE = "scoring/pads/_generic.html"


@dataclass(frozen=True)
class Pad:
    key: str
    template: str = GENERIC_TEMPLATE
    css: str | None = None
    context: Callable[..., dict[str, Any]] | None = None
    start_setup: Callable[[Any, int | None], dict[str, Any]] | None = None
    calculator: str | None = None
    demo: Any = None  # a scoring.demo.Demo; not imported here, the demo needs the whole app
    evening_status: Callable[..., list] | None = None


_PADS: dict[str, Pad] = {}


@functools.cache
def _find_the_hooks() -> None:
    """Import ``scoring/games/<key>.py`` for every game the engine registry found, where the
    module exists: the hooks are found by the game's key, not listed. Done on first use, not
    on import: each hook imports this package's helpers, so importing the hooks from here
    while this package loads would be a circle."""
    for key in registry.game_keys():
        if importlib.util.find_spec(f"{__name__}.{key}") is not None:
            importlib.import_module(f"{__name__}.{key}")


def register(pad: Pad) -> Pad:
    _PADS[pad.key] = pad
    return pad


def unregister(key: str) -> None:
    _PADS.pop(key, None)


def pad_for(game_key: str) -> Pad:
    """The game's hook, or the generic pad for a game without one."""
    _find_the_hooks()
    return _PADS.get(game_key) or Pad(game_key)


def pads() -> list[Pad]:
    _find_the_hooks()
    return list(_PADS.values())


def pad_context(game, state, seats: list) -> dict[str, Any]:
    hook = pad_for(game.game_key).context
    return hook(game, state, seats) if hook else {}


def start_setup(club, game_key: str, table: int | None = None) -> dict[str, Any]:
    """What a new game of this club starts from besides players, rules and first dealer: the
    pot carried over (for a game whose ``new_game`` takes ``pot_ore``; the club's, or table
    number ``table``'s at a club evening), then the game's own hook (Polskt pass: the
    outstanding betar, of that table)."""
    import ledger  # noqa: PLC0415

    setup: dict[str, Any] = {}
    if registry.get(game_key).declaration.plays_from_pot:
        pot = ledger.game_pot(club, game_key, table=table, create=False)
        setup["pot_ore"] = pot.balance_ore if pot else 0
    hook = pad_for(game_key).start_setup
    return setup | (hook(club, table) if hook else {})


def draw_first_dealer(info, seated: list, setup: dict[str, Any]) -> tuple[list, dict[str, Any]]:
    """The app draws the first dealer among the ``seated`` (the start form's tick): a game that
    takes one (its declaration says so) is told which seat deals; one that deals from the first
    seat has the table turned so that the drawn player sits first."""
    if info.declaration.draws_first_dealer:
        return seated, setup | {"first_dealer": f"s{secrets.randbelow(len(seated))}"}
    turn = secrets.randbelow(len(seated))
    return seated[turn:] + seated[:turn], setup


def names_of(seats: Iterable) -> dict[str, str]:
    """Each seat's player name by seat key (``s0`` → ``Anna Berg``)."""
    return {seat.key: seat.name for seat in seats}


def short_names(names: dict[str, str]) -> dict[str, str]:
    """First names, unless two players share one: then the full names."""
    first = {key: name.split()[0] if name.split() else name for key, name in names.items()}
    taken = list(first.values())
    return {key: first[key] if taken.count(first[key]) == 1 else names[key] for key in names}
