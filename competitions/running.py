"""Running a competition: announce it, take entries and withdrawals, start it, make each next
round, finish it and pay the prizes.

Design
- Every service is one transaction that first locks the competition's row
  (``select_for_update``): entries, withdrawals, rounds and the finish of one competition take
  turns. ``next_round`` twice at once makes one round (the lock, and the unique
  ``(competition, number)`` behind it): the second finds the round made and, given the
  ``number`` it meant to make, returns it, else is refused as the new round is unfinished.
  ``enter`` twice finds the first entry (the lock and the unique entrant per member, or per
  guest name). Refusals are ``CompetitionRefused`` (a ``ValidationError`` with a code) and
  nothing is written.
- Swiss: each round is ``swiss.pair_round`` over the standings so far (match points make the
  score groups; the standings' order is the ranking) and every earlier pairing. When no
  pairing without a repeat exists (a small field late in the event) the round takes the one
  with the fewest repeats. A bye is table 0 and counts as the format says (a win, the
  match points of a win, no spread: ``MatchRules.bye_points``).
- Round robin: the schedule is ``round_robin.rounds`` of the field at the start, in seed
  order, made again from those same entrants for every round (so it never changes). Late
  entries are refused (the schedule is fixed at the start). A dropped player's later
  opponents get a bye in the round they would have met him.
- Championship: round 1 is ``seating.seat_field`` of the field in seed order; later rounds
  ``seating.reseat`` by the standings; with a final table, the last planned round
  (``rounds``) is ``seating.final_table`` of the ranking, one table marked ``is_final``.
  Tables hold at most ``table_size`` players and at least the game's fewest.
- Late entries (Swiss, championship) join the next round; drops leave from the next round.
  Rounds already made keep their pairings and seats, with two exceptions made while the
  round's table has not begun (no game started, no result): a dropped player's Swiss or round
  robin opponent then takes a bye instead of waiting for a game that will not come, and a
  championship's tables that have not begun are balanced (``seating.balance``: the fewest
  moves; tables whose game started keep their seats, and the player's seat there plays on or
  stops as the host decides). A corrected result (the game reopened and finished again)
  changes the table's results; only rounds made after it see it.
- ``finish`` needs every table of the current round finished, and pays the prizes once
  (``money.pay_prizes``); a second finish returns the finished competition.

Relies on the pure core (``swiss``, ``round_robin``, ``seating``, ``standings``), the engine's
registry (players per game, its rules) and ``competitions.money``/``tables``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

import ledger
from club.models import Club, Member, User
from competitions import money, round_robin, seating, swiss, tables
from competitions.base import CompetitionError, Pairing
from competitions.models import (
    Competition,
    Entrant,
    Kind,
    Round,
    Status,
    Table,
    TableSeat,
)
from competitions.prizes import check_percents
from competitions.refusals import CompetitionRefused, refused
from engine import registry
from engine.errors import EngineError

MAX_ROUNDS = 99
MAX_PLACES = 50


def _locked(competition: Competition) -> Competition:
    return Competition.objects.select_for_update().select_related("club").get(pk=competition.pk)


def _whole(value: object, name: str, low: int = 0, high: int = 10**12) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CompetitionRefused(
            _("%(name)s must be a whole number from %(low)s to %(high)s.")
            % {"name": name, "low": low, "high": high},
            code="number",
        )
    return value


def _game(game_key: str) -> registry.GameInfo:
    try:
        return registry.get(game_key)
    except KeyError:
        raise CompetitionRefused(_("There is no such game."), code="game") from None


def _check_rules(info: registry.GameInfo, rules: object, players: int) -> dict:
    """The rules options as the game's engine takes them (scoring's start does the same), for
    a table of ``players``: the engine's ``new_game`` must accept them."""
    if not isinstance(rules, dict):
        raise CompetitionRefused(_("The rules options must be a mapping."), code="rules")
    module = info.module
    known = {f.name for f in dataclasses.fields(module.Rules)}
    unknown = set(rules) - known
    if unknown:
        raise CompetitionRefused(
            _("Unknown rules options: %(names)s") % {"names": ", ".join(sorted(map(str, unknown)))},
            code="rules",
        )
    try:
        module.new_game([f"s{i}" for i in range(players)], module.Rules(**rules))
    except EngineError as error:
        raise refused(error, "rules") from None
    except (TypeError, ValueError) as error:
        raise CompetitionRefused(str(error), code="rules") from None
    return dict(rules)


