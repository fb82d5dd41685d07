"""Demo evenings: three weekly club evenings recorded through the real recording path.

Every week the club plays a Kille evening whose pot carries over to the next, a couple of
cribbage games to 121 for a small stake, and other tables: a whist evening of rubbers, two
Polskt pass evenings (pot and betar carried over) and one or two games of every other game.

Each table has a small seeded generator that looks at the engine's state and proposes the next
event, as the pad would; the engine accepts it or refuses it (then the generator proposes
another). Nothing here knows a rule the engine does not check, so the demo stays legal and its
money conserved, and with fixed seeds it is the same every time.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

import league
from club.models import Club, Member, User
from engine import cribbage, fantan, registry
from engine import kille as kille_engine
from engine import polskt_pass as pp_engine
from engine.cards import KILLE_DECK, parse_kille_card
from engine.errors import EngineError
from ledger import services as ledger
from ledger.models import AccountKind
from scoring import games, recording
from scoring.models import Game

SEED = 2026
EVENINGS = 3
DEPOSIT_ORE = 20000  # each member's money in the club box before the first evening
CRIBBAGE_STAKE_ORE = 500  # a small stake: 5 kr a game, 10 for a skunk, 15 for a double


@dataclass(frozen=True)
class Table:
    """One game of an evening: when it starts and ends (hours after 19:00), how many play."""

    key: str
    players: int
    start: float
    hours: float
    rules: dict[str, Any] = field(default_factory=dict)
    length: int = 0  # deals before the scorer ends an open-ended evening (Kille, Polskt pass)
    host: bool = False  # the demo login plays here, so his own pages have something to show


CRIBBAGE = {"stake_ore": CRIBBAGE_STAKE_ORE}

# The club's programme, one list per evening: Kille every week from 19:00 to half past nine,
# beside it whist or Polskt pass; cribbage before and after; the small games fill the night.
PROGRAMME: tuple[tuple[Table, ...], ...] = (
    (
        Table("cribbage", 2, 0, 1, CRIBBAGE),
        Table("kille", 5, 0, 2.5, length=12, host=True),
        Table("whist", 4, 0, 2.5),
        Table("nittionio", 3, 1, 1),
        Table("cribbage", 2, 2.5, 1, CRIBBAGE, host=True),
        Table("fyrtioett", 4, 2.5, 1),
        Table("kille_elimination", 5, 2.5, 0.75),
    ),
    (
        Table("cribbage", 2, 0, 1, CRIBBAGE),
        Table("kille", 5, 0, 2.5, length=13, host=True),
        Table("polskt_pass", 4, 0, 2.5, length=10),
        Table("president", 3, 1, 0.75),
        Table("cribbage", 2, 2.5, 1, CRIBBAGE),
        Table("stopp", 4, 2.5, 0.75),
        Table("vandatta", 3, 2.5, 0.75),
        Table("kasino", 2, 2.5, 0.5),
    ),
    (
        Table("cribbage", 2, 0, 1, CRIBBAGE),
        Table("kille", 5, 0, 2.5, length=11, host=True),
        Table("polskt_pass", 4, 0, 2.5, length=10),
        Table("tvamanswhist", 2, 1, 0.75),
        Table("femhundra", 3, 2, 1),
        Table("cribbage", 2, 2.5, 1, CRIBBAGE, host=True),
        Table("fantan", 4, 2.5, 0.5, {"deals": 3}),
        Table("kasino", 2, 2.5, 0.5),
    ),
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
    known = {info.key for info in registry.all_games()}
    rng = random.Random(SEED)
    for week, tables in enumerate(PROGRAMME):
        evening = first + timedelta(days=7 * week)
        busy: dict[int, float] = {}  # member id → when (hours after 19:00) his table ends
        for number, table in enumerate(tables):
            if table.key not in known:
                continue
            free = [m for m in members if busy.get(m.pk, 0) <= table.start]
            if table.host:
                others = rng.sample([m for m in free if m != host], table.players - 1)
                players = [*others[:1], host, *others[1:]]
            else:
                players = rng.sample(free, table.players)
            for member in players:
                busy[member.pk] = table.start + table.hours
            game = recording.start_game(
                club,
                table.key,
                players,
                user,
                rules=table.rules,
                setup=games.start_setup(club, table.key),
            )
            table_rng = random.Random(f"{SEED}:{week}:{number}:{table.key}")
            when, hours = evening + timedelta(hours=table.start), timedelta(hours=table.hours)
            _play(game, GENERATORS[table.key](table, table_rng), user, when, hours)
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
    nets = recording._add_nets(nets, state.transfers)
    game.seq = seq
    recording._remember(game, (state, nets))
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


def _split(total: int, parts: int, rng: random.Random) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


# --- cribbage: real cards, pegging played out, hands and crib counted by the engine -------------


class Cribbage(Queue):
    careless: dict[str, float] | None = None

    def plan(self, state) -> list[dict]:
        rng = self.rng
        deck = list(range(52))
        rng.shuffle(deck)
        order = cribbage.show_order(state)  # the dealer's left first, the dealer last
        hands: dict[str, list[int]] = {}
        crib: list[int] = []
        deal_size = 6 if len(order) == 2 else 5
        if not self.careless:  # how often each player throws without thinking
            self.careless = {p: rng.choice((0.05, 0.1, 0.6)) for p in state.players}
        for player in order:
            dealt = [deck.pop() for _ in range(deal_size)]
            hands[player] = _keep(dealt, deck, rng, self.careless[player])
            crib += [c for c in dealt if c not in hands[player]]
        while len(crib) < 4:
            crib.append(deck.pop())
        starter = deck.pop()
        events: list[dict] = [{"type": "starter", "card": _card(starter)}]
        for player, points in _pegging(order, hands, rng):
            events.append({"type": "peg", "player": player, "points": points})
        for player in order:
            events.append({"type": "show", "player": player, "cards": _cards(hands[player])})
        events.append({"type": "crib", "cards": _cards(crib)})
        return events


def _card(number: int) -> str:
    return str(cribbage.number_card(number))


def _cards(numbers) -> list[str]:
    return [_card(n) for n in numbers]


def _keep(dealt: list[int], unseen: list[int], rng: random.Random, careless: float) -> list[int]:
    """The four cards a club player keeps: the best average over a few possible starters, but
    now and then a careless throw (which is how skunks happen)."""
    if rng.random() < careless:
        return rng.sample(dealt, 4)
    starters = rng.sample(unseen, 8)
    best = max(
        itertools.combinations(dealt, 4),
        key=lambda keep: sum(cribbage.hand_points(keep, s) for s in starters) + rng.random(),
    )
    return list(best)


def _pegging(order: list[str], hands: dict[str, list[int]], rng: random.Random):
    """The play, card by card: (player, points) for every play or go that scores."""
    held = {p: [cribbage.number_card(n) for n in hands[p]] for p in order}
    scores: list[tuple[str, int]] = []
    pile: list = []
    last: str | None = None
    turn = order[0]

    def count() -> int:
        return sum(min(c.rank, 10) for c in pile)

    def can_play(player: str) -> list:
        return [c for c in held[player] if count() + min(c.rank, 10) <= 31]

    def after(player: str) -> str:
        return order[(order.index(player) + 1) % len(order)]

    while any(held.values()):
        if not any(can_play(p) for p in order):
            scores.append((last, 1))  # go: the last to play takes one
            pile, turn = [], after(last)
            continue
        playable = can_play(turn)
        if playable:
            card = max(playable, key=lambda c: (cribbage.peg_points(pile, c).points, rng.random()))
            peg = cribbage.peg_points(pile, card)
            held[turn].remove(card)
            pile.append(card)
            last = turn
            if peg.points:
                scores.append((turn, peg.points))
            if peg.count == 31:
                pile = []
        turn = after(turn)
    if pile:
        scores.append((last, 1))  # the last card
    return scores


# --- Kille: deals played from dealt hands, the play rule followed -------------------------------


class Kille(Generator):
    """Declarations, knocks, stays and folds at random, tricks played by the rule (overtake or equal
    if you can, else your lowest) in every other deal, the showing from the cards left."""

    def __init__(self, table: Table, rng: random.Random):
        self.table = table
        self.rng = rng
        self.deal_no = 0
        self.hands: dict[str, list] = {}
        self.talon: list = []

    def _deal(self, state) -> None:
        if self.deal_no == state.deal_no:
            return
        deck = list(KILLE_DECK)
        self.rng.shuffle(deck)
        self.hands = {p: [deck.pop() for _ in range(5)] for p in state.players}
        self.talon = deck
        self.deal_no = state.deal_no

    def propose(self, state) -> dict:
        rng = self.rng
        if state.phase == "ante":
            return {"type": "ante"}
        if state.phase == "declare" and not state.calls and state.deal_no > self.table.length:
            return {"type": "end_evening"}
        self._deal(state)
        if state.phase == "fold":  # in turn, from the knocker's left
            return {"type": "fold" if rng.random() < 0.3 else "stay", "player": state.to_act}
        if "exchange" in state.expected and state.phase == "declare2" and rng.random() < 0.3:
            counts = {p: rng.choice((0, 0, 1, 2)) for p in state.active}
            return {"type": "exchange", "counts": counts}
        if state.phase == "tricks":
            if state.deal_no % 2:
                return {"type": "trick", "cards": self._trick(state)}
            return {"type": "fourth_trick", "player": rng.choice(state.active)}
        if state.phase == "showing":
            return {"type": "bud" if rng.random() < 0.4 else "show", "player": state.to_act}
        if state.phase == "reveal":
            return {"type": "reveal", "cards": {p: self._last(p) for p in state.active}}
        return {"type": "bud" if rng.random() < 0.6 else "knock", "player": state.to_act}

    def _trick(self, state) -> dict:
        highest, cards = None, {}
        for player in kille_engine.clockwise(state.players, state.leader, state.active):
            hand = self.hands[player]
            over = [c for c in hand if highest is not None and c >= highest]
            allowed = hand if highest is None else over or [min(hand)]
            card = self.rng.choice(allowed)
            cards[player] = card.label
            highest = card if highest is None else max(highest, card)
        return cards

    def _last(self, player: str) -> str:
        hand = self.hands[player]
        return (hand[0] if len(hand) == 1 else self.rng.choice(hand)).label

    def accepted(self, event: dict, state) -> None:
        if event["type"] == "exchange":
            for player, count in event["counts"].items():
                hand = self.hands[player]
                for _ in range(count):
                    hand.remove(self.rng.choice(hand))
                    hand.append(self.talon.pop())
        elif event["type"] == "trick":
            for player, label in event["cards"].items():
                self.hands[player].remove(parse_kille_card(label))


def _kille_elimination(state, rng: random.Random, table: Table) -> dict:
    if state.phase == "calls":
        kind = "declare" if rng.random() < 0.3 else "pass"
        return {"type": kind, "player": state.to_act}
    if state.phase == "reveal":
        deck = list(KILLE_DECK)
        rng.shuffle(deck)
        return {"type": "reveal", "cards": {p: deck.pop().label for p in state.players_in}}
    return {"type": "fourth_trick", "player": rng.choice(state.players_in)}


# --- Polskt pass ------------------------------------------------------------------------------


def _polskt_pass(state, rng: random.Random, table: Table) -> dict:
    """Turn-ups as they come, the spelförare taking a trick a bit more often than the others;
    la vola now and then; the evening ends after ``table.length`` deals."""
    if state.phase == pp_engine.DEAL:
        # The evening ends after its deals once a bet is left to carry over (or the pot, or
        # nothing, when it gets late).
        played = len(state.sheet)
        late = played - table.length
        if late >= 0 and (state.betar or (state.pot_ore and late >= 3) or late >= 6):
            return {"type": "end"}
        ranks = pp_engine.FIVE_PLAYER_RANKS if len(state.players) == 5 else pp_engine.RANKS
        rank = rng.choice([*ranks, pp_engine.OTHER, pp_engine.OTHER])
        event = {
            "type": "deal",
            "suit": rng.choice(pp_engine.SUITS),
            "rank": rank,
            "cutter_jack": rng.random() < 0.05,
        }
        if rank == "A" and not event["cutter_jack"]:
            event["dealer_takes"] = rng.random() < 0.5
        return event
    current = state.current
    if state.phase == pp_engine.BIDDING:
        if rng.random() < 0.45:
            return {"type": "all_pass"}
        player = rng.choice(state.players)
        if current.round == 1:
            return {"type": "bid", "player": player}
        turned = current.turned_suit
        suits = [s for s in pp_engine.SUITS if player == current.forhand or s != turned]
        return {"type": "bid", "player": player, "suit": rng.choice(suits)}
    if pp_engine.la_vola_possible(state) and rng.random() < 0.3:
        return {"type": "la_vola", "player": current.trick_winners[0]}
    spelforare = list(current.spelforare)
    weights = [2 if p in spelforare else 1 for p in state.players]
    return {"type": "trick", "winner": rng.choices(state.players, weights)[0]}


# --- whist, the partnership and trick-count games ----------------------------------------------


def _whist(state, rng: random.Random, table: Table) -> dict:
    if len(state.rubbers) >= 2:
        return {"type": "end_evening"}
    event = {"type": "deal", "tricks": {str(rng.randint(0, 1)): rng.choice((7, 7, 7, 8, 8, 9, 10))}}
    held = rng.choice((2, 2, 2, 1, 3, 1, 3, 0, 4))  # side 0's honours; side 1 held the rest
    event["honours"] = f"{held}-{4 - held}"
    return event


def _fyrtioett(state, rng: random.Random, table: Table) -> dict:
    seats = list(state.players)
    tricks = _split(13, 4, rng)
    bids = [max(1, min(13, t + rng.choice((-1, 0, 0, 1)))) for t in tricks]
    return {
        "type": "deal",
        "bids": dict(zip(seats, bids, strict=True)),
        "tricks": dict(zip(seats, tricks, strict=True)),
    }


def _nittionio(state, rng: random.Random, table: Table) -> dict:
    seats = list(state.players)
    tricks = _split(9, 3, rng)
    bids = [max(0, min(9, t + rng.choice((-1, 0, 0, 1)))) for t in tricks]
    event = {
        "type": "deal",
        "bids": dict(zip(seats, bids, strict=True)),
        "tricks": dict(zip(seats, tricks, strict=True)),
    }
    if rng.random() < 0.15:
        event["calls"] = {rng.choice(seats): "declare"}
    return event


def _femhundra(state, rng: random.Random, table: Table) -> dict:
    seats = list(state.players)
    declarer = rng.choice(seats)
    tricks = _split(10, len(seats), rng)
    level = max(6, min(10, tricks[seats.index(declarer)] + rng.choice((-1, 0, 1, 2))))
    # The auction: from förhand, those before the declarer pass, he bids, the rest pass.
    start = seats.index(state.forhand)
    turns = seats[start:] + seats[:start]
    bid = f"{level}{rng.choice(('S', 'C', 'D', 'H', 'NT'))}"
    return {
        "type": "deal",
        "auction": [bid if player == declarer else "pass" for player in turns],
        "tricks": dict(zip(seats, tricks, strict=True)),
    }


def _tvamanswhist(state, rng: random.Random, table: Table) -> dict:
    return {"type": "deal", "tricks": {rng.choice(state.players): rng.randint(3, 10)}}


# --- the going-out games -----------------------------------------------------------------------


def _vandatta(state, rng: random.Random, table: Table) -> dict:
    winner = rng.choice(state.active)
    event: dict[str, Any] = {"type": "deal", "winner": winner}
    for player in state.active:
        if player == winner:
            continue
        counts = {
            "eights": rng.choice((0, 0, 0, 1)),
            "aces": rng.choice((0, 0, 1)),
            "courts": rng.randint(0, 2),
            "numbers": rng.randint(1, 3),
        }
        for category, count in counts.items():
            event.setdefault(category, {})[player] = count
    return event


def _stopp(state, rng: random.Random, table: Table) -> dict:
    winner = rng.choice(state.active)
    cards = {p: 0 if p == winner else rng.choice((0, 1, 1, 2, 2, 3, 4)) for p in state.active}
    return {"type": "deal", "cards": cards}


def _president(state, rng: random.Random, table: Table) -> dict:
    order = list(state.players)
    rng.shuffle(order)
    return {"type": "deal", "order": order}


def _fantan(state, rng: random.Random, table: Table) -> dict:
    if state.phase == "count":
        sizes = fantan.hand_sizes(state)
        still_in = [p for p in state.players if p not in state.out]
        return {"type": "cards_left", "cards": {p: rng.randint(1, sizes[p]) for p in still_in}}
    still_in = [p for p in state.players if p not in state.out]
    return {"type": "out", "player": rng.choice(still_in)}


def _kasino(state, rng: random.Random, table: Table) -> dict:
    players = list(state.players)
    return {
        "type": "deal",
        "most_cards": rng.choice([*players, "tie"]) if len(players) > 2 else rng.choice(players),
        "most_spades": rng.choice(players),
        "big_casino": rng.choice(players),
        "little_casino": rng.choice(players),
        "aces": [rng.choice(players) for _ in range(4)],
        "last": rng.choice(players),
        "tabbar": {p: rng.choice((0, 0, 1, 2)) for p in players},
    }


def _each(make: Callable) -> Callable[[Table, random.Random], Generator]:
    return lambda table, rng: Each(table, rng, make)


GENERATORS: dict[str, Callable[[Table, random.Random], Generator]] = {
    "cribbage": Cribbage,
    "kille": Kille,
    "kille_elimination": _each(_kille_elimination),
    "polskt_pass": _each(_polskt_pass),
    "whist": _each(_whist),
    "fyrtioett": _each(_fyrtioett),
    "nittionio": _each(_nittionio),
    "femhundra": _each(_femhundra),
    "vandatta": _each(_vandatta),
    "stopp": _each(_stopp),
    "president": _each(_president),
    "kasino": _each(_kasino),
    "tvamanswhist": _each(_tvamanswhist),
    "fantan": _each(_fantan),
}
