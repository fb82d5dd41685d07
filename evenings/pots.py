"""Where a pot game's money is at a club evening: the club's pot, and one pot per table.

The rule (shown on the evening page as ``RULE``)
- A pot game (Kille, Polskt pass) carries a pot between evenings: the club's (``pot:kille``),
  or under the *carry* policy also each table number's (``pot:kille:2``).
- **Forming tables shares the club's pot among the tables that have not started playing.**
  Each time tables of a pot game are formed, the club's pot and what earlier tables of that
  game got from it tonight are pooled — but only tables where no game has started yet: money
  on a table that is playing is in play, and moving it would pull it from under a deal — and
  the pool is shared equally among those tables and the new ones (whole öre; the odd öre
  stays in the club's pot). So the order in which tables are formed before play begins does
  not matter: table 1 seated by hand and table 2 drawn a minute later end up with the same
  share, as two tables formed in one go would. A table formed after the others have started
  shares only what the club's pot still holds.
- Money a table already held from before tonight (its own pot, under *carry*) stays its own:
  only tonight's share is pooled again.
- **Closing under *merge*** brings every table's pot of the evening back to the club's pot;
  under *carry* each table keeps its pot for the same table number next time.
- Every move is one balanced ledger transaction with an idempotency key: a re-share is keyed
  by the tables it covers (the newest table's number makes it unique), the merge by the
  evening and game. Its ref says what it was, so the books can be checked against the rule.

The check (``check_pot_moves``, registered with ``ledger.register_check``): for every evening
and pot game, the moves are replayed in order and each must be what the rule allows at that
moment: a re-share covers only tables not yet playing, leaves them equal and the club's pot
with less than one öre per table; a merge empties the evening's tables' pots into the club's
pot; nothing else touches them. ``pot_moves`` gives, per pot account, what these moves put
there, so scoring's check can expect each pot to hold what the games left there plus the
evening's moves. And a prize pool (``prizes:<evening>``) holds only that evening's entry fees
less its drive's prizes.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Sequence

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import ledger
from club.models import Club, User
from engine import registry
from evenings.models import Evening, Table
from ledger.models import Entry, Source, Transaction

RULE = gettext_lazy(
    "The club's pot is shared equally among tonight's tables of the game that have not started "
    "playing, whenever each is formed; a table that is already playing keeps its pot."
)

# evening:<id>:split:<game>:<t1-t2-…> (the tables that share), evening:<id>:merge:<game>
MOVE_REF = re.compile(r"evening:(\d+):(split|merge):(\w+)(?::([\d-]+))?")
MOVE_REF_SQL = r"^evening:\d+:(split|merge):"  # the same, for the database's regex lookup
VOIDED = "voided"  # scoring's GameStatus.VOIDED, spelled here: evenings never imports scoring


def is_pot_game(game_key: str) -> bool:
    return registry.get(game_key).declaration.plays_from_pot


def share_ref(evening: Evening, game_key: str, tables: Sequence[int]) -> str:
    return f"{evening.ref}:split:{game_key}:{'-'.join(str(n) for n in sorted(tables))}"


def merge_ref(evening: Evening, game_key: str) -> str:
    return f"{evening.ref}:merge:{game_key}"


def tonights_shares(evening: Evening, game_key: str) -> dict[int, int]:
    """What each table of ``game_key`` got from the club's pot tonight, by table number."""
    prefix = f"{evening.ref}:split:{game_key}:"
    rows = (
        Entry.objects.filter(
            transaction__club=evening.club_id,
            transaction__ref__startswith=prefix,
            account__key__startswith=ledger.game_pot_key(game_key) + ":",
        )
        .values_list("account__key")
        .annotate(s=Sum("amount_ore"))
        .order_by()
    )
    return {int(key.rsplit(":", 1)[1]): total for key, total in rows}