def min_table(info: registry.GameInfo) -> int:
    """The fewest players at a championship table: the game's fewest, at least 2."""
    return max(2, info.min_players)


@transaction.atomic
def announce(
    club: Club,
    by: User | None,
    *,
    name: str,
    kind: str,
    game_key: str,
    rules: dict | None = None,
    rounds: int = 0,
    table_size: int = 2,
    final_table_size: int = 0,
    deals_per_round: int = 0,
    skunks: bool = True,
    entry_fee_ore: int = 0,
    prize_percents: Sequence[int] = (),
    starts_at: datetime | None = None,
) -> Competition:
    """A new competition, checked whole before anything is written."""
    name = (name or "").strip()
    if not name or len(name) > 100:
        raise CompetitionRefused(
            _("Give the competition a name (at most 100 letters)."), code="name"
        )
    if kind not in Kind.values:
        raise CompetitionRefused(_("Choose Swiss, round robin or championship."), code="kind")
    info = _game(game_key)
    if info.declaration.plays_from_pot and kind != Kind.CHAMPIONSHIP:
        # A championship's pot-game tables play at tonight's tables, each from its own pot
        # (scoring.views_competition); a two-player tournament is for two-player games.
        raise CompetitionRefused(
            _("%(game)s is played as a championship over tables, not in pairs.")
            % {"game": _(info.name)},
            code="pot_game",
        )
    rounds = _whole(rounds, _("Rounds"), 0, MAX_ROUNDS)
    table_size = _whole(table_size, _("Players per table"), 0, 1000)
    final_table_size = _whole(final_table_size, _("The final table"), 0, 1000)
    deals_per_round = _whole(deals_per_round, _("Deals per round"), 0, 1000)
    entry_fee_ore = _whole(entry_fee_ore, _("The entry fee"), 0)
    if kind == Kind.CHAMPIONSHIP:
        if not min_table(info) <= table_size <= info.max_players:
            raise CompetitionRefused(
                _("%(game)s is for %(lo)s–%(hi)s players at a table.")
                % {"game": _(info.name), "lo": min_table(info), "hi": info.max_players},
                code="table_size",
            )
        if final_table_size and not min_table(info) <= final_table_size <= info.max_players:
            raise CompetitionRefused(
                _("%(game)s is for %(lo)s–%(hi)s players at a table.")
                % {"game": _(info.name), "lo": min_table(info), "hi": info.max_players},
                code="final_table_size",
            )
        if rounds < (2 if final_table_size else 1):
            raise CompetitionRefused(
                _("Plan at least one round, and one more for the final table."), code="rounds"
            )
    else:
        if not info.min_players <= 2 <= info.max_players:
            raise CompetitionRefused(
                _("%(game)s is not a two-player game: run a championship of it.")
                % {"game": _(info.name)},
                code="players",
            )
        if table_size != 2 or final_table_size or deals_per_round:
            raise CompetitionRefused(
                _("A two-player tournament seats two players at each table."), code="table_size"
            )
        if kind == Kind.SWISS and rounds < 1:
            raise CompetitionRefused(_("Plan at least one round."), code="rounds")
        if kind == Kind.ROUND_ROBIN:
            rounds = 0  # set from the field at the start
    rules = _check_rules(info, {} if rules is None else rules, table_size)
    try:
        ledger.check_amount(entry_fee_ore, club)
    except ledger.LedgerError as error:
        raise CompetitionRefused(error.messages[0], code="fee") from None
    percents = list(prize_percents or ())
    if percents or entry_fee_ore:
        if len(percents) > MAX_PLACES:
            raise CompetitionRefused(_("At most 50 prize places."), code="prizes")
        try:
            check_percents(percents)
        except CompetitionError as error:
            raise refused(error, "prizes") from None
    return Competition.objects.create(
        club=club,
        name=name,
        kind=kind,
        game_key=game_key,
        rules=rules,
        rounds=rounds,
        table_size=table_size,
        final_table_size=final_table_size,
        deals_per_round=deals_per_round,
        skunks=bool(skunks),
        entry_fee_ore=entry_fee_ore,
        prize_percents=percents,
        starts_at=starts_at,
        created_by=by,
    )


