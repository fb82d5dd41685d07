"""A toy game for testing the recording mechanism apart from any real game's rules.

Events: ``stake`` {player, amount} pays into the pot; ``score`` {player, points};
``win`` {player} takes the pot and ends the game.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.base import POT, Declaration, Standing, Transfer, placements
from engine.errors import IllegalEvent, Line, Ore, _

KEY = "toy"
NAME = _("Toy")
MIN_PLAYERS, MAX_PLAYERS = 2, 4
EVENT_TYPES = ("stake", "score", "win")
# Its pot is filled by stakes within a game; nothing carries over, so it is no pot game.
GAME = Declaration(KEY, NAME, MIN_PLAYERS, MAX_PLAYERS, EVENT_TYPES)


@dataclass(frozen=True)
class Rules:
    max_stake_ore: int = 10_000


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    rules: Rules
    pot_ore: int = 0
    scores: tuple[int, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = EVENT_TYPES
    log: tuple[str, ...] = ()


def new_game(players, rules=Rules(), pot_ore: int = 0) -> State:
    return State(tuple(players), rules, pot_ore, tuple(0 for _ in players))


def _player(state: State, event: dict) -> int:
    if event.get("player") not in state.players:
        raise IllegalEvent(f"no player {event.get('player')!r}")
    return state.players.index(event["player"])


def apply(state: State, event: dict) -> State:
    if state.finished:
        raise IllegalEvent("the game is over")
    index = _player(state, event)
    player = state.players[index]
    if event["type"] == "stake":
        amount = event.get("amount")
        if not isinstance(amount, int) or not 0 < amount <= state.rules.max_stake_ore:
            raise IllegalEvent(f"a stake of {amount!r} öre is not allowed")
        return replace(
            state,
            pot_ore=state.pot_ore + amount,
            transfers=(Transfer(player, POT, amount),),
            log=(Line(_("{player} stakes {amount}"), player=player, amount=Ore(amount)),),
        )
    if event["type"] == "score":
        scores = list(state.scores)
        scores[index] += int(event["points"])
        return replace(
            state,
            scores=tuple(scores),
            transfers=(),
            log=(Line(_("{player} +{points}"), player=player, points=event["points"]),),
        )
    if event["type"] == "win":
        if state.pot_ore == 0:
            raise IllegalEvent("the pot is empty")
        scores = list(state.scores)
        scores[index] += 100
        return replace(
            state,
            pot_ore=0,
            scores=tuple(scores),
            finished=True,
            expected=(),
            transfers=(Transfer(POT, player, state.pot_ore),),
            standings=placements(dict(zip(state.players, scores, strict=True))),
            log=(Line(_("{player} takes the pot"), player=player),),
        )
    raise IllegalEvent(f"unknown event {event['type']!r}")
