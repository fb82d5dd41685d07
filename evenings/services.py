"""Club evenings: one evening, several tables, the tables' pots and tonight's money.

Design
- ``open_evening(club, by)`` opens tonight (one evening per club and day: a second tap finds
  the first). It copies the club's options (``EveningOptions``: a fee per attendee, what the
  fee is, what happens to the tables' pots between evenings) so a later change of the options
  does not rewrite an evening.
- ``check_in(evening, member=…|guest_name=…)``: a member taps "I'm here" or the host ticks him
  (a guest by name). The fee is posted once per attendee and evening: the attendee row is
  unique, and so is the posting's ledger key ``evening:<id>:fee:<attendee>`` — twenty taps
  post one fee. Table money goes from the member's account to the club's treasury; an entry
  fee to the evening's prize pool (``prizes:<evening>``, a pot). A guest pays cash at the door.
- Tables: ``form_tables(evening, game_key, groups)`` seats the host's groups at tables numbered
  after the ones already there; ``draw_groups(attendees, game_key)`` draws them for the game's
  player counts: as few tables as the game's largest table allows, sizes within one of each
  other, seats in the order drawn (the first seat deals first, as on the start form). Each
  table then plays games as any table does (``scoring``: a game started at a table has
  ``Game.table``).
- Pots (Kille, Polskt pass: a game whose engine starts from ``pot_ore``): at an evening every
  table has its own pot and betar, keyed by the table's number (``ledger.game_pot(club, key,
  table=n)``), so two Kille tables play side by side. How the club's pot is shared among the
  tables, whenever each is formed, and brought back under *merge*: ``evenings.pots`` (its
  rule is on the evening page, and the books' check replays every move against it). Betar stay
  with their table under both policies: each is owned by the players who put it in.
- ``close_evening``: refused while a game at its tables is still open (its pot would move
  under it); then the merge, the closing time.
- Guests are people with money: a guest's account for the evening (``guest:<attendee>``,
  ``ledger.guest_account``) takes the guest's fee, stakes and winnings (scoring books a guest's
  seat at an evening table there), so the board, the summary and tonight's settle-up see the
  guest as they see a member. A guest settles on the spot, in cash or by Swish.
- Tonight's result and tonight's settle-up are two things. The **result** (``tonight_result``)
  is the sum, per account, of tonight's transactions — the fees (``evening:<id>:…``) and the
  money of the games played at its tables (``game:<id>:…``, undos included) — never older
  deposits and never a payment of tonight's settle-up (``evening:<id>:paid``): recording a
  payment does not change anybody's evening. What is still **open** (``tonight_nets``) is the
  result plus those payments; ``tonight_plan`` settles what is open, so the list shrinks as
  payments are recorded. Members and guests by their account key; the club's pots, treasury
  and prize pools meet in the club's cash box (``cash``), which takes up the difference so the
  balances sum to zero.
- ``tonight_plan``: the fewest payments that settle what is open exactly
  (``ledger.settle.plan_settlement``: exact for up to 12 non-zero balances, greedy above);
  a payment to or from ``cash`` is one with the club (its Swish number).
- ``summary``: per attendee (members and guests alike), the games played at tonight's tables,
  won, tonight's result and the fee, ranked by result, then wins, then name.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date as Date
from random import Random

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

import ledger
from club.models import Club, Member, User
from engine import registry
from evenings import pots
from evenings.models import (
    Attendee,
    Evening,
    EveningOptions,
    EveningStatus,
    FeeKind,
    PotPolicy,
    Table,
    TableSeat,
)
from league.models import GameResult
from ledger import ownership, settle
from ledger.models import Account, AccountKind, Entry, Source, Transaction


class EveningError(ValidationError):
    """A refusal a person can act on, shown where the tap was."""


def options_for(club: Club) -> EveningOptions:
    options, _created = EveningOptions.objects.get_or_create(club=club)
    return options


def save_options(club: Club, by: User | None, **fields) -> EveningOptions:
    """Change the club's evening options (fee, what the fee is, the pot policy, prize shares).
    They decide where money goes: every save is sealed in the audit chain, in its transaction
    (``seal_options``, a ``post_save`` receiver), and ``check_options_sealed`` compares. A fee
    above the club's ceiling on single amounts is refused (``ledger.check_amount``)."""
    if "fee_ore" in fields:
        ledger.check_amount(fields["fee_ore"], club)
    with transaction.atomic():
        options = options_for(club)
        for name, value in fields.items():
            setattr(options, name, value)
        options.save()
    return options