def share_club_pot(
    evening: Evening, game_key: str, new_tables: Sequence[Table], by: User | None
) -> Transaction | None:
    """Share the club's pot of ``game_key`` equally among ``new_tables`` and tonight's tables of
    that game not yet playing (the caller holds the club's lock). See the module's rule."""
    if not new_tables:
        return None
    club = evening.club
    club_pot = ledger.game_pot(club, game_key, create=False)
    earlier = evening.tables.filter(game_key=game_key).exclude(pk__in=[t.pk for t in new_tables])
    playing = Count("games", filter=~Q(games__status=VOIDED))
    waiting = list(earlier.annotate(playing=playing).filter(playing=0))
    sharing = sorted([*waiting, *new_tables], key=lambda t: t.number)
    shares = tonights_shares(evening, game_key)
    back = {t.number: shares.get(t.number, 0) for t in waiting if shares.get(t.number, 0)}
    pool = (club_pot.balance_ore if club_pot else 0) + sum(back.values())
    share = pool // len(sharing)
    if share <= 0 and not back:
        return None
    pots = {t.number: ledger.game_pot(club, game_key, table=t.number) for t in sharing}
    club_pot = club_pot or ledger.game_pot(club, game_key)
    legs = [(pots[n], -amount) for n, amount in sorted(back.items())]
    if back:
        legs.append((club_pot, sum(back.values())))
    if share > 0:
        legs.append((club_pot, -share * len(sharing)))
        legs += [(pots[t.number], share) for t in sharing]
    numbers = [t.number for t in sharing]
    ref = share_ref(evening, game_key, numbers)
    memo = _("Evening %(date)s: the club's pot shared among tables %(tables)s") % {
        "date": evening.date,
        "tables": "-".join(str(n) for n in numbers),
    }
    return ledger.post(club, legs, memo, Source.EVENING, by, date=evening.date, key=ref, ref=ref)


def merge_table_pots(evening: Evening, game_key: str, by: User | None) -> Transaction | None:
    """Every table's pot of the evening back to the club's pot (the *merge* policy)."""
    numbers = sorted(set(evening.tables.filter(game_key=game_key).values_list("number", flat=True)))
    pots = ledger.table_pots(evening.club, game_key)
    legs = [(pots[n], -pots[n].balance_ore) for n in numbers if n in pots and pots[n].balance_ore]
    if not legs:
        return None
    back = -sum(amount for _account, amount in legs)
    legs.append((ledger.game_pot(evening.club, game_key), back))
    memo = _("Evening %(date)s: the tables' pots back to the club's pot") % {"date": evening.date}
    ref = merge_ref(evening, game_key)
    return ledger.post(
        evening.club, legs, memo, Source.EVENING, by, date=evening.date, key=ref, ref=ref
    )


# --- the books' check ---------------------------------------------------------------------


def _move_transactions(club: Club):
    return (
        Transaction.objects.filter(club=club, source=Source.EVENING, ref__regex=MOVE_REF_SQL)
        .prefetch_related("entries__account")
        .order_by("pk")
    )


def pot_moves(club: Club) -> dict[str, int]:
    """What the evenings' re-shares and merges put into each pot account (by key)."""
    rows = (
        Entry.objects.filter(
            transaction__club=club,
            transaction__source=Source.EVENING,
            transaction__ref__regex=MOVE_REF_SQL,
        )
        .values_list("account__key")
        .annotate(s=Sum("amount_ore"))
        .order_by()
    )
    return {key: total for key, total in rows if total}


def check_pot_moves(club: Club) -> list[str]:
    """Every re-share and merge of the club's evenings against the rule, in words."""
    moves = [(tx, MOVE_REF.fullmatch(tx.ref)) for tx in _move_transactions(club)]
    if not moves:
        return _check_prize_pools(club)
    keys = {entry.account.key for tx, _match in moves for entry in tx.entries.all()}
    history = _balances_by_transaction(club, keys)
    evenings = Evening.objects.filter(club=club).in_bulk(
        {int(match[1]) for _tx, match in moves if match}
    )
    tables = defaultdict(list)
    for table in Table.objects.filter(evening__in=evenings.values()).prefetch_related("games"):
        tables[(table.evening_id, table.game_key)].append(table)
    problems: list[str] = []
    shares: dict[tuple[int, str], dict[int, int]] = defaultdict(dict)
    for tx, match in moves:
        if match is None or int(match[1]) not in evenings:
            problems.append(f"transaction {tx.pk} ({tx.ref}): a pot move of no evening")
            continue
        evening, kind, game_key = evenings[int(match[1])], match[2], match[3]
        at_evening = {t.number: t for t in tables[(evening.pk, game_key)]}
        legs = _legs(tx)
        label = f"evening {evening.pk} ({evening.date}), {kind} of {game_key} (transaction {tx.pk})"
        if kind == "split":
            covered = [int(n) for n in (match[4] or "").split("-") if n]
            problems += _check_share(
                label,
                tx,
                game_key,
                covered,
                at_evening,
                legs,
                history,
                shares[(evening.pk, game_key)],
            )
        else:
            problems += _check_merge(label, tx, game_key, at_evening, legs, history)
    return problems + _check_prize_pools(club)