def current_round(competition: Competition) -> Round | None:
    return competition.round_set.order_by("-number").first()


@transaction.atomic
def enter(
    competition: Competition,
    by: User | None,
    *,
    member: Member | None = None,
    guest_name: str = "",
) -> Entrant:
    """A member (of the competition's club) or a guest by name in the competition, the fee
    posted once. While it runs, a late entry joins the next round (not in a round robin)."""
    guest_name = (guest_name or "").strip()
    if (member is None) == (not guest_name) or len(guest_name) > 100:
        raise CompetitionRefused(_("Enter a member or a guest by name."), code="who")
    competition = _locked(competition)
    if member is not None and member.club_id != competition.club_id:
        raise CompetitionRefused(
            _("Only the club's members, or guests by name, can enter."), code="club"
        )
    if competition.status == Status.FINISHED:
        raise CompetitionRefused(_("The competition is finished."), code="finished")
    same = (
        competition.entrants.filter(member=member)
        if member is not None
        else competition.entrants.filter(member__isnull=True, guest_name=guest_name)
    )
    existing = same.first()
    if existing is not None:
        return existing
    joins = 1
    if competition.status == Status.RUNNING:
        current = current_round(competition)
        if competition.kind == Kind.ROUND_ROBIN:
            raise CompetitionRefused(
                _("A round robin's schedule is made at the start: it takes no late entries."),
                code="late_entry",
            )
        joins = current.number + 1
        if current.is_final or joins > competition.rounds:
            raise CompetitionRefused(_("No round is left to join."), code="late_entry")
    seed = (competition.entrants.aggregate(top=Max("seed"))["top"] or 0) + 1
    entrant = Entrant.objects.create(
        competition=competition,
        member=member,
        guest_name="" if member is not None else guest_name,
        seed=seed,
        joins_round=joins,
    )
    money.post_fee(entrant, by)
    return entrant


@transaction.atomic
def withdraw(entrant: Entrant, by: User | None) -> Entrant:
    """The entrant plays no later round (see the module docstring for the round being played).
    His fee stays in the pool."""
    competition = _locked(entrant.competition)
    entrant = Entrant.objects.select_related("member").get(pk=entrant.pk)
    entrant.competition = competition
    if competition.status == Status.FINISHED:
        raise CompetitionRefused(_("The competition is finished."), code="finished")
    if entrant.dropped_after is not None:
        return entrant
    current = current_round(competition)
    if competition.status == Status.ANNOUNCED or current is None:
        entrant.dropped_after = 0
    elif entrant.joins_round > current.number:
        entrant.dropped_after = entrant.joins_round - 1  # entered late, never played
    else:
        entrant.dropped_after = current.number
        seat = (
            TableSeat.objects.filter(table__round=current, entrant=entrant)
            .select_related("table")
            .first()
        )
        if seat is not None and not _begun(seat.table):
            if competition.is_two_player:
                _opponent_takes_a_bye(current, seat.table, entrant)
                entrant.dropped_after = current.number - 1
            elif not current.is_final and _balance(competition, current, entrant):
                entrant.dropped_after = current.number - 1
    entrant.save(update_fields=["dropped_after"])
    return entrant


def _begun(table: Table) -> bool:
    """Has the table's game started (or a result come in)? Its seats then stay. A voided
    game counts too: the table row is its game's (``Game.competition_table`` protects it)."""
    return table.is_bye or table.results.exists() or table.games.exists()