OPTIONS_SUBJECT = "evening_options"


def options_state(options: EveningOptions) -> dict:
    return {
        "fee_ore": options.fee_ore,
        "fee_kind": options.fee_kind,
        "pot_policy": options.pot_policy,
        "prize_percents": options.prize_percents,
    }


def seal_options(sender, instance: EveningOptions, raw: bool = False, **kwargs) -> None:
    if not raw:
        ownership.seal(instance.club, OPTIONS_SUBJECT, options_state(instance))


def check_options_sealed(club: Club) -> list[str]:
    """The club's evening options against their newest seal (a book check)."""
    options = EveningOptions.objects.filter(club=club).first()
    sealed = ownership.latest_seals(club, OPTIONS_SUBJECT).get(OPTIONS_SUBJECT)
    if options is None:
        return [] if sealed is None else ["the evening options are gone, their seal is not"]
    if sealed is None:
        return ["the evening options have no sealed record: they were set behind the app's back"]
    now = json.loads(json.dumps(options_state(options)))
    fields = ledger.changed_fields(sealed, now)
    return (
        [f"the evening options changed behind the app's back ({', '.join(fields)})"]
        if fields
        else []
    )


# --- opening and checking in -------------------------------------------------------------------


def open_evening(
    club: Club,
    by: User | None,
    *,
    date: Date | None = None,
    title: str = "",
    games: Sequence[str] = (),
) -> Evening:
    """Tonight's evening (made on the first tap, found on every later one)."""
    day = date or timezone.localdate()
    known = set(registry.game_keys())
    unknown = [g for g in games if g not in known]
    if unknown:
        raise EveningError(_("Unknown game: %(game)s.") % {"game": unknown[0]}, code="game")
    existing = Evening.objects.filter(club=club, date=day).first()
    if existing is not None:
        return existing
    options = options_for(club)
    try:
        with transaction.atomic():
            return Evening.objects.create(
                club=club,
                date=day,
                title=title,
                games=list(games),
                fee_ore=options.fee_ore,
                fee_kind=options.fee_kind,
                pot_policy=options.pot_policy,
                opened_by=by,
            )
    except IntegrityError:
        return Evening.objects.get(club=club, date=day)


def check_in(
    evening: Evening,
    by: User | None,
    *,
    member: Member | None = None,
    guest_name: str = "",
) -> Attendee:
    """Mark someone as here and post the evening's fee once."""
    _require_open(evening)
    guest_name = guest_name.strip()
    if (member is None) == (not guest_name):
        raise EveningError(_("Check in a member or a guest by name."), code="who")
    if member is not None and member.club_id != evening.club_id:
        raise EveningError(_("That member is not in this club."), code="who")
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=evening.club_id).first()
        found = Attendee.objects.filter(
            evening=evening, member=member, guest_name="" if member else guest_name
        ).first()
        attendee = found or Attendee.objects.create(
            evening=evening, member=member, guest_name="" if member else guest_name
        )
        if attendee.fee_id is None and evening.fee_ore > 0:
            attendee.fee = _post_fee(evening, attendee, by)
            attendee.save(update_fields=["fee"])
    return attendee


def _post_fee(evening: Evening, attendee: Attendee, by: User | None) -> Transaction:
    club = evening.club
    payer = attendee_account(attendee)
    payee = (
        prize_pool(evening)
        if evening.fee_kind == FeeKind.ENTRY_FEE
        else ledger.system_account(club, AccountKind.TREASURY)
    )
    memo = _("Evening %(date)s: fee, %(name)s") % {"date": evening.date, "name": attendee.name}
    return ledger.post(
        club,
        [(payer, -evening.fee_ore), (payee, evening.fee_ore)],
        memo,
        Source.EVENING,
        by,
        date=evening.date,
        key=f"{evening.ref}:fee:{attendee.pk}",
        ref=f"{evening.ref}:fee:{attendee.pk}",
    )


