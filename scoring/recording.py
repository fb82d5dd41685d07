"""Recording a game: the same for every game the engine knows.

Appending an event is one database transaction:

1. lock the game row (``select_for_update``): phones on the same game take turns;
2. the same idempotency key as an earlier event → that event, nothing new (a double tap);
3. the client's ``expected_seq`` must equal ``Game.seq``, else ``StaleGame`` (HTTP 409) with
   the events the phone missed;
4. replay the game's effective events through the engine and apply the new one; an illegal
   event raises ``EventRefused`` with the engine's message and nothing is stored;
5. store the event and the new snapshot, post the event's money with ``ledger.post``
   (idempotent by the key ``game:<id>:event:<seq>``) and seal the event in the club's audit
   chain (``ledger.append_audit``; undo and void are sealed too, ``scoring.audit``
   checks the events against their records);
6. when the game finishes, write down that the league owes its results (``league.owed``, in
   this same transaction; an undo from the finish or a void owes their removal): a task
   delivers them after the commit, and a sweep does if the broker was away.

Undo appends an ``undo`` event that cancels the last effective event: the state is replayed
without it and its money is reversed. Voiding (admin) reverses all of a game's money. These two
are the only ways to take a game's money back: ``ledger.reverse`` refuses a game's
transaction unless called from here with ``game_recording=True``, so the events stay the one
source of truth (``scoring.audit`` checks that the books agree with them).

Player keys in the engine are the seats' ``s0``, ``s1`` …; pots are ``pot`` and ``bet:<n>``,
mapped to the club's pot accounts for that game. A game at a club evening's table seats
tonight's attendees (``Seat.attendee``; someone not checked in is checked in as the game
starts): a guest's money there goes to the guest's account for the evening. A guest at a game
outside an evening has no account: the money goes through the club's cash account (a guest
pays or is paid in cash at the table). A pot game's ``pot_ore`` (and betar) are read again
under the club's lock as the game starts, so a pot shared among tables in between is not
played twice.
"""

from __future__ import annotations

import dataclasses
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import evenings
import league
import ledger
from club.models import Club, Member, User
from engine import registry
from engine.base import net_by_account
from engine.errors import EngineError
from evenings.models import Table
from league import owed as league_owed
from ledger.models import Account, AccountKind, AuditRecord, Source
from scoring import games
from scoring.messages import engine_message, lines_of, render_lines, sentence, undo_line
from scoring.models import Event, Game, GameStatus, Seat

UNDO = "undo"


class EventRefused(ValidationError):
    """The rules, or the game's status, do not allow this event now."""


class StaleGame(ValidationError):
    """The phone's view is behind: someone else recorded in between."""

    def __init__(self, current_seq: int, missed: list[Event]):
        super().__init__(_("Someone else recorded in the meantime."), code="stale")
        self.current_seq = current_seq
        self.missed = missed


@dataclass(frozen=True)
class AppendResult:
    event: Event
    state: Any
    duplicate: bool = False


# --- starting ------------------------------------------------------------------------------


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


@transaction.atomic
def start_game(
    club: Club,
    game_key: str,
    players: Sequence[Member | str],
    by: User | None,
    rules: dict | None = None,
    setup: dict | None = None,
    *,
    key: str | None = None,
    table: Table | None = None,
) -> Game:
    """Seat the players (members, or guests by name) in order and check the engine agrees.

    ``key`` is the start form's one-time key: the same key again returns the game it started
    (a double tap on "Start the game"), made certain by the unique ``(club, start_key)``.
    ``table``: the club evening's table it is played at (its pot, its betar)."""
    if key:
        # Starts of one club take turns, so the second tap finds the first one's game (rather
        # than, for a pot game, being refused because that game is now open).
        Club.objects.select_for_update().filter(pk=club.pk).first()
        existing = Game.objects.filter(club=club, start_key=key).first()
        if existing is not None:
            return existing
    info = registry.get(game_key)
    if not info.min_players <= len(players) <= info.max_players:
        raise EventRefused(
            _("%(game)s is for %(lo)s–%(hi)s players.")
            % {"game": _(info.name), "lo": info.min_players, "hi": info.max_players},
            code="players",
        )
    members = [p for p in players if isinstance(p, Member)]
    if len({m.pk for m in members}) != len(members):
        raise EventRefused(_("A member cannot have two seats."), code="players")
    if any(m.club_id != club.pk for m in members):
        raise EventRefused(
            _("Every player must be a member of this club or a guest."), code="players"
        )
    if table is not None and (table.evening.club_id != club.pk or not table.evening.is_open):
        raise EventRefused(_("That table is not at an open evening of this club."), code="table")
    plays_from_pot = info.declaration.plays_from_pot
    if plays_from_pot and _open_pot_game(club, game_key, table):
        # The pot (and any betar) is one account: two games playing from it at once would each
        # start from the same amount and pay out the same money. Tables of a club evening have
        # a pot each.
        raise EventRefused(
            _("A %(game)s game is already open: its pot can be at one table only. Finish it first.")
            % {"game": _(info.name)},
            code="pot_in_use",
        )
    if plays_from_pot:
        # Read again under the club's lock (taken above): the page read it before.
        setup = {
            **(setup or {}),
            **games.start_setup(club, game_key, table.number if table else None),
        }
    try:
        with transaction.atomic():
            game = Game.objects.create(
                club=club,
                game_key=game_key,
                rules=rules or {},
                setup=setup or {},
                created_by=by,
                start_key=key or None,
                table=table,
            )
    except IntegrityError:
        # Only a start key can collide: the same tap arrived twice past the club lock.
        return Game.objects.get(club=club, start_key=key)
    attendees = _attendees_at(table, players, by) if table is not None else {}
    Seat.objects.bulk_create(
        Seat(
            game=game,
            position=i,
            member=p if isinstance(p, Member) else None,
            guest_name="" if isinstance(p, Member) else p.strip(),
            attendee=attendees.get(i),
        )
        for i, p in enumerate(players)
    )
    state = _replay(game, [])  # the engine refuses bad rules or players here
    game.snapshot = _snapshot(state, {})
    game.save(update_fields=["snapshot"])
    return game


