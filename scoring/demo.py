"""Demo evenings: three weekly club evenings recorded through the real recording path.

Every week the club plays a Kille evening whose pot carries over to the next, a couple of
cribbage games to 121 for a small stake, and other tables: a whist evening of rubbers, two
Polskt pass evenings (pot and betar carried over) and one or two games of every other game.

Nothing here names a game. Each game's pad hook (``scoring/games/<key>.py``) says, as its
``Pad.demo``, at which tables of which evening it is played (``Table``) and how
(``Demo.generator``); the evenings' programme is gathered from the hooks of the games the engine
registry knows, each evening's tables by their number. A game whose hook has a demo is in the
demo, with no edit here.

Each table has a small seeded generator that looks at the engine's state and proposes the next
event, as the pad would; the engine accepts it or refuses it (then the generator proposes
another). Nothing here knows a rule the engine does not check, so the demo stays legal and its
money conserved, and with fixed seeds it is the same every time.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

import league
import ledger
from club.models import Club, Member, User
from engine import registry
from engine.errors import EngineError
from ledger.models import AccountKind
from scoring import games, recording
from scoring.models import Game
from scoring.recording import replay

SEED = 2026
EVENINGS = 3
DEPOSIT_ORE = 20000  # each member's money in the club box before the first evening


@dataclass(frozen=True)
class Table:
    """One game of an evening: which evening (0, 1, 2), its number there (the order in which
    the evening's tables are drawn and seeded), when it starts and ends (hours after 19:00), how
    many play."""

    evening: int
    number: int
    players: int
    start: float
    hours: float
    rules: dict[str, Any] = field(default_factory=dict)
    length: int = 0  # deals before the scorer ends an open-ended evening (Kille, Polskt pass)
    host: bool = False  # the demo login plays here, so his own pages have something to show

    def __post_init__(self) -> None:
        if not 0 <= self.evening < EVENINGS:
            raise ValueError(f"the demo has evenings 0 to {EVENINGS - 1}, not {self.evening}")


@dataclass(frozen=True)
class Demo:
    """A game's part in the demo (its pad hook's ``Pad.demo``): its tables, and the generator
    that plays one of them (``generator(table, rng)``, a ``Generator``)."""

    generator: Callable[[Table, random.Random], Generator]
    tables: tuple[Table, ...]


def programme() -> tuple[tuple[tuple[str, Table], ...], ...]:
    """The club's programme, one tuple of (game key, table) per evening in table order, from
    the pad hooks of the games the registry knows (two games at one number: by key)."""
    evenings: list[list[tuple[int, str, Table]]] = [[] for _ in range(EVENINGS)]
    for info in registry.all_games():
        demo = games.pad_for(info.key).demo
        for table in demo.tables if demo else ():
            evenings[table.evening].append((table.number, info.key, table))
    return tuple(
        tuple((key, table) for _number, key, table in sorted(tables, key=lambda t: t[:2]))
        for tables in evenings
    )


@transaction.atomic
def record_evenings(club: Club, user: User) -> None:
    """Three weekly evenings of club play, once: a club with postings is left alone."""
    if club.transactions.exists():
        return
    members = list(Member.objects.for_club(club).order_by("name"))
    host = next((m for m in members if m.user_id == user.pk), members[0])
    first = timezone.localtime() - timedelta(days=7 * EVENINGS)
    first = first.replace(hour=19, minute=0, second=0, microsecond=0)
    cash = ledger.system_account(club, AccountKind.CASH)
    for member in members:
        ledger.post(
            club,
            ledger.legs_for_transfer(cash, ledger.member_account(member), DEPOSIT_ORE),
            "Insättning",
            "manual",
            user,
            date=(first - timedelta(days=1)).date(),
        )
    rng = random.Random(SEED)
    for week, tables in enumerate(programme()):
        evening = first + timedelta(days=7 * week)
        busy: dict[int, float] = {}  # member id → when (hours after 19:00) his table ends
        for key, table in tables:
            free = [m for m in members if busy.get(m.pk, 0) <= table.start]
            if table.host:
                others = rng.sample([m for m in free if m != host], table.players - 1)
                players = [*others[:1], host, *others[1:]]
            else:
                players = rng.sample(free, table.players)
            for member in players:
                busy[member.pk] = table.start + table.hours
            game = recording.start_game(
                club, key, players, user, rules=table.rules, setup=games.start_setup(club, key)
            )
            table_rng = random.Random(f"{SEED}:{week}:{table.number}:{key}")
            when, hours = evening + timedelta(hours=table.start), timedelta(hours=table.hours)
            generator = games.pad_for(key).demo.generator(table, table_rng)
            _play(game, generator, user, when, hours)
            _backdate(game, when, hours)
    # The results reach the league when the games' transaction commits (recording's
    # ``_record_result``); rebuild the tables once they are all in.
    transaction.on_commit(lambda: league.recompute_club(club))


# --- playing a table ---------------------------------------------------------------------------

MAX_EVENTS = 2000


class Generator:
    """Proposes the next event from the engine's state; told when the engine accepted one."""

    def propose(self, state) -> dict:
        raise NotImplementedError

    def accepted(self, event: dict, state) -> None:
        """Called with each accepted event and the state after it."""

    def refused(self, event: dict, error: Exception) -> None:
        """Called when the engine refused a proposal; the next proposal is another try."""