def attendee_account(attendee: Attendee) -> Account:
    """Whose money: the member's account, or the guest's account for this evening."""
    if attendee.member_id:
        return ledger.member_account(attendee.member)
    return ledger.guest_account(attendee.evening.club, attendee.pk, attendee.guest_name)


def prize_pool(evening: Evening) -> Account:
    """The evening's pool of entry fees, paid out as prizes."""
    account, _created = Account.objects.get_or_create(
        club=evening.club,
        key=f"prizes:{evening.pk}",
        defaults={"kind": AccountKind.POT, "name": _("Prizes %(date)s") % {"date": evening.date}},
    )
    return account


def _require_open(evening: Evening) -> None:
    if not evening.is_open:
        raise EveningError(_("This evening is closed."), code="closed")


def check_in_many(
    evening: Evening,
    by: User | None,
    *,
    members: Sequence[Member] = (),
    guest_names: Sequence[str] = (),
) -> list[Attendee]:
    """Check in everyone the host ticked, all or none: ``check_in`` for each member and guest
    (someone already here is found, not checked in twice; the fee is still posted once)."""
    _require_open(evening)
    with transaction.atomic():
        # One lock for the whole list: a second submit waits, then finds everyone here.
        Club.objects.select_for_update().filter(pk=evening.club_id).first()
        attendees = [check_in(evening, by, member=m) for m in dict.fromkeys(members)]
        names = dict.fromkeys(name.strip() for name in guest_names if name.strip())
        attendees += [check_in(evening, by, guest_name=name) for name in names]
    return attendees


# --- tables ----------------------------------------------------------------------------------


is_pot_game = pots.is_pot_game


def table_sizes(players: int, game_key: str) -> list[int]:
    """How ``players`` people sit at tables of ``game_key``: as few tables as its largest table
    allows, sizes within one of each other (larger tables first)."""
    info = registry.get(game_key)
    if players < info.min_players:
        raise EveningError(
            _("%(game)s needs at least %(n)s players.")
            % {"game": _(info.name), "n": info.min_players},
            code="players",
        )
    tables = math.ceil(players / info.max_players)
    base, extra = divmod(players, tables)
    if base < info.min_players:
        raise EveningError(
            _("%(n)s players cannot sit at tables of %(game)s (%(lo)s–%(hi)s a table).")
            % {"n": players, "game": _(info.name), "lo": info.min_players, "hi": info.max_players},
            code="players",
        )
    return [base + 1] * extra + [base] * (tables - extra)


def draw_groups(
    attendees: Sequence[Attendee], game_key: str, rng: Random | None = None
) -> list[list[Attendee]]:
    """The app's draw: shuffle, then fill the tables in order (the first seat deals first)."""
    drawn = list(attendees)
    (rng or secrets.SystemRandom()).shuffle(drawn)
    groups, start = [], 0
    for size in table_sizes(len(drawn), game_key):
        groups.append(drawn[start : start + size])
        start += size
    return groups


def form_tables(
    evening: Evening, game_key: str, groups: Sequence[Sequence[Attendee]], by: User | None
) -> list[Table]:
    """Seat each group at a new table of ``game_key`` (numbered after the evening's tables);
    for a pot game, the club's pot is shared among the tables not yet playing
    (``pots.share_club_pot``)."""
    _require_open(evening)
    info = registry.get(game_key)
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=evening.club_id).first()
        seated = set(
            TableSeat.objects.filter(table__evening=evening).values_list("attendee_id", flat=True)
        )
        _check_groups(evening, info, groups, seated)
        number = (evening.tables.order_by("-number").values_list("number", flat=True).first()) or 0
        tables = []
        for group in groups:
            number += 1
            table = Table.objects.create(evening=evening, number=number, game_key=game_key)
            TableSeat.objects.bulk_create(
                TableSeat(table=table, attendee=a, position=i) for i, a in enumerate(group)
            )
            tables.append(table)
        if is_pot_game(game_key):
            _refuse_club_pot_in_play(evening, game_key)
            pots.share_club_pot(evening, game_key, tables, by)
    return tables