def _legs(tx: Transaction) -> dict[str, int]:
    legs: dict[str, int] = defaultdict(int)
    for entry in tx.entries.all():
        legs[entry.account.key] += entry.amount_ore
    return dict(legs)


class History:
    """An account's balance after each transaction that touched it, in order."""

    def __init__(self) -> None:
        self.tx_ids: list[int] = []
        self.balances: list[int] = []

    def after(self, tx_id: int) -> int:
        """The balance once transaction ``tx_id`` was posted (0 before the first)."""
        at = bisect.bisect_right(self.tx_ids, tx_id)
        return self.balances[at - 1] if at else 0


def _balances_by_transaction(club: Club, keys: set[str]) -> dict[str, History]:
    """Per account key: its balance after each of its transactions."""
    running: dict[str, int] = defaultdict(int)
    history: dict[str, History] = defaultdict(History)
    rows = (
        Entry.objects.filter(account__club=club, account__key__in=keys)
        .values_list("account__key", "transaction_id")
        .annotate(s=Sum("amount_ore"))
        .order_by("transaction_id")
    )
    for key, tx_id, amount in rows:
        running[key] += amount
        history[key].tx_ids.append(tx_id)
        history[key].balances.append(running[key])
    return history


def _after(history: dict[str, History], key: str, tx_id: int) -> int:
    return history[key].after(tx_id) if key in history else 0


def _check_share(label, tx, game_key, covered, at_evening, legs, history, shares) -> list[str]:
    problems = []
    club_key = ledger.game_pot_key(game_key)
    table_keys = {ledger.game_pot_key(game_key, n): n for n in covered}
    stray = sorted(set(legs) - set(table_keys) - {club_key})
    if stray or not covered:
        problems.append(f"{label}: moves money outside the club's pot and its tables ({stray})")
    for number in covered:
        table = at_evening.get(number)
        if table is None:
            problems.append(
                f"{label}: table {number} is not one of the evening's {game_key} tables"
            )
            continue
        started = [
            g for g in table.games.all() if g.status != VOIDED and g.started_at < tx.created_at
        ]
        if started:
            problems.append(f"{label}: table {number} was already playing; its pot was in play")
    for key, number in table_keys.items():
        shares[number] = shares.get(number, 0) + legs.get(key, 0)
    given = {shares.get(n, 0) for n in covered}
    if len(given) > 1:
        problems.append(f"{label}: the tables' shares differ ({sorted(given)} öre)")
    left = _after(history, club_key, tx.pk)
    if not 0 <= left < max(len(covered), 1):
        problems.append(
            f"{label}: the club's pot kept {left} öre, more than the odd öre of an equal share"
        )
    return problems


def _check_merge(label, tx, game_key, at_evening, legs, history) -> list[str]:
    problems = []
    club_key = ledger.game_pot_key(game_key)
    table_keys = {ledger.game_pot_key(game_key, n) for n in at_evening}
    stray = sorted(set(legs) - table_keys - {club_key})
    if stray:
        problems.append(f"{label}: moves money outside the club's pot and its tables ({stray})")
    for key in sorted(table_keys):
        if _after(history, key, tx.pk) != 0 and key in legs:
            problems.append(f"{label}: {key} was not emptied into the club's pot")
        elif key not in legs and _after(history, key, tx.pk) != 0:
            problems.append(f"{label}: {key} still held money when its evening closed")
    return problems


def _check_prize_pools(club: Club) -> list[str]:
    """A prize pool holds its evening's entry fees less its drive's prizes, nothing else."""
    entries = Entry.objects.filter(account__club=club, account__key__startswith="prizes:")
    problems = []
    for key, tx_id, ref in entries.values_list(
        "account__key", "transaction_id", "transaction__ref"
    ):
        own = re.escape(f"evening:{key.partition(':')[2]}:")
        if not re.fullmatch(rf"{own}(fee:\d+|drive:\d+:prizes)", ref):
            problems.append(
                f"{key}: transaction {tx_id} is neither a fee nor the prizes of its evening"
            )
    return problems