def _attendees_at(table: Table, players: Sequence[Member | str], by: User | None) -> dict:
    """Each player's attendee row at the table's evening, by seat position: whoever plays at
    tonight's table is at tonight's evening (checked in, with the fee, if not yet)."""
    evening = table.evening
    return {
        position: evenings.check_in(
            evening,
            by,
            member=player if isinstance(player, Member) else None,
            guest_name="" if isinstance(player, Member) else player,
        )
        for position, player in enumerate(players)
    }


def _open_pot_game(club: Club, game_key: str, table: Table | None = None) -> bool:
    """Is a game playing from the same pot open? The club's pot, or one table number's."""
    # The club row is locked first, so that two phones starting at once take turns and the
    # second one sees the first one's game (PostgreSQL; SQLite serialises writers anyway).
    Club.objects.select_for_update().filter(pk=club.pk).first()
    open_games = Game.objects.filter(club=club, game_key=game_key, status=GameStatus.OPEN)
    if table is None:
        return open_games.filter(table__isnull=True).exists()
    return open_games.filter(table__number=table.number, table__evening=table.evening).exists()


# --- replaying -----------------------------------------------------------------------------

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
    its own); else replayed from all events."""
    key = _cache_key(game)
    cached = _STATE_CACHE.get(key)
    if cached is not None:
        _STATE_CACHE.move_to_end(key)
        return cached
    result = _caught_up(game)
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
    # Through JSON once, so the snapshot is exactly what the database will hold.
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


# --- appending -----------------------------------------------------------------------------


def _lock(game: Game) -> Game:
    return Game.objects.select_for_update().select_related("club").get(pk=game.pk)


def _check_turn(game: Game, expected_seq: int, key: str, *, undo: bool = False) -> Event | None:
    """The earlier event for a repeated key, or None; raises for a closed or stale game.

    Undo may also take back the event that finished a game; nothing touches a voided one."""
    existing = Event.objects.filter(game=game, idempotency_key=key).first()
    if existing is not None:
        return existing
    allowed = {GameStatus.OPEN, GameStatus.FINISHED} if undo else {GameStatus.OPEN}
    if game.status not in allowed:
        raise EventRefused(
            _("This game is %(status)s.") % {"status": game.get_status_display()}, code="closed"
        )
    if expected_seq != game.seq:
        missed = list(game.events.filter(seq__gt=expected_seq).order_by("seq"))
        raise StaleGame(game.seq, missed)
    return None


def append_event(
    game: Game,
    event_type: str,
    payload: dict,
    *,
    expected_seq: int,
    idempotency_key: str,
    by: User | None,
    at: datetime | None = None,
) -> AppendResult:
    """``at``: when the event happened at the table, if not now (the demo records evenings
    that are over); its audit record is sealed now all the same."""
    if event_type == UNDO:
        return undo_last(game, expected_seq=expected_seq, idempotency_key=idempotency_key, by=by)
    module = game.played.module
    with transaction.atomic():
        game = _lock(game)
        now = timezone.now()
        existing = _check_turn(game, expected_seq, idempotency_key)
        if existing is not None:
            return AppendResult(existing, current_state(game)[0], duplicate=True)
        state, nets = current_state(game)
        try:
            new_state = module.apply(state, {**payload, "type": event_type})
        except EngineError as error:
            raise EventRefused(engine_message(error, sentence=False), code="illegal") from None
        event = Event.objects.create(
            game=game,
            seq=game.seq + 1,
            type=event_type,
            payload=payload,
            summary=" · ".join(getattr(new_state, "log", ()))[:300],
            lines=lines_of(new_state),
            recorded_by=by,
            created_at=at or now,
            idempotency_key=idempotency_key,
        )
        event.money = _post_money(game, event, new_state.transfers, by)
        if event.money is not None:
            event.save(update_fields=["money"])
        _audit_event(game, event, by, now)
        nets = _add_nets(nets, new_state.transfers)
        _store(game, event.seq, new_state, nets, at=event.created_at)
    return AppendResult(event, new_state)


def event_audit_data(event: Event) -> dict:
    """What the club's audit trail keeps of an event; ``scoring.audit`` compares it with the
    event's row as it is now, so an edited or deleted event shows."""
    return {
        "game": event.game_id,
        "seq": event.seq,
        "type": event.type,
        "payload": event.payload,
        "summary": event.summary,
        "recorded_by": event.recorded_by_id,
        "created_at": ledger.audit_time(event.created_at),
        "money": event.money_id,
    }


