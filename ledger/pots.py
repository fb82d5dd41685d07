"""Pots and betar: the club's money that games play from and that outlives a game.

The one place that knows how a game's money accounts are keyed: ``pot:<game>`` for the club's
pot a game carries between evenings, ``bet:<game>:<n>`` for bet number n (Polskt pass). At a
club evening with several tables of one pot game each table has its own: ``pot:<game>:<t>``
and ``bet:<game>:<t>:<n>`` for table t (``evenings``). Scoring asks for them by game (and
table), never by spelling the key. Like every account they are opened on first use;
``game_pot(..., create=False)`` only looks. A pot's or bet's stored name is its label in the
server's language; pages show ``Account.label``, rendered in the reader's.
"""

from __future__ import annotations

from club.models import Club, Member
from ledger.models import Account, AccountKind


def pot_account(club: Club, key: str, name: str) -> Account:
    """A named pot that outlives games, e.g. ``pot_account(club, "pot:kille", "Killepotten")``."""
    account, _created = Account.objects.get_or_create(
        club=club, key=key, defaults={"kind": AccountKind.POT, "name": name}
    )
    return account


def bet_account(club: Club, key: str, name: str, owner: Member | None = None) -> Account:
    account, _created = Account.objects.get_or_create(
        club=club, key=key, defaults={"kind": AccountKind.BET, "name": name, "member": owner}
    )
    return account


def game_pot_key(game_key: str, table: int | None = None) -> str:
    return f"pot:{game_key}" if table is None else f"pot:{game_key}:{int(table)}"


def game_bet_key(game_key: str, bet_id: int | str, table: int | None = None) -> str:
    prefix = f"bet:{game_key}:" if table is None else f"bet:{game_key}:{int(table)}:"
    return f"{prefix}{bet_id}"


def game_pot(
    club: Club, game_key: str, *, table: int | None = None, create: bool = True
) -> Account | None:
    """The club's pot for ``game_key`` (table ``table``'s, at an evening of several tables);
    ``create=False`` answers None for a pot that was never opened (nothing is written)."""
    key = game_pot_key(game_key, table)
    if not create:
        return Account.objects.filter(club=club, key=key).first()
    account, _created = Account.objects.get_or_create(
        club=club, key=key, defaults={"kind": AccountKind.POT, "name": _named(AccountKind.POT, key)}
    )
    return account


def game_bet(
    club: Club,
    game_key: str,
    bet_id: int | str,
    owner: Member | None = None,
    *,
    table: int | None = None,
) -> Account:
    """Bet number ``bet_id`` of ``game_key`` (opened on first use, with its owner if any)."""
    key = game_bet_key(game_key, bet_id, table)
    defaults = {"kind": AccountKind.BET, "name": _named(AccountKind.BET, key), "member": owner}
    account, _created = Account.objects.get_or_create(club=club, key=key, defaults=defaults)
    return account


def game_bet_balances(club: Club, game_key: str, *, table: int | None = None) -> dict[int, int]:
    """Every bet of ``game_key`` (at ``table``) the club has had, by number: its balance."""
    prefix = game_bet_key(game_key, "", table)
    rows = Account.objects.filter(club=club, kind=AccountKind.BET, key__startswith=prefix)
    balances: dict[int, int] = {}
    for key, balance in rows.values_list("key", "balance_ore"):
        suffix = key[len(prefix) :]
        if suffix.isdigit():
            balances[int(suffix)] = balance
    return balances


def table_pots(club: Club, game_key: str) -> dict[int, Account]:
    """The pots of ``game_key``'s tables the club has had, by table number."""
    prefix = game_pot_key(game_key) + ":"
    pots = Account.objects.filter(club=club, kind=AccountKind.POT, key__startswith=prefix)
    return {int(p.key[len(prefix) :]): p for p in pots if p.key[len(prefix) :].isdigit()}


def _named(kind: str, key: str) -> str:
    """The name stored with a new pot or bet: its label in the server's language (pages show
    ``Account.label``, rendered in the reader's)."""
    return Account(kind=kind, key=key).label