def _check_groups(evening, info, groups, seated: set[int]) -> None:
    if not groups:
        raise EveningError(_("Choose the players of at least one table."), code="players")
    everyone = [a for group in groups for a in group]
    if len({a.pk for a in everyone}) != len(everyone):
        raise EveningError(_("Nobody can sit at two tables."), code="players")
    if any(a.evening_id != evening.pk for a in everyone):
        raise EveningError(_("Only tonight's attendees can sit at a table."), code="players")
    if any(a.pk in seated for a in everyone):
        raise EveningError(_("Somebody chosen already sits at a table."), code="players")
    for group in groups:
        if not info.min_players <= len(group) <= info.max_players:
            raise EveningError(
                _("%(game)s is for %(lo)s–%(hi)s players.")
                % {"game": _(info.name), "lo": info.min_players, "hi": info.max_players},
                code="players",
            )


def _refuse_club_pot_in_play(evening: Evening, game_key: str) -> None:
    """A game outside the evening's tables playing from the club's pot: sharing that pot would
    pull money from under its deal."""
    if evening.club.games.filter(game_key=game_key, table__isnull=True, status="open").exists():
        raise EveningError(
            _(
                "A %(game)s game outside tonight's tables is playing from the club's pot: "
                "finish it before tables of %(game)s are formed."
            )
            % {"game": _(registry.display_name(game_key))},
            code="club_pot_in_play",
        )


# --- closing -----------------------------------------------------------------------------------


def open_games_at(evening: Evening):
    """The games at the evening's tables that are still open (scoring's, by relation)."""
    return [
        game
        for table in evening.tables.prefetch_related("games")
        for game in table.games.all()
        if game.status == "open"
    ]


def close_evening(evening: Evening, by: User | None) -> Evening:
    """Close tonight: under the *merge* policy the tables' pots go back to the club's pot."""
    if not evening.is_open:
        return evening
    still_open = open_games_at(evening)
    if still_open:
        raise EveningError(
            _("Finish or void the open games first (tables %(tables)s).")
            % {"tables": ", ".join(sorted({str(g.table.number) for g in still_open}))},
            code="open_games",
        )
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=evening.club_id).first()
        evening.refresh_from_db()
        if not evening.is_open:
            return evening
        if evening.pot_policy == PotPolicy.MERGE:
            for game_key in sorted({t.game_key for t in evening.tables.all()}):
                if is_pot_game(game_key):
                    pots.merge_table_pots(evening, game_key, by)
        evening.status = EveningStatus.CLOSED
        evening.closed_at = timezone.now()
        evening.save(update_fields=["status", "closed_at"])
    return evening


# --- tonight's money -------------------------------------------------------------------------

PARTY_KINDS = (AccountKind.MEMBER, AccountKind.GUEST)


def game_ids(evening: Evening) -> list[int]:
    """The games played at the evening's tables (scoring's, by the relation): one query."""
    ids = evening.tables.values_list("games__id", flat=True)
    return [pk for pk in ids if pk is not None]


def paid_ref(evening: Evening) -> str:
    """The ref of a payment recorded in tonight's settle-up."""
    return f"{evening.ref}:paid"


def tonight_transactions(evening: Evening, games: list[int] | None = None, *, paid: bool = True):
    """Tonight's transactions: the evening's own and those of ``games`` (default: the games at
    its tables); ``paid=False`` leaves out the payments of tonight's settle-up."""
    refs = Q(ref__startswith=f"{evening.ref}:")
    for game_id in game_ids(evening) if games is None else games:
        refs |= Q(ref__startswith=f"game:{game_id}:")
    found = Transaction.objects.filter(club=evening.club_id).filter(refs)
    return found if paid else found.exclude(ref=paid_ref(evening))