def _play(
    game: Game, generator: Generator, user: User, when: datetime, duration: timedelta
) -> None:
    """Record the game's events, spread over the time the table played (``when`` onwards).

    The generator plays the game on the engine first (it is pure and cheap), so the number of
    events, and with it each event's time, is known before the first one is recorded: events
    are sealed in the audit trail as recorded, so their times are never moved afterwards."""
    events = _rehearse(game, generator)
    step = duration / max(len(events), 1)
    _state, nets = recording.current_state(game)
    seq = game.seq
    for index, event in enumerate(events, start=1):
        payload = {k: v for k, v in event.items() if k != "type"}
        result = recording.append_event(
            game,
            event["type"],
            payload,
            expected_seq=seq,
            idempotency_key=f"demo-{game.pk}-{seq}",
            by=user,
            at=when + step * index,
        )
        seq = result.event.seq
        nets = _keep_cached(game, seq, result.state, nets)


def _rehearse(game: Game, generator: Generator) -> list[dict]:
    """The events the generator's proposals make on the engine until the game is over."""
    module = registry.get(game.game_key).module
    state, _nets = recording.current_state(game)
    accepted = []
    for _attempt in range(MAX_EVENTS):
        if state.finished:
            return accepted
        event = generator.propose(state)
        try:
            state = module.apply(state, event)
        except EngineError as error:
            generator.refused(event, error)
            continue
        accepted.append(event)
        generator.accepted(event, state)
    raise RuntimeError(f"the demo {game.game_key} game #{game.pk} did not finish")


def _keep_cached(game: Game, seq: int, state, nets: dict[str, int]) -> dict[str, int]:
    """Put the state after an append into the recording path's state cache, as the append
    itself does once its transaction commits. The whole demo is one transaction, so without
    this every append would replay its game from the first event (half of the load time)."""
    nets = replay._add_nets(nets, state.transfers)
    game.seq = seq
    replay._remember(game, (state, nets))
    return nets


def _backdate(game: Game, when: datetime, duration: timedelta) -> None:
    """Demo games happened on earlier evenings: move their times (and results) back (the
    events were recorded at their times, see ``_play``)."""
    finished = when + duration
    type(game).objects.filter(pk=game.pk).update(started_at=when, finished_at=finished)


class Queue(Generator):
    """A generator that plans a whole deal (or more) at once and hands out its events in order;
    ``plan`` makes the next batch when the last one is used up."""

    def __init__(self, table: Table, rng: random.Random):
        self.table = table
        self.rng = rng
        self.pending: list[dict] = []

    def plan(self, state) -> list[dict]:
        raise NotImplementedError

    def propose(self, state) -> dict:
        if not self.pending:
            self.pending = self.plan(state)
        return self.pending[0]

    def accepted(self, event: dict, state) -> None:
        if self.pending and self.pending[0] is event:
            self.pending.pop(0)
        else:
            self.pending = []

    def refused(self, event: dict, error: Exception) -> None:
        # A planned deal follows the rules card by card: a refusal is a bug, not bad luck.
        raise RuntimeError(f"the engine refused a planned demo event {event}: {error}")


class Each(Generator):
    """A generator from a plain function of (state, rng) to the next event."""

    def __init__(self, table: Table, rng: random.Random, make: Callable):
        self.table = table
        self.rng = rng
        self.make = make

    def propose(self, state) -> dict:
        return self.make(state, self.rng, self.table)


def split(total: int, parts: int, rng: random.Random) -> list[int]:
    """``total`` (the tricks of a deal) shared at random among ``parts`` players."""
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def each(make: Callable) -> Callable[[Table, random.Random], Generator]:
    """A game's demo generator from a plain function of (state, rng, table) to the next
    event."""
    return lambda table, rng: Each(table, rng, make)
