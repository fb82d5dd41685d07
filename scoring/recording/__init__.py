"""Recording a game: the same for every game the engine knows.

Callers use ``recording.start_game(…)``, ``recording.append_event(…)``: the names in
``_PUBLIC`` below, each with the module of this package that defines it, loaded on first use
(PEP 562 ``__getattr__``, as the apps' public faces are). The modules, by what they are about:

- ``starting``: a game's seats, rules and setup checked by the engine; a pot game at one
  table at a time, starting from what its pot holds under the club's lock;
- ``replay``: a game's state from its rows (its rules, the engine's new game, the effective
  events) and this process's cache of replayed states;
- ``appending``: one event in one transaction: locked, its turn checked, applied by the engine
  (an illegal event raises ``EventRefused`` and nothing is stored), stored with its money and
  its audit record and the new snapshot;
- ``turns``: what every write to a game does: lock the row, check the phone's turn (a double
  tap is the earlier event, a stale phone gets ``StaleGame``: HTTP 409), seal the event in the
  club's audit chain, store the state, and on a finish write down the league's results
  (``league.owed``, delivered by a task after the commit);
- ``money``: the club account each engine key (``s0``, ``pot``, ``bet:<n>``) stands for, and
  an event's transfers posted with ``ledger.post`` (key ``game:<id>:event:<seq>``);
- ``undoing``: undo (an ``undo`` event that cancels the last effective event and reverses
  its money) and voiding (all of a game's money reversed), the only ways to take a game's
  money back (``ledger.reverse(…, game_recording=True)``);
- ``outcomes``: what a call answers: ``AppendResult``, or ``EventRefused`` / ``StaleGame``.

Inside the package, modules import each other by module (``from scoring.recording import
replay``) and share their underscored helpers; nothing outside needs them but tests and
``scoring.audit`` (the replay's nets). ``scoring.audit`` checks the events, their audit
records and the books against each other.
"""

from importlib import import_module

# Public name → the module of this package that defines it.
_PUBLIC = {
    # what a call answers
    "EventRefused": "scoring.recording.outcomes",
    "StaleGame": "scoring.recording.outcomes",
    "AppendResult": "scoring.recording.outcomes",
    # starting a game
    "start_game": "scoring.recording.starting",
    # a game's state
    "UNDO": "scoring.recording.replay",
    "rules_for": "scoring.recording.replay",
    "effective_events": "scoring.recording.replay",
    "engine_event": "scoring.recording.replay",
    "current_state": "scoring.recording.replay",
    # appending, and what each write does
    "append_event": "scoring.recording.appending",
    "event_audit_data": "scoring.recording.turns",
    # the game's money
    "account_key": "scoring.recording.money",
    # undo and void
    "undo_last": "scoring.recording.undoing",
    "void_game": "scoring.recording.undoing",
    "carried_on": "scoring.recording.undoing",
    "may_undo": "scoring.recording.undoing",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> object:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'scoring.recording' has no attribute {name!r}")
    return getattr(import_module(_PUBLIC[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})