def _nets(transactions) -> dict[str, int]:
    rows = (
        Entry.objects.filter(transaction__in=transactions)
        .filter(account__kind__in=PARTY_KINDS)
        .values("account__key")
        .annotate(net=Sum("amount_ore"))
    )
    nets = {row["account__key"]: row["net"] for row in rows if row["net"]}
    rest = -sum(nets.values())
    if rest:
        nets["cash"] = rest
    return nets


def tonight_result(evening: Evening, games: list[int] | None = None) -> dict[str, int]:
    """Tonight's result per member and guest account (``member:<id>``, ``guest:<id>``) and
    ``cash`` for the club: fees and games, payments of the settle-up left out."""
    return _nets(tonight_transactions(evening, games, paid=False))


def tonight_nets(evening: Evening, games: list[int] | None = None) -> dict[str, int]:
    """What is still open tonight: the result, with the payments recorded so far."""
    return _nets(tonight_transactions(evening, games))


def tonight_plan(evening: Evening) -> list[settle.Payment]:
    return settle.plan_settlement(tonight_nets(evening))


@dataclass(frozen=True)
class Paid:
    """A payment recorded in tonight's settle-up."""

    payer: str
    payee: str
    amount_ore: int


def paid_so_far(evening: Evening) -> list[Paid]:
    """The payments recorded in tonight's settle-up, oldest first (the payer's leg is the
    credit: ``ledger.payments.record_settlement``)."""
    entries = (
        Entry.objects.filter(transaction__club=evening.club_id, transaction__ref=paid_ref(evening))
        .select_related("account", "account__member")
        .order_by("transaction_id", "amount_ore")
    )
    legs: dict[int, list[Entry]] = {}
    for entry in entries:
        legs.setdefault(entry.transaction_id, []).append(entry)
    paid = []
    for pair in legs.values():
        payee, payer = pair[0], pair[-1]
        paid.append(Paid(_party(payer.account), _party(payee.account), payer.amount_ore))
    return paid


def _party(account: Account) -> str:
    return _("the club") if account.kind == AccountKind.CASH else account.label


@dataclass(frozen=True)
class Night:
    """One attendee's evening."""

    attendee: Attendee
    games: int
    won: int
    net_ore: int
    fee_ore: int


def summary(evening: Evening, games: list[int] | None = None) -> list[Night]:
    """Each attendee's evening, members and guests alike (``games``: the ids of the games at
    its tables, when the caller has them already), best result first."""
    games = game_ids(evening) if games is None else games
    nets = tonight_result(evening, games)
    attendees = list(evening.attendees.select_related("member"))
    played, won = _games_played(evening, games, attendees)
    nights = [
        Night(
            attendee=a,
            games=played.get(a.pk, 0),
            won=won.get(a.pk, 0),
            net_ore=nets.get(a.account_key, 0),
            fee_ore=evening.fee_ore if a.fee_id else 0,
        )
        for a in attendees
    ]
    return sorted(nights, key=lambda n: (-n.net_ore, -n.won, n.attendee.name))


def _games_played(evening: Evening, games: list[int], attendees: list[Attendee]):
    """Per attendee id: the games (not voided) they sat in at tonight's tables, and the
    finished ones they won (first place in the league's result)."""
    by_member = {a.member_id: a.pk for a in attendees if a.member_id}
    by_guest = {a.guest_name: a.pk for a in attendees if not a.member_id}
    seats = evening.tables.filter(
        games__id__in=games, games__status__in=("open", "finished")
    ).values_list("games__id", "games__seats__member_id", "games__seats__guest_name")
    played: dict[int, int] = {}
    for _game, member_id, guest_name in seats:
        who = by_member.get(member_id) if member_id else by_guest.get(guest_name)
        if who is not None:
            played[who] = played.get(who, 0) + 1
    won: dict[int, int] = {}
    results = GameResult.objects.filter(
        game_ref__in=[f"game:{pk}" for pk in games], placement=1
    ).values_list("member_id", "guest_name")
    for member_id, guest_name in results:
        who = by_member.get(member_id) if member_id else by_guest.get(guest_name)
        if who is not None:
            won[who] = won.get(who, 0) + 1
    return played, won