def _opponent_takes_a_bye(round_: Round, table: Table, gone: Entrant) -> None:
    """The dropped player's table that has not begun: his opponent sits at table 0 (a bye)."""
    others = [s.entrant_id for s in table.seats.all() if s.entrant_id != gone.pk]
    table.delete()
    _add_byes(round_, others)


def _add_byes(round_: Round, entrant_ids: Sequence[int]) -> None:
    if not entrant_ids:
        return
    bye, _created = Table.objects.get_or_create(round=round_, number=0)
    start = bye.seats.count()
    TableSeat.objects.bulk_create(
        TableSeat(table=bye, entrant_id=e, position=start + i) for i, e in enumerate(entrant_ids)
    )


def _balance(competition: Competition, round_: Round, gone: Entrant) -> bool:
    """Balance the round's tables that have not begun without ``gone``; False (nothing
    changed) when the field left cannot fill them."""
    waiting = [
        t for t in round_.tables.prefetch_related("seats").order_by("number") if not _begun(t)
    ]
    seated = [[s.entrant_id for s in t.seats.all()] for t in waiting]
    info = _game(competition.game_key)
    try:
        balanced = seating.balance(
            seated, {gone.pk}, max_size=competition.table_size, min_size=min_table(info)
        )
    except CompetitionError:
        return False
    top = round_.tables.aggregate(top=Max("number"))["top"] or 0
    for index, players in enumerate(balanced):
        if index < len(waiting):
            table = waiting[index]
            table.seats.all().delete()
            if not players:
                table.delete()
                continue
        else:
            top += 1
            table = Table.objects.create(round=round_, number=top)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, entrant_id=e, position=i) for i, e in enumerate(players)
        )
    return True


@transaction.atomic
def start(competition: Competition, by: User | None) -> Round:
    """Round 1 from the field as entered (a second start returns it)."""
    competition = _locked(competition)
    if competition.status != Status.ANNOUNCED:
        first = competition.round_set.filter(number=1).first()
        if first is not None:
            return first
        raise CompetitionRefused(_("The competition is finished."), code="finished")
    field = [e for e in tables.field_entrants(competition) if e.dropped_after is None]
    if len(field) < 2:
        raise CompetitionRefused(_("At least two players must enter first."), code="field")
    if competition.kind == Kind.ROUND_ROBIN:
        competition.rounds = len(round_robin.rounds([e.pk for e in field]))
    first = _make_round(competition, 1)
    competition.status = Status.RUNNING
    competition.save(update_fields=["status", "rounds"])
    return first


@transaction.atomic
def next_round(competition: Competition, by: User | None, *, number: int | None = None) -> Round:
    """The next round, once every table of the current one has its result. ``number``: the
    round the caller means to make; when it is already made (a double tap) it is returned."""
    competition = _locked(competition)
    if number is not None:
        made = competition.round_set.filter(number=number).first()
        if made is not None:
            return made
    if competition.status != Status.RUNNING:
        raise CompetitionRefused(_("The competition is not running."), code="not_running")
    current = current_round(competition)
    if tables.unfinished_tables(current):
        raise CompetitionRefused(
            _("Every table of round %(number)s must finish its game first.")
            % {"number": current.number},
            code="unfinished",
        )
    if current.is_final or current.number >= competition.rounds:
        raise CompetitionRefused(
            _("All the planned rounds are played: finish the competition."), code="last_round"
        )
    return _make_round(competition, current.number + 1)


@transaction.atomic
def finish(competition: Competition, by: User | None) -> Competition:
    """The end: the current round must be finished; the prizes are paid once."""
    competition = _locked(competition)
    if competition.status == Status.FINISHED:
        return competition
    if competition.status != Status.RUNNING:
        raise CompetitionRefused(_("The competition is not running."), code="not_running")
    current = current_round(competition)
    if current is not None and tables.unfinished_tables(current):
        raise CompetitionRefused(
            _("Every table of round %(number)s must finish its game first.")
            % {"number": current.number},
            code="unfinished",
        )
    competition.status = Status.FINISHED
    competition.finished_at = timezone.now()
    competition.save(update_fields=["status", "finished_at"])
    places = [(row.entrant, row.rank) for row in tables.standings(competition)]
    try:
        money.pay_prizes(competition, places, by)
    except CompetitionError as error:
        raise refused(error, "prizes") from None
    return competition