def _audit_event(game: Game, event: Event, by: User | None, now) -> None:
    """The event's record in the club's audit chain, in the event's database transaction."""
    ledger.append_audit(
        game.club,
        AuditRecord.Action.EVENT,
        by,
        now,
        subject=f"{game.ref}:event:{event.seq}",
        data=event_audit_data(event),
    )


def _add_nets(nets: dict[str, int], transfers) -> dict[str, int]:
    merged = dict(nets)
    for account, amount in net_by_account(transfers).items():
        merged[account] = merged.get(account, 0) + amount
    return merged


def _store(
    game: Game, seq: int, state: Any, nets: dict[str, int], at: datetime | None = None
) -> None:
    """Save seq and snapshot; finish (at the finishing event's time) or reopen the game as the
    state says."""
    game.seq = seq
    game.snapshot = _snapshot(state, nets)
    was_finished = game.status == GameStatus.FINISHED
    if state.finished and not was_finished:
        game.status = GameStatus.FINISHED
        game.finished_at = at or timezone.now()
        _send_result(game)
    elif not state.finished and was_finished:
        game.status = GameStatus.OPEN
        game.finished_at = None
        league_owed.owe_removal(game.club, game.ref)
    game.save(update_fields=["seq", "snapshot", "status", "finished_at"])
    # Cached only once committed: a rolled-back append must not leave a state under a seq
    # that a later event will take.
    transaction.on_commit(lambda: _remember(game, (state, nets)))


def _send_result(game: Game) -> None:
    """The finished game's results per seat to the league, by a task after commit."""
    seats = game.seats_by_key
    snapshot = game.snapshot
    nets = snapshot.get("nets", {})
    # Optional, per game: partnerships ({player: team}) and league columns
    # ({player: {"skunk": 1, "pots_won": 2, …}}) from the engine's final state.
    teams = snapshot.get("teams") if isinstance(snapshot.get("teams"), dict) else {}
    details = snapshot.get("league_details") or {}
    results = [
        league.PlayerResult(
            seat=seats[s["player"]].position,
            member=seats[s["player"]].member,
            guest_name=seats[s["player"]].guest_name,
            placement=s["placement"],
            score=s["score"],
            net_ore=nets.get(s["player"], 0),
            team=teams.get(s["player"]),
            details=details.get(s["player"], {}),
        ).as_json()
        for s in snapshot.get("standings", [])
    ]
    league_owed.owe_results(game.club, game.ref, game.game_key, game.finished_at, results)


# --- money ---------------------------------------------------------------------------------


def account_key(game: Game, key: str, seats: dict[str, Seat]) -> str:
    """The key of the club's ledger account that the engine's ``key`` stands for in this game
    (``seats`` by seat key). The one mapping, for posting and for ``scoring.audit``."""
    if key in seats:
        seat = seats[key]
        if seat.member_id:
            return ledger.member_account_key(seat.member_id)
        if seat.attendee_id:
            return ledger.guest_account_key(seat.attendee_id)
        return AccountKind.CASH.value
    if key == "pot":
        return ledger.game_pot_key(game.game_key, game.pot_table)
    if key.startswith("bet:"):
        return ledger.game_bet_key(game.game_key, key[4:], game.pot_table)
    raise EventRefused(_("The engine named an unknown account %(key)s.") % {"key": key})


