"""Tonight's money: each account's result, what is still open, the settle-up's payments, and
each attendee's evening.

Design
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
  a payment to or from ``cash`` is one with the club (its Swish number). ``paid_so_far`` lists
  the payments recorded (``ledger.payments.record_settlement``, ref ``paid_ref``).
- ``summary``: per attendee (members and guests alike), the games played at tonight's tables,
  won, tonight's result and the fee, ranked by result, then wins, then name.
- ``settle_holds``: why tonight's money may not be settled yet, from the gates other apps
  register (``register_settle_gate``: scoring refuses while a game the club wants confirmed is
  not); ``flags``: what the host and the treasurer should look at tonight
  (``register_flags``: scoring's disputed games). Each is ``fn(evening) -> [Hold]``.

Relies on the ledger's rows (sums by the database) and ``ledger.settle``; the games are
scoring's, read by relation (``Table.games``), and who won is the league's ``GameResult``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Q, Sum
from django.utils.translation import gettext as _

from evenings.models import Attendee, Evening, Table
from league.models import GameResult
from ledger import settle
from ledger.models import Account, AccountKind, Entry, Transaction

PARTY_KINDS = (AccountKind.MEMBER, AccountKind.GUEST)


@dataclass(frozen=True)
class Hold:
    """Something about tonight in words, with the page that shows it."""

    text: str
    url: str = ""


HoldSource = Callable[[Evening], list]
_SETTLE_GATES: list[HoldSource] = []
_FLAGS: list[HoldSource] = []


def register_settle_gate(gate: HoldSource) -> HoldSource:
    """``gate(evening)``: the reasons (``Hold``-like: ``text``, ``url``) tonight's settle-up
    must wait; registering twice is harmless."""
    if gate not in _SETTLE_GATES:
        _SETTLE_GATES.append(gate)
    return gate


def register_flags(source: HoldSource) -> HoldSource:
    if source not in _FLAGS:
        _FLAGS.append(source)
    return source


def settle_holds(evening: Evening) -> list:
    return [hold for gate in _SETTLE_GATES for hold in gate(evening)]


def lock_games(evening: Evening) -> None:
    """Lock the rows of the games at the evening's tables (scoring's, by the relation), inside
    the caller's transaction: an event, an undo or a word on a game waits for it, so a payment
    asked of the settle gate is recorded against the games as the gate saw them."""
    games = Table._meta.get_field("games").related_model
    list(games.objects.select_for_update().filter(table__evening=evening).values_list("pk"))


def flags(evening: Evening) -> list:
    return [flag for source in _FLAGS for flag in source(evening)]


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
