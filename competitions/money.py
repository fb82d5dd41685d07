"""A competition's money: the entry fees into its pool, the prizes out of it, once each.

Design
- The pool is a pot named after the competition (``ledger.pot_account``, key
  ``competition:<id>``, the competition's ``ref``).
- ``post_fee``: an entrant's fee, once: the ledger key ``<ref>:entrant:<entrant id>`` (the
  word ``entrant``, not ``fee``: the club archive rewrites the ids after each word of a key,
  and ``fee`` there names an evening's attendee; and the
  entrant's ``fee`` row, written in the same transaction as the entrant). A member pays from
  his account; a guest pays cash at the table, so the cash box takes it (as a guest settles
  on the spot at an evening). A withdrawn entrant's fee stays in the pool: it was an entry to
  the competition, and the prizes are paid from what came in.
- ``pay_prizes``: at the finish, the whole pool by the club's percentages over the final
  ranking (``prizes.split``: tied places share; the öre the rounding leaves go one each to
  the higher places; places nobody claimed go to the lowest placed, so nothing stays behind),
  in one balanced transaction keyed ``<ref>:prizes``: a second finish finds it. A member's
  prize goes to his account, a guest's out of the cash box. Each winner's place and prize are
  written on his entrant row (``Entrant.place``, ``prize_ore``).
- ``check_competition_money`` (registered with ``ledger.register_check``): for each of a
  club's competitions, the pool's entries are exactly the fees (each the competition's fee,
  from a non-duplicated entrant) and the prize payment; before the finish the pool holds the
  fees, after it nothing, and the prizes paid are what the entrants' ``prize_ore`` say.

Relies on ``ledger`` (accounts, postings) and ``competitions.prizes``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from django.utils.translation import gettext as _

import ledger
from club.models import Club, User
from competitions import prizes as prize_split
from competitions.models import Competition, Entrant
from ledger.models import Account, AccountKind, Entry, Source, Transaction


def pool_key(competition: Competition) -> str:
    return competition.ref


def pool_account(competition: Competition) -> Account:
    """The competition's pool (opened on first use)."""
    return ledger.pot_account(competition.club, pool_key(competition), competition.name[:100])


def entrant_account(entrant: Entrant) -> Account:
    """Whose money: the member's account, or the club's cash box for a guest."""
    club = entrant.competition.club
    if entrant.member_id:
        return ledger.member_account(entrant.member)
    return ledger.system_account(club, AccountKind.CASH)


def fee_key(competition: Competition, entrant_id: int) -> str:
    return f"{competition.ref}:entrant:{entrant_id}"


def prizes_key(competition: Competition) -> str:
    return f"{competition.ref}:prizes"


def post_fee(entrant: Entrant, by: User | None) -> Transaction | None:
    """The entrant's fee into the pool, once (its ledger key); None when there is no fee."""
    competition = entrant.competition
    if entrant.fee_id or competition.entry_fee_ore <= 0:
        return entrant.fee
    key = fee_key(competition, entrant.pk)
    tx = ledger.post(
        competition.club,
        ledger.legs_for_transfer(
            entrant_account(entrant), pool_account(competition), competition.entry_fee_ore
        ),
        _("%(competition)s: entry fee, %(name)s")
        % {"competition": competition.name, "name": entrant.name},
        Source.EVENING,
        by,
        key=key,
        ref=key,
    )
    entrant.fee = tx
    entrant.save(update_fields=["fee"])
    return tx


def pay_prizes(
    competition: Competition, places: Sequence[tuple[Entrant, int]], by: User | None
) -> Transaction | None:
    """The pool to the winners by the club's percentages, once (see the module docstring).
    ``places``: (entrant, rank) best first, ties sharing a rank. The caller holds the
    competition's row lock."""
    if competition.prizes_id:
        return competition.prizes
    pool = pool_account(competition)
    pool.refresh_from_db()
    if pool.balance_ore <= 0 or not competition.prize_percents:
        return None
    by_id = {entrant.pk: entrant for entrant, _rank in places}
    won = prize_split.split(
        pool.balance_ore,
        competition.prize_percents,
        [(entrant.pk, rank) for entrant, rank in places],
    )
    legs: list[tuple[Account, int]] = [(pool, -pool.balance_ore)]
    for prize in won:
        legs.append((entrant_account(by_id[prize.player]), prize.amount_ore))
    tx = ledger.post(
        competition.club,
        _merged(legs),
        _("%(competition)s: prizes") % {"competition": competition.name},
        Source.EVENING,
        by,
        key=prizes_key(competition),
        ref=prizes_key(competition),
    )
    competition.prizes = tx
    competition.save(update_fields=["prizes"])
    for prize in won:
        Entrant.objects.filter(pk=prize.player).update(place=prize.rank, prize_ore=prize.amount_ore)
    return tx


def _merged(legs: list[tuple[Account, int]]) -> list[tuple[Account, int]]:
    """One entry per account (two guests' prizes both come out of the cash box)."""
    total: dict[int, int] = defaultdict(int)
    accounts: dict[int, Account] = {}
    for account, amount in legs:
        total[account.pk] += amount
        accounts[account.pk] = account
    return [(accounts[pk], amount) for pk, amount in total.items() if amount]


def check_competition_money(club: Club) -> list[str]:
    """The club's competitions' pools against their fees and prizes (the module docstring)."""
    problems: list[str] = []
    competitions = {
        c.ref: c for c in Competition.objects.filter(club=club).prefetch_related("entrants")
    }
    pools = {
        a.key: a
        for a in Account.objects.filter(club=club, kind=AccountKind.POT, key__in=list(competitions))
    }
    entries: dict[int, list[Entry]] = defaultdict(list)
    for entry in Entry.objects.filter(account__in=list(pools.values())).select_related(
        "transaction"
    ):
        entries[entry.account_id].append(entry)
    for ref, competition in competitions.items():
        fees = {e.fee_id: e for e in competition.entrants.all() if e.fee_id}
        pool = pools.get(ref)
        if pool is None:
            if fees or competition.prizes_id:
                problems.append(f"{ref}: fees or prizes without a pool")
            continue
        taken = paid = 0
        for entry in entries[pool.pk]:
            tx = entry.transaction
            if tx.pk in fees:
                if tx.key != fee_key(competition, fees[tx.pk].pk):
                    problems.append(f"{ref}: fee {tx.pk} is keyed {tx.key!r}")
                if entry.amount_ore != competition.entry_fee_ore:
                    problems.append(f"{ref}: fee {tx.pk} put {entry.amount_ore} in the pool")
                taken += entry.amount_ore
            elif tx.pk == competition.prizes_id:
                paid -= entry.amount_ore
            else:
                problems.append(f"{ref}: transaction {tx.pk} moved the pool")
        if pool.balance_ore != taken - paid:
            problems.append(
                f"{ref}: the pool holds {pool.balance_ore}, fees less prizes {taken - paid}"
            )
        if competition.prizes_id:
            if pool.balance_ore != 0:
                problems.append(f"{ref}: {pool.balance_ore} öre left in the pool after the prizes")
            if sum(e.prize_ore for e in competition.entrants.all()) != paid:
                problems.append(f"{ref}: the entrants' prizes do not add up to the prizes paid")
    return problems