def _accounts_for(game: Game, keys: set[str]) -> dict[str, Account]:
    seats = game.seats_by_key
    accounts: dict[str, Account] = {}
    for key in keys:
        account_key(game, key, seats)  # refuses an account the engine may not name
        if key in seats:
            seat = seats[key]
            if seat.member_id:
                accounts[key] = ledger.member_account(seat.member)
            elif seat.attendee_id:
                accounts[key] = ledger.guest_account(game.club, seat.attendee_id, seat.guest_name)
            else:
                accounts[key] = ledger.system_account(game.club, AccountKind.CASH)
        elif key == "pot":
            accounts[key] = ledger.game_pot(game.club, game.game_key, table=game.pot_table)
        else:
            accounts[key] = ledger.game_bet(game.club, game.game_key, key[4:], table=game.pot_table)
    return accounts


def _post_money(game: Game, event: Event, transfers, by: User | None):
    if not transfers:
        return None
    nets = net_by_account(transfers)
    accounts = _accounts_for(game, set(nets))
    per_account: dict[int, tuple[Account, int]] = {}
    for key, amount in nets.items():
        account = accounts[key]
        previous = per_account.get(account.pk, (account, 0))[1]
        per_account[account.pk] = (account, previous + amount)
    legs = [(account, amount) for account, amount in per_account.values() if amount]
    if not legs:
        return None
    info = game.played
    names = {key: seat.name for key, seat in game.seats_by_key.items()}
    what = render_lines(event.lines, names) or event.type
    memo = f"{_(info.name)} #{game.pk}: {what}"[:200]
    ref = f"{game.ref}:event:{event.seq}"
    # Booked on the day the event happened at the table (an evening recorded afterwards, such
    # as the demo's, keeps its dates on the statements).
    booked_on = timezone.localdate(event.created_at)
    return ledger.post(game.club, legs, memo, Source.GAME, by, date=booked_on, key=ref, ref=ref)


def carried_on(game: Game) -> bool:
    """Whether a later game started from this finished game's pot (Kille, Polskt pass).

    Its money then lives on in that game: taking this one back would pay out a pot that the
    next evening already started from."""
    if game.status != GameStatus.FINISHED or "pot_ore" not in game.setup:
        return False
    later = Game.objects.filter(
        club=game.club_id, game_key=game.game_key, started_at__gt=game.started_at
    )
    return later.exclude(status=GameStatus.VOIDED).exists()


def may_undo(game: Game) -> bool:
    """Whether the game's last event may be taken back now, as far as the game goes (the pad
    also asks whether the member scores and whether there is an event to take back): not in a
    voided game, nor once a later game plays from this one's pot (``carried_on``)."""
    return game.status != GameStatus.VOIDED and not carried_on(game)


def _refuse_if_carried_on(game: Game) -> None:
    if carried_on(game):
        raise EventRefused(
            _(
                "A later game has started from this game's pot, so it can no longer be undone "
                "or voided. Correct it in the later game, or void that one first."
            ),
            code="carried_on",
        )


# --- undo and void -------------------------------------------------------------------------


def undo_last(
    game: Game, *, expected_seq: int, idempotency_key: str, by: User | None
) -> AppendResult:
    with transaction.atomic():
        game = _lock(game)
        existing = _check_turn(game, expected_seq, idempotency_key, undo=True)
        if existing is not None:
            return AppendResult(existing, current_state(game)[0], duplicate=True)
        _refuse_if_carried_on(game)
        events = list(game.events.order_by("seq"))
        effective = effective_events(events)
        if not effective:
            raise EventRefused(_("There is nothing to undo."), code="nothing")
        target = effective[-1]
        if target.money_id:
            ledger.reverse(
                target.money,
                _("Undo in game #%(id)s") % {"id": game.pk},
                by,
                game_recording=True,
            )
        event = Event.objects.create(
            game=game,
            seq=game.seq + 1,
            type=UNDO,
            payload={"undoes": target.seq},
            summary=f"Undid: {target.summary or target.type}"[:300],
            lines=[undo_line(target)],
            recorded_by=by,
            idempotency_key=idempotency_key,
        )
        _audit_event(game, event, by, event.created_at)
        state, nets = _replay_with_nets(game, [*events, event])
        _store(game, event.seq, state, nets)
    return AppendResult(event, state)


@transaction.atomic
def void_game(game: Game, reason: str, by: User | None) -> Game:
    """Reverse every krona the game moved and take it out of the league."""
    game = _lock(game)
    if game.status == GameStatus.VOIDED:
        raise EventRefused(_("The game is already voided."), code="voided")
    _refuse_if_carried_on(game)
    reason = reason.strip() or _("Voided")
    for event in effective_events(list(game.events.select_related("money").order_by("seq"))):
        if event.money_id:
            ledger.reverse(event.money, reason, by, game_recording=True)
    game.status = GameStatus.VOIDED
    game.save(update_fields=["status"])
    ledger.append_audit(
        game.club,
        AuditRecord.Action.VOID,
        by,
        timezone.now(),
        subject=game.ref,
        data={"game": game.pk, "reason": reason},
    )
    league_owed.owe_removal(game.club, game.ref)
    return game
