"""The surface every game module shares.

A game module (``engine/cribbage.py``, ``engine/kille.py`` …) defines:

- module constants ``KEY`` (the game key, e.g. ``"kille"``), ``NAME`` (English, marked ``_``),
  ``MIN_PLAYERS`` and ``MAX_PLAYERS``, ``EVENT_TYPES`` (tuple of event type names);
- ``GAME``: its ``Declaration`` — those constants and what the game can do (plays from a pot
  carried between games, keeps betar that outlive a game, lets the app draw the first dealer),
  as data the rest of the app reads instead of inspecting
  functions. ``engine.registry`` finds a game module by its ``GAME``;
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
from dataclasses import field as dataclasses_field
from typing import Any

from engine.errors import IllegalEvent, Line, RulesError, Text, _, listed

POT = "pot"

# Bounds on money. The engine never imports Django, so these are constants: MAX_AMOUNT_ORE is
# the default of the club-level ceiling (the setting MAX_AMOUNT_ORE, which may only lower it)
# on any single amount a person chooses — a stake, a unit, a chip; MAX_BALANCE_ORE bounds what
# an account, a pot or a bet may hold (the ledger refuses a posting beyond it), far below the
# database's 64-bit integers so that no sum of bounded amounts can overflow them.
MAX_AMOUNT_ORE = 100_000_000  # 1 000 000 kr
MAX_BALANCE_ORE = 10**15  # 10 000 000 000 000 kr


@dataclass(frozen=True)
class Declaration:
    """What a game is, in one place (a game module's ``GAME``).

    ``plays_from_pot``: ``new_game`` takes ``pot_ore``, the pot carried over from the club's
    last game (Kille); the app keeps one pot per game (per table at an evening).
    ``keeps_betar``: bets (betar) outlive the game that made them and are played for in a later
    one (Polskt pass); the pad hook passes the outstanding ones to ``new_game``.
    ``draws_first_dealer``: ``new_game`` takes ``first_dealer``, so the app may draw him.
    ``position``: where the Play page lists the game (lower first; ties by key)."""

    key: str
    name: Text
    min_players: int
    max_players: int
    event_types: tuple[str, ...]
    plays_from_pot: bool = False
    keeps_betar: bool = False
    draws_first_dealer: bool = False
    position: int = 100

    def __post_init__(self) -> None:
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.key}: players from {self.min_players} to {self.max_players}")
        if not self.event_types:
            raise ValueError(f"{self.key}: a game records at least one kind of event")


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


# --- event payloads --------------------------------------------------------------------------
# Every event type declares its payload: which keys it takes, which of them it needs, and what
# kind of value each holds. ``dispatch`` checks an event against the declaration before its
# handler runs, so a handler reads only keys that exist and hold the right kind of value, and a
# typo (``{"call": …}`` for ``{"calls": …}``) is refused instead of being read as "nothing
# given". The checks here are about form (a player at the table, a whole number in range, a
# card's text); what the rules allow now is the handler's to refuse.
#
# A refusal is read by the person at the table, so it names things in his words, never a
# payload key (issue 25): each event type and each field declares ``words``, a phrase marked
# for translation ("a deal", "the tricks taken"), and the messages are built from those. Only
# a key or a type the game does not know is quoted: the client sent it.
#
#     EVENTS = {
#         "deal": EventType(_play_deal, _("a deal"), {
#             "bids": need(PerPlayer(OneOf(Whole(0, 9), …)), _("the bids")),
#             "turn_up": may(CardName(), _("the turned-up card")),
#         }),
#     }
#     EVENT_TYPES = event_types(EVENTS)
#
#     def apply(state, event):
#         return dispatch(state, event, EVENTS, game=NAME)
#
# An optional key given as ``null`` counts as not given (a form leaves an empty field out; a
# JSON client may send null). Every message is a translatable template.

MAX_LIST = 60  # no event of any game lists more values than a deck holds cards (with jokers)


class Kind:
    """What one payload value must be: ``accepts`` checks it, ``describe`` says it in words."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        raise NotImplementedError

    def describe(self) -> Any:
        raise NotImplementedError

    def refusal(self, event: Any, field: Any, value: Any, players: Sequence[str]) -> Any:
        """Why ``value`` is not of this kind (an ``IllegalEvent`` naming the event and the
        field in words: their ``words``), or None if it is."""
        if self.accepts(value, players):
            return None
        return IllegalEvent(
            _("{event}: {field} must be {kind}, not {value}"),
            event=event,
            field=field,
            kind=self.describe(),
            value=_shown(value),
        )


@dataclass(frozen=True)
class Player(Kind):
    """The key of a player at the table."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return isinstance(value, str) and value in players

    def describe(self) -> Any:
        return _("a player at the table")


@dataclass(frozen=True)
class ListOf(Kind):
    """A list of ``least``–``most`` values of one kind (``of``), each at most once if
    ``distinct``; ``words`` says what it is (else "a list, each …")."""

    of: Kind
    least: int = 0
    most: int = MAX_LIST
    distinct: bool = False
    words: Any = None

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return (
            isinstance(value, list)
            and self.least <= len(value) <= self.most
            and all(self.of.accepts(item, players) for item in value)
            and (not self.distinct or len(set(map(repr, value))) == len(value))
        )

    def describe(self) -> Any:
        return self.words or IllegalEvent(_("a list, each {kind}"), kind=self.of.describe())


def Players(least: int = 0, most: int = MAX_LIST) -> ListOf:
    """A list of players at the table, each at most once."""
    return ListOf(Player(), least, most, True, _("a list of players at the table, each once"))


@dataclass(frozen=True)
class Whole(Kind):
    """A whole number from ``low`` to ``high`` (a ``bool`` is not one)."""

    low: int
    high: int

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return is_whole(value) and self.low <= value <= self.high

    def describe(self) -> Any:
        return IllegalEvent(_("a whole number from {low} to {high}"), low=self.low, high=self.high)


@dataclass(frozen=True)
class Empty(Kind):
    """No value (``null``): inside a mapping, "nothing to record for this player"."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return value is None

    def describe(self) -> Any:
        return _("empty")


@dataclass(frozen=True)
class Flag(Kind):
    """``true`` or ``false``."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return isinstance(value, bool)

    def describe(self) -> Any:
        return _("true or false")


@dataclass(frozen=True)
class Choice(Kind):
    """One of a few words (``"pass"``, ``"declare"``, ``"show"``)."""

    values: tuple[str, ...]

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return isinstance(value, str) and value in self.values

    def describe(self) -> Any:
        return IllegalEvent(_("one of {values}"), values=", ".join(self.values))


@dataclass(frozen=True)
class CardName(Kind):
    """A card as text (``"5h"``, ``"hj kn"``, ``"joker"``): the game parses it with its own
    deck and says what is wrong with a card it cannot read; this checks only that it is a
    short text, so that a number or a list never reaches the parser."""

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return isinstance(value, str) and 0 < len(value.strip()) <= 24

    def describe(self) -> Any:
        return _("a card (e.g. 5h, hj kn)")


def CardNames(least: int = 0, most: int = MAX_LIST) -> ListOf:
    """A list of cards as text (see ``CardName``)."""
    return ListOf(CardName(), least, most, False, _("a list of cards"))


@dataclass(frozen=True)
class PerPlayer(Kind):
    """A mapping from players at the table to values of one kind (``of``); ``every``: all
    players must be in it (else any of them may be)."""

    of: Kind
    every: bool = False

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return (
            isinstance(value, Mapping)
            and all(Player().accepts(key, players) for key in value)
            and all(self.of.accepts(item, players) for item in value.values())
            and (not self.every or len(value) == len(players))
        )

    def describe(self) -> Any:
        template = (
            _("a value for every player at the table, each {kind}")
            if self.every
            else _("players at the table, each with {kind}")
        )
        return IllegalEvent(template, kind=self.of.describe())

    def refusal(self, event: Any, field: Any, value: Any, players: Sequence[str]) -> Any:
        if not isinstance(value, Mapping):
            return super().refusal(event, field, value, players)
        for player, item in value.items():
            if not Player().accepts(player, players):
                return IllegalEvent(
                    _("{event}: {field}: {player} is not a player in this game"),
                    event=event,
                    field=field,
                    player=_shown(player),
                )
            if not self.of.accepts(item, players):
                return IllegalEvent(
                    _("{event}: {field}: {player} must be {kind}, not {value}"),
                    event=event,
                    field=field,
                    player=player,
                    kind=self.of.describe(),
                    value=_shown(item),
                )
        missing = [player for player in players if player not in value]
        if self.every and missing:
            return IllegalEvent(
                _("{event}: {field}: {player} is missing"),
                event=event,
                field=field,
                player=missing[0],
            )
        return None


@dataclass(frozen=True)
class OneOf(Kind):
    """Any of several kinds (a bid given as a number, as bid cards, or as "missed")."""

    kinds: tuple[Kind, ...]

    def __init__(self, *kinds: Kind) -> None:
        object.__setattr__(self, "kinds", kinds)

    def accepts(self, value: Any, players: Sequence[str]) -> bool:
        return any(kind.accepts(value, players) for kind in self.kinds)

    def describe(self) -> Any:
        return IllegalEvent(
            _("{first} or {second}"),
            first=self.kinds[0].describe(),
            second=OneOf(*self.kinds[1:]).describe()
            if len(self.kinds) > 2
            else self.kinds[1].describe(),
        )


def _check_words(words: Any, what: str) -> None:
    """A declaration's ``words``: a phrase marked for translation (``_("the tricks taken")``,
    or a ``Line`` with values), so that a refusal can say it in the reader's language."""
    if not isinstance(words, Text | Line) or not words.strip():
        raise TypeError(f"{what} needs words a player would use, marked with _(), not {words!r}")


