"""The surface every game module shares.

A game module (``engine/cribbage.py``, ``engine/kille.py`` …) defines:

- module constants ``KEY`` (the game key, e.g. ``"kille"``), ``NAMES`` (``{"sv": …, "en": …}``),
  ``MIN_PLAYERS`` and ``MAX_PLAYERS``, ``EVENT_TYPES`` (tuple of event type names);
- ``Rules``: a frozen dataclass of the options a club can choose, the rules text's defaults as
  defaults; amounts in öre (int);
- ``new_game(players, rules) -> State`` and ``apply(state, event) -> State``. ``players`` is a
  sequence of opaque player keys (strings, in seat order); ``event`` is a dict with a ``"type"``
  key and a JSON payload. ``apply`` is pure (returns a new State, never mutates) and raises
  ``engine.errors.IllegalEvent`` with a human message for an event the rules do not allow now;
- ``State``: a frozen dataclass of JSON-friendly values with at least the fields of
  ``StateFields`` below.

Money is ``Transfer(payer, payee, amount_ore)`` where payer and payee are player keys or named
pots (``"pot"``, ``"bet:3"``). A transfer moves money, so nets are conserved by construction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import IllegalEvent, _

POT = "pot"


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount_ore: int

    def __post_init__(self) -> None:
        if self.amount_ore <= 0:
            raise ValueError(f"a transfer moves a positive amount, not {self.amount_ore}")
        if self.payer == self.payee:
            raise ValueError("a transfer needs two different accounts")


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's result in a finished game: placement 1 is the winner (ties share)."""

    player: str
    placement: int
    score: int


@dataclass(frozen=True)
class StateFields:
    """The fields every game's State has (game States may subclass or repeat them).

    - ``players``: the player keys in seat order;
    - ``transfers``: the transfers produced by the *last* applied event (empty tuple if none);
    - ``finished``: whether the game is over;
    - ``standings``: the result once finished (else empty tuple);
    - ``expected``: the event types allowed next (for the pad's buttons);
    - ``log``: short human-readable lines (Swedish game terms) of what the last event did.
    """

    players: tuple[str, ...]
    transfers: tuple[Transfer, ...] = ()
    finished: bool = False
    standings: tuple[Standing, ...] = ()
    expected: tuple[str, ...] = ()


def net_by_account(transfers: Iterable[Transfer]) -> dict[str, int]:
    """Sum transfers into each account's net (payee +, payer −). The values always sum to 0."""
    nets: dict[str, int] = {}
    for t in transfers:
        nets[t.payer] = nets.get(t.payer, 0) - t.amount_ore
        nets[t.payee] = nets.get(t.payee, 0) + t.amount_ore
    return nets


def placements(scores: dict[str, int], higher_is_better: bool = True) -> tuple[Standing, ...]:
    """Standings from final scores, ties sharing a placement (1, 1, 3 …), in score order."""
    order = sorted(scores, key=lambda p: scores[p], reverse=higher_is_better)
    result: list[Standing] = []
    for index, player in enumerate(order):
        if index and scores[player] == scores[order[index - 1]]:
            placement = result[-1].placement
        else:
            placement = index + 1
        result.append(Standing(player, placement, scores[player]))
    return tuple(result)


def seat_players(
    players, game_name: str, min_players: int, max_players: int, first_dealer: str | None = None
) -> tuple[tuple[str, ...], str]:
    """Check a seating and pick the first dealer (G2: the scorer picks; default the first seat).

    Returns the players as a tuple and the first dealer; raises ``IllegalEvent`` for a count the
    game does not allow, a player seated twice, or a dealer who is not at the table.
    """
    seated = tuple(players)
    if not min_players <= len(seated) <= max_players:
        allowed = str(min_players) if min_players == max_players else f"{min_players}–{max_players}"
        raise IllegalEvent(
            _("{game} is for {allowed} players, not {count}"),
            game=game_name,
            allowed=allowed,
            count=len(seated),
        )
    for player in seated:
        if seated.count(player) > 1:
            raise IllegalEvent(_("player {player} is seated twice"), player=player)
    dealer = seated[0] if first_dealer is None else first_dealer
    if dealer not in seated:
        raise IllegalEvent(_("the first dealer {player} is not one of the players"), player=dealer)
    return seated, dealer
