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

The small pieces several games need live here once: results (``net_by_account``,
``placements``, ``ranked``), seating (``seat_players``, ``left_of``, ``right_of``,
``clockwise``, ``next_in``), reading payloads and rules (``is_whole``, ``check_choices``),
the bounds on money (``MAX_AMOUNT_ORE`` for a money option, ``check_money``; ``MAX_BALANCE_ORE``
for a pot carried in, ``check_pot``) and money in log lines (``kr``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from engine.errors import IllegalEvent, RulesError, _

POT = "pot"

# Bounds on money. The engine never imports Django, so these are constants: MAX_AMOUNT_ORE is
# the default of the club-level ceiling (the setting MAX_AMOUNT_ORE, which may only lower it)
# on any single amount a person chooses — a stake, a unit, a chip; MAX_BALANCE_ORE bounds what
# an account, a pot or a bet may hold (the ledger refuses a posting beyond it), far below the
# database's 64-bit integers so that no sum of bounded amounts can overflow them.
MAX_AMOUNT_ORE = 100_000_000  # 1 000 000 kr
MAX_BALANCE_ORE = 10**15  # 10 000 000 000 000 kr


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
    sign = 1 if higher_is_better else -1
    return ranked(scores, key=lambda p: sign * scores[p], score=scores)


def ranked(
    players: Iterable[str], key: Callable[[str], Any], score: Mapping[str, int]
) -> tuple[Standing, ...]:
    """Standings by ``key``, highest first (a tuple for tie-breaks, e.g. ``(p == winner,
    total)``); equal keys share a placement (1, 1, 3 …) and keep the order given. ``score`` is
    each player's ``Standing.score``."""
    order = sorted(players, key=key, reverse=True)  # a stable sort, also reversed
    result: list[Standing] = []
    for index, player in enumerate(order):
        if index and key(player) == key(order[index - 1]):
            placement = result[-1].placement
        else:
            placement = index + 1
        result.append(Standing(player, placement, score[player]))
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


# --- seats -----------------------------------------------------------------------------------
# Seat order is clockwise ("medsols"): a player's left-hand neighbour is the next seat.


def left_of(players: Sequence[str], player: str) -> str:
    return players[(players.index(player) + 1) % len(players)]


def right_of(players: Sequence[str], player: str) -> str:
    return players[(players.index(player) - 1) % len(players)]


def clockwise(players: Sequence[str], start: str, among: Iterable[str]) -> list[str]:
    """The players of ``among`` in clockwise order, starting at ``start`` (inclusive)."""
    members = set(among)
    i = players.index(start)
    n = len(players)
    return [players[(i + s) % n] for s in range(n) if players[(i + s) % n] in members]


def next_in(players: Sequence[str], after: str, among: Iterable[str]) -> str:
    """The first player of ``among`` clockwise after ``after`` (``after`` himself comes last):
    the next dealer among the players still in."""
    return clockwise(players, left_of(players, after), among)[0]


# --- reading events and rules ----------------------------------------------------------------


def is_whole(value: object) -> bool:
    """Whether a payload value is a whole number: an ``int`` but not a ``bool`` (which is one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_choices(rules: Any) -> None:
    """Refuse a ``Rules`` value outside its ``CHOICES`` (a ``ValueError``, as for any bad
    option): call it from ``Rules.__post_init__``."""
    for name, allowed in rules.CHOICES.items():
        value = getattr(rules, name)
        if value not in allowed:
            raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")


def check_money(rules: Any) -> None:
    """Refuse a money option (a ``Rules`` field named ``*_ore``: stakes, units, chips) that is not
    a whole number of öre from 0 to ``MAX_AMOUNT_ORE`` (a ``RulesError``, a ``ValueError`` with a
    translatable message): call it from ``Rules.__post_init__`` after the game's own checks."""
    for name in (f.name for f in fields(rules) if f.name.endswith("_ore")):
        value = getattr(rules, name)
        if not is_whole(value) or value < 0:
            raise RulesError(
                _("{option} must be a whole number of öre, 0 or more, not {value}"),
                option=name,
                value=repr(value),
            )
        if value > MAX_AMOUNT_ORE:
            raise RulesError(
                _("an amount in the rules can be at most {limit}, not {amount}"),
                option=name,
                limit=kr(MAX_AMOUNT_ORE),
                amount=kr(value),
            )


def check_pot(pot_ore: int) -> None:
    """Refuse a pot or bet carried into a game that is more than any account may hold."""
    if is_whole(pot_ore) and pot_ore > MAX_BALANCE_ORE:
        raise IllegalEvent(
            _("a pot or bet can hold at most {limit}, not {amount}"),
            limit=kr(MAX_BALANCE_ORE),
            amount=kr(pot_ore),
        )


def kr(amount_ore: int) -> str:
    """Öre as Swedish kronor for log lines: 1000 → "10 kr", 1050 → "10,50 kr", -50 → "-0,50 kr"."""
    whole, part = divmod(abs(amount_ore), 100)
    text = f"{whole}" if not part else f"{whole},{part:02d}"
    return f"{'-' if amount_ore < 0 else ''}{text} kr"