@dataclass(frozen=True)
class Field:
    """One key of a payload: its kind, what its value is in the reader's words (``words``: "the
    tricks taken", "the turned-up card"; refusals name the field by them, never by its key),
    and whether the event needs it."""

    kind: Kind
    words: Text
    required: bool = True

    def __post_init__(self) -> None:
        _check_words(self.words, "a payload field")


def need(kind: Kind, words: Text) -> Field:
    return Field(kind, words, required=True)


def may(kind: Kind, words: Text) -> Field:
    return Field(kind, words, required=False)


@dataclass(frozen=True)
class EventType:
    """One event type of a game: the handler ``(state, event) -> State``, what the event is in
    the reader's words (``words``: "a deal", "a knock"; refusals name the
    event by them, never by its type) and its payload."""

    handler: Callable[[Any, Mapping[str, Any]], Any]
    words: Text
    payload: Mapping[str, Field] = dataclasses_field(default_factory=dict)

    def __post_init__(self) -> None:
        _check_words(self.words, "an event type")


def event_types(events: Mapping[str, EventType]) -> tuple[str, ...]:
    """A game's ``EVENT_TYPES``: the names of its handler table, in its order."""
    return tuple(events)


def check_payload(event_type: EventType, event: Mapping[str, Any], players) -> None:
    """Refuse a payload that does not match its event type's declaration: an unknown key (quoted:
    the client sent it), a missing key, or a value of the wrong kind, each named in words."""
    payload = event_type.payload
    for key in event:
        if key != "type" and key not in payload:
            if payload:
                raise IllegalEvent(
                    _("{event} records nothing called {key}; it records {fields}"),
                    event=event_type.words,
                    key=_shown(key),
                    fields=listed(field.words for field in payload.values()),
                )
            raise IllegalEvent(
                _("{event} records nothing called {key}; it records only that it happened"),
                event=event_type.words,
                key=_shown(key),
            )
    for key, field in payload.items():
        value = event.get(key)
        if value is None:
            if field.required:
                raise IllegalEvent(
                    _("{event} needs {field}"), event=event_type.words, field=field.words
                )
            continue
        refusal = field.kind.refusal(event_type.words, field.words, value, players)
        if refusal is not None:
            raise refusal


def dispatch(state: Any, event: Any, events: Mapping[str, EventType], game: str) -> Any:
    """Check an event's type and payload against the game's table, then run its handler."""
    if not isinstance(event, Mapping):
        raise IllegalEvent(_("an event is a mapping with a type, not {value}"), value=_shown(event))
    kind = event.get("type")
    event_type = events.get(kind) if isinstance(kind, str) else None
    if event_type is None:
        known = listed(each.words for each in events.values())
        if kind is None:
            raise IllegalEvent(
                _("an event needs a type; {game} records {types}"), game=game, types=known
            )
        raise IllegalEvent(
            _("{game} records nothing called {kind}; it records {types}"),
            kind=_shown(kind),
            game=game,
            types=known,
        )
    check_payload(event_type, event, state.players)
    return event_type.handler(state, event)


def _shown(value: Any) -> str:
    """A value in a message: its repr, cut short (a hostile payload can be long)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