# --- making a round -----------------------------------------------------------------------


def _make_round(competition: Competition, number: int) -> Round:
    entrants = tables.field_entrants(competition)
    playing = [e for e in entrants if e.plays_in(number)]
    so_far = tables._tables(competition)
    is_final = False
    try:
        if competition.kind == Kind.SWISS:
            seated = _swiss(competition, entrants, playing, so_far)
        elif competition.kind == Kind.ROUND_ROBIN:
            seated = _round_robin(entrants, playing, number)
        else:
            seated, is_final = _championship(competition, entrants, playing, so_far, number)
    except CompetitionError as error:
        raise refused(error, "field") from None
    try:
        with transaction.atomic():
            round_ = Round.objects.create(competition=competition, number=number, is_final=is_final)
    except IntegrityError:
        raise CompetitionRefused(_("That round is already made."), code="made") from None
    made = Table.objects.bulk_create(Table(round=round_, number=n) for n, _players in seated)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, entrant_id=e, position=i)
        for table, (_n, players) in zip(made, seated, strict=True)
        for i, e in enumerate(players)
    )
    return round_


def _ranking(competition, entrants, so_far, playing) -> list:
    """The playing entrants in the order of the standings so far, with their rows."""
    ids = {e.pk for e in playing}
    return [
        row for row in tables._standings(competition, entrants, so_far) if row.entrant.pk in ids
    ]


def _swiss(competition, entrants, playing, so_far) -> list[tuple[int, list[int]]]:
    ranking = _ranking(competition, entrants, so_far, playing)
    _games, history = tables.two_player_games(so_far)
    field = [swiss.Entrant(row.entrant.pk, row.match_points) for row in ranking]
    try:
        round_ = swiss.pair_round(field, history)
    except CompetitionError:
        round_ = swiss.pair_round(field, history, allow_repeats=True)
    return _pairings_to_tables(round_.pairings)


def _round_robin(entrants, playing, number) -> list[tuple[int, list[int]]]:
    starters = [e.pk for e in entrants if e.joins_round == 1]
    schedule = round_robin.rounds(starters)
    if number > len(schedule):
        return []
    ids = {e.pk for e in playing}
    pairings: list[Pairing] = []
    byes: list[int] = []
    for pairing in schedule[number - 1]:
        present = [p for p in pairing.players if p in ids]
        if len(present) == 2:
            pairings.append(pairing)
        elif present:
            byes.append(present[0])  # his opponent dropped (or the phantom: a bye anyway)
    seated = [(n, [p.first, p.second]) for n, p in enumerate(pairings, start=1)]
    if byes:
        seated.append((0, byes))
    return seated


def _pairings_to_tables(pairings: Sequence[Pairing]) -> list[tuple[int, list[int]]]:
    seated = [(p.table, [p.first, p.second]) for p in pairings if not p.is_bye]
    byes = [p.first for p in pairings if p.is_bye]
    if byes:
        seated.append((0, byes))
    return seated


def _championship(
    competition, entrants, playing, so_far, number
) -> tuple[list[tuple[int, list[int]]], bool]:
    info = _game(competition.game_key)
    sizes = {"max_size": competition.table_size, "min_size": min_table(info)}
    if number == 1:
        seated = seating.seat_field([e.pk for e in playing], **sizes)
        return list(enumerate(seated, start=1)), False
    ranking = [row.entrant.pk for row in _ranking(competition, entrants, so_far, playing)]
    if competition.final_table_size and number == competition.rounds:
        return [(1, seating.final_table(ranking, competition.final_table_size))], True
    return list(enumerate(seating.reseat(ranking, **sizes), start=1)), False
