"""Do the books hold what the games say? A check that ``manage.py check_ledger`` runs.

A game's events are the one source of truth for its money: replaying its effective events
through the engine (``scoring.recording.replay``) gives what each engine account (``s0``,
``pot``, ``bet:3`` …) gained or lost, and ``recording.account_key`` names the club account each
of them stands for. The books hold the postings: every event's money is one transaction with
the ref ``game:<id>:event:<seq>``, and its reversal (undo, void) carries the same ref. Two
things must agree:

1. per game and account: the net of all entries whose transaction's ref starts with
   ``game:<id>:`` (reversals included) equals what the replay moves; a voided game nets zero.
   A posting edited in the database, or reversed behind the game's back, shows up here;
2. per pot and bet account (``pot:<game>``, ``pot:<game>:<table>``, ``bet:<game>:<n>``): its
   balance equals what the replays of the non-voided games of that game left there, plus what
   club evenings moved between the club's pot and the tables' pots (``evenings.pots``, whose
   own check replays each of those moves against the evening's rule). Nothing else puts money
   into pots and betar, so a stray posting shows up here even if it names no game.

A seat moved by a merge (``clubdata.merge``: a guest, or a duplicate member, merged into the
member he is) names its new member, while its money stays where it was posted (the duplicate's
account, the guest's evening account, the cash box) and the merge's own transaction moved the
balance on. The merge seals one record per merge in the chain (action ``seal``, subject
``merge:<key>``) listing each seat it moved, the account its money was posted to and the member
it belongs to now; here such a seat is mapped to that account (``merged_seats``), and a seat
that no longer names the recorded member is named as changed behind the app's back. A seat
changed without a merge has no record, so its money still shows on the wrong account.

Cost per club: one query for its accounts, one for its merge records, one grouped query for
the entries of its games' transactions (by ref and account), and one each for its games, their
seats and their events;
every game is replayed once, in memory. ``ScoringConfig.ready`` registers ``check_game_money``
with ``ledger.register_check``, since ``club`` never imports ``scoring``.

Are the events still what was recorded? ``check_game_events``, registered the same way. Each
event, undo included, and each voiding has a record in the club's audit chain, appended in the
same database transaction (``recording.event_audit_data``: game, seq, type, payload, summary,
who, when and the money's transaction). ``ledger.verify_audit`` checks that no record was
changed (each is sealed with ``AUDIT_KEY``, which the database does not hold); this check
compares the records with the rows as they are now: an event edited, deleted or added behind
the app's back, or a game voided or un-voided in the database, shows. Three queries per club.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

import ledger
from club.models import Club
from engine.errors import EngineError
from evenings import pots
from league import owed as league_owed
from league.models import GameResult
from ledger.models import Account, AccountKind, AuditRecord, Entry, Source
from scoring import recording
from scoring.models import Event, Game, GameStatus
from scoring.recording import replay

_GAME_REF = "game:"
_GAME_ID_REF = re.compile(r"game:\d+")


MERGE_SUBJECT = "merge:"


def merged_seats(club: Club) -> dict[tuple[int, int], tuple[str, int]]:
    """Per seat (game id, position) that merges moved: the account its money was posted to
    (the first merge's record: later merges never move a game's postings) and the member the
    seat belongs to now (the last merge's). The records are sealed, so they are trusted."""
    seats: dict[tuple[int, int], tuple[str, int]] = {}
    records = ledger.audit_records(club, AuditRecord.Action.SEAL).filter(
        subject__startswith=MERGE_SUBJECT
    )
    for record in records:
        for seat in record.data.get("seats", []) if isinstance(record.data, dict) else []:
            where = (seat["game"], seat["position"])
            posted_to = seats.get(where, (seat["posted_to"], None))[0]
            seats[where] = (posted_to, seat["member"])
    return seats


def check_game_money(club: Club) -> list[str]:
    """Every way the club's books disagree with its games, in words (amounts in öre)."""
    accounts = {account.pk: account for account in _with_opened(Account.objects.filter(club=club))}
    held = _held_per_game(club, accounts)
    merged = merged_seats(club)
    problems: list[str] = []
    left_in_pots: dict[str, int] = defaultdict(int)
    unknown_pots: set[str] = set()  # game keys with a game that no longer replays
    league, owed = _league_results(club), league_owed.owed_refs(club)
    games = (
        Game.objects.filter(club=club)
        .order_by("pk")
        .prefetch_related("seats", Prefetch("events", queryset=Event.objects.order_by("seq")))
    )
    for game in games:
        label = f"game {game.pk} ({game.game_key}, {game.status})"
        if game.status == GameStatus.VOIDED:
            moved: dict[str, int] = {}
        else:
            try:
                moved, in_pots, results = _moved_by(game, merged)
            except (EngineError, ValidationError, KeyError) as error:
                problems.append(f"{label}: its events no longer replay ({_reason(error)})")
                held.pop(str(game.pk), None)
                unknown_pots.add(game.game_key)
                continue
            for key, amount in in_pots.items():
                left_in_pots[key] += amount
            problems.extend(_result_differences(label, results, league.get(game.ref), owed))
        problems.extend(_merged_seat_differences(label, game, merged))
        problems.extend(_differences(label, moved, held.pop(str(game.pk), {})))
    for game_id, amounts in sorted(held.items()):
        problems.extend(_differences(f"game {game_id} (no such game here)", {}, amounts))

    for key, amount in pots.pot_moves(club).items():
        left_in_pots[key] += amount
    for key, amount in opened_pots(accounts.values()).items():
        left_in_pots[key] += amount
    problems.extend(_pot_differences(accounts.values(), left_in_pots, unknown_pots))
    return problems


def _with_opened(accounts: QuerySet[Account]) -> QuerySet[Account]:
    """The accounts, each with what the club's opening balances put there (``opened_ore``), in
    the same query."""
    opened = (
        Entry.objects.filter(account=OuterRef("pk"), transaction__source=Source.OPENING)
        .order_by()
        .values("account_id")
        .annotate(s=Sum("amount_ore"))
        .values("s")
    )
    return accounts.annotate(opened_ore=Coalesce(Subquery(opened), 0))


def opened_pots(accounts: Iterable[Account]) -> dict[str, int]:
    """What the club's opening balances put into each pot and bet account, by key: the paper
    books' tin and open betar (``ledger.opening``; its reversal too, under the same source).
    Like the evenings' moves, money no game moved, which the games then play from."""
    return {
        a.key: a.opened_ore
        for a in accounts
        if a.kind in (AccountKind.POT, AccountKind.BET) and getattr(a, "opened_ore", 0)
    }


def _pot_differences(
    accounts: Iterable[Account], left: dict[str, int], unknown: set[str]
) -> list[str]:
    """Each pot and bet account against what the replayed games left there. Keys are
    ``pot:<game>`` and ``bet:<game>:<n>``; a pot of a game that does not replay is unknown."""
    accounts_by_key = {
        a.key: a
        for a in accounts
        if a.kind in (AccountKind.POT, AccountKind.BET) and a.key.startswith(("pot:", "bet:"))
    }
    problems = []
    for key in sorted(set(accounts_by_key) | set(left)):
        if key.partition(":")[2].partition(":")[0] in unknown:
            continue
        expected = left.get(key, 0)
        if key not in accounts_by_key:
            if expected:
                problems.append(
                    f"{key}: the games left {expected} öre there, "
                    "but the club has no such pot or bet account"
                )
        elif accounts_by_key[key].balance_ore != expected:
            problems.append(
                f"{key}: the games left {expected} öre there, "
                f"its balance is {accounts_by_key[key].balance_ore} öre"
            )
    return problems


def _held_per_game(club: Club, accounts: dict[int, Account]) -> dict[str, dict[str, int]]:
    """What the ledger holds per game id (as the ref spells it) and account key, from one
    grouped query: an event's posting and its reversal share the ref, so they net here."""
    rows = (
        Entry.objects.filter(transaction__club=club, transaction__ref__startswith=_GAME_REF)
        .values_list("transaction__ref", "account_id")
        .annotate(total=Sum("amount_ore"))
        .order_by()
    )
    held: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for ref, account_id, total in rows:
        account = accounts.get(account_id)
        key = account.key if account else f"account #{account_id} of another club"
        held[ref.split(":")[1]][key] += total
    return held


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        return " ".join(error.messages)
    return str(error.args[0]) if error.args else type(error).__name__


def _merged_seat_differences(label: str, game: Game, merged: dict) -> list[str]:
    """A seat a merge moved must still name the member the merge gave it."""
    return [
        f"{label}: seat {seat.position} was merged into member {merged[where][1]}, but names "
        f"{f'member {seat.member_id}' if seat.member_id else repr(seat.guest_name)} now: "
        "changed behind the app's back"
        for seat in game.seats.all()
        if (where := (game.pk, seat.position)) in merged
        and (seat.member_id, seat.guest_name) != (merged[where][1], "")
    ]


def _moved_by(
    game: Game, merged: dict | None = None
) -> tuple[dict[str, int], dict[str, int], dict[int, tuple]]:
    """What the replay of the game moves, per account key (everything, and pots and betar),
    and, for a finished game, each seat's result as the league should hold it. A seat a merge
    moved stands for the account its money was posted to (``merged_seats``)."""
    state, nets = replay._replay_with_nets(game, list(game.events.all()))
    results = {
        int(s.player[1:]): (s.placement, s.score, nets.get(s.player, 0))
        for s in (getattr(state, "standings", ()) if state.finished else ())
    }
    seats = {seat.key: seat for seat in game.seats.all()}
    moved: dict[str, int] = defaultdict(int)
    in_pots: dict[str, int] = defaultdict(int)
    for engine_key, amount in nets.items():
        seat = seats.get(engine_key)
        posted_to = (merged or {}).get((game.pk, seat.position)) if seat else None
        key = posted_to[0] if posted_to else recording.account_key(game, engine_key, seats)
        moved[key] += amount
        if engine_key == "pot" or engine_key.startswith("bet:"):
            in_pots[key] += amount
    return moved, in_pots, results


def _league_results(club: Club) -> dict[str, dict[int, tuple]]:
    """The league's results of the club's games, per game ref and seat: one query."""
    rows = GameResult.objects.filter(club=club, game_ref__startswith=_GAME_REF).values_list(
        "game_ref", "seat", "placement", "score", "net_ore"
    )
    held: dict[str, dict[int, tuple]] = defaultdict(dict)
    for ref, seat, placement, score, net in rows:
        held[ref][seat] = (placement, score, net)
    return held


def _result_differences(label, expected: dict[int, tuple], held, owed: set[str]) -> list[str]:
    """A finished game's results in the league against its replay (placement, score, net
    money per seat). Missing results are ``check_game_results``' to name; owed ones are owed."""
    ref = label.split()[1]
    if not expected or not held or f"game:{ref}" in owed or len(held) != len(expected):
        return []
    return [
        f"{label}: the league has seat {seat} at {held.get(seat)} (placement, score, net), "
        f"the replay at {result}"
        for seat, result in sorted(expected.items())
        if held.get(seat) != result
    ]


def _differences(label: str, expected: dict[str, int], actual: dict[str, int]) -> list[str]:
    return [
        f"{label}: {key} should hold {expected.get(key, 0)} öre from it, "
        f"the ledger holds {actual.get(key, 0)} öre"
        for key in sorted(set(expected) | set(actual))
        if expected.get(key, 0) != actual.get(key, 0)
    ]


def check_game_events(club: Club) -> list[str]:
    """Every event and voiding of the club's games against its record in the audit chain."""
    problems: list[str] = []
    recorded: dict[str, tuple[int, dict]] = {}
    actions = (AuditRecord.Action.EVENT, AuditRecord.Action.VOID)
    for record in ledger.audit_records(club, *actions):
        if record.subject in recorded:
            problems.append(
                f"{record.subject} is recorded twice (records {recorded[record.subject][0]} "
                f"and {record.seq})"
            )
        data = record.data if isinstance(record.data, dict) else {}
        recorded[record.subject] = (record.seq, data)
    events = Event.objects.filter(game__club=club).order_by("game_id", "seq")
    for event in events.iterator(chunk_size=2000):
        label = f"game {event.game_id} event {event.seq} ({event.type})"
        seq, data = recorded.pop(f"game:{event.game_id}:event:{event.seq}", (None, None))
        if seq is None:
            problems.append(f"{label} has no audit record: it was added behind the app's back")
        elif (now := recording.event_audit_data(event)) != data:
            fields = ", ".join(ledger.changed_fields(data, now))
            problems.append(f"{label} changed since it was recorded in record {seq} ({fields})")
    voided = Game.objects.filter(club=club, status=GameStatus.VOIDED).values_list("pk", flat=True)
    for game_id in voided:
        if recorded.pop(f"game:{game_id}", None) is None:
            problems.append(f"game {game_id} is voided, but no audit record says it was voided")
    left = sorted(recorded.values(), key=lambda seq_data: seq_data[0])
    statuses = dict(
        Game.objects.filter(
            club=club, pk__in=[data.get("game") for _seq, data in left]
        ).values_list("pk", "status")
    )
    for seq, data in left:
        if "seq" in data:
            problems.append(
                f"game {data.get('game')} event {data['seq']} ({data.get('type')}), recorded in "
                f"record {seq}, is gone from the database"
            )
        else:
            status = statuses.get(data.get("game"), "gone from the database")
            problems.append(
                f"game {data.get('game')} was voided (record {seq}) but is {status} now"
            )
    return problems


def check_game_results(club: Club) -> list[str]:
    """The league against the games: every finished game has a result per seat (or the league
    still owes them, ``league.owed``), and an open or voided game has none (or their removal is
    owed). Results of a game the club does not have are named too. Three queries per club."""
    owed = league_owed.owed_refs(club)
    seats: dict[str, int] = defaultdict(int)
    statuses: dict[str, str] = {}
    for game_id, status, position in Game.objects.filter(club=club).values_list(
        "pk", "status", "seats__position"
    ):
        statuses[f"game:{game_id}"] = status
        seats[f"game:{game_id}"] += position is not None
    held = dict(
        GameResult.objects.filter(club=club, game_ref__startswith=_GAME_REF)
        .values_list("game_ref")
        .annotate(n=Count("pk"))
        .order_by()
    )
    problems = []
    for ref, status in sorted(statuses.items(), key=lambda item: int(item[0][5:])):
        if ref in owed:
            continue
        results = held.pop(ref, 0)
        if status == GameStatus.FINISHED and results != seats[ref]:
            problems.append(
                f"{ref} is finished with {seats[ref]} players, the league holds {results} "
                "results and owes none"
            )
        elif status != GameStatus.FINISHED and results:
            problems.append(f"{ref} is {status}, yet the league holds {results} results for it")
    problems += [
        f"{ref}: the league holds {n} results of a game the club does not have"
        for ref, n in sorted(held.items())
        if ref not in owed and _GAME_ID_REF.fullmatch(ref)  # the refs scoring writes
    ]
    return problems


def legacy_fact_notices(club) -> list[str]:
    """The club's games recorded before the engines knew the cards (issue 25) that hold a fact
    an engine now refuses: the data migration ``scoring.0011_legacy_facts`` marked them
    (``setup["legacy_facts"]``) so that they replay as they were recorded, and ``check_ledger``
    names them as notes (not failures): their money is what was played and paid at the table.
    One query."""
    games = (
        Game.objects.filter(club=club, setup__legacy_facts=True)
        .order_by("pk")
        .values_list("pk", "game_key", "started_at")
    )
    return [
        f"game {pk} ({key}, {started:%Y-%m-%d}) was recorded before the engine knew the cards "
        "and holds a fact it now refuses; it replays as recorded"
        for pk, key, started in games
    ]
