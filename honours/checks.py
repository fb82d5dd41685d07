"""The books' checks of the hand prizes (``ledger.register_check``, from ``HonoursConfig.ready``).

``check_prizes_paid``: every prize paid is one transaction from its pot to the player's account
of exactly its amount (a row of 0 has none); an unreversed row's transaction is not reversed, a
taken-back row's reversal reverses it; every transaction the prizes posted (ref ``honour:…``)
belongs to a row; no hand-prize pot is below zero. That each paid hand is still in its game's
replay is scoring's to check (``scoring.recording.hand_honours.check_honours_replay``): honours
never imports scoring. Three queries per club.
"""

from __future__ import annotations

from collections import defaultdict

from club.models import Club
from honours.models import HonourPaid
from honours.services import POT_PREFIX, REF_PREFIX
from ledger.models import Account, AccountKind, Entry, Transaction


def check_prizes_paid(club: Club) -> list[str]:
    rows = list(HonourPaid.objects.filter(club=club).select_related("reversal"))
    problems: list[str] = []
    entries: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for tx_id, key, amount in Entry.objects.filter(
        transaction__club=club, transaction__ref__startswith=REF_PREFIX
    ).values_list("transaction_id", "account__key", "amount_ore"):
        entries[tx_id][key] += amount
    posted = dict(
        Transaction.objects.filter(club=club, ref__startswith=REF_PREFIX).values_list(
            "pk", "reverses_id"
        )
    )
    reversed_ids = {reverses for reverses in posted.values() if reverses is not None}
    claimed: set[int] = set()
    for row in rows:
        label = f"honour {row.pk} ({row.game_ref}, deal {row.deal}, seat {row.seat}, {row.kind})"
        if row.transaction_id is None:
            if row.amount_ore:
                problems.append(f"{label}: {row.amount_ore} öre paid without a transaction")
            continue
        claimed.add(row.transaction_id)
        expected = {row.pot_key: -row.amount_ore, row.payee_key: row.amount_ore}
        got = {k: v for k, v in entries.get(row.transaction_id, {}).items() if v}
        if row.transaction_id not in posted or posted[row.transaction_id] is not None:
            problems.append(f"{label}: its transaction is not a hand prize's payment")
        elif got != expected:
            problems.append(f"{label}: the books moved {dict(got)}, the prize says {expected}")
        if row.reversed_at is None and row.transaction_id in reversed_ids:
            problems.append(f"{label}: its payment was reversed, but the hand still stands")
        if row.reversed_at is not None:
            if row.reversal is None or row.reversal.reverses_id != row.transaction_id:
                problems.append(f"{label}: taken back, but its payment is not reversed")
            else:
                claimed.add(row.reversal_id)
    for tx_id in sorted(set(posted) - claimed):
        problems.append(f"transaction {tx_id}: a hand prize's posting that no honour holds")
    pots = Account.objects.filter(club=club, kind=AccountKind.POT, key__startswith=POT_PREFIX)
    for key, balance in pots.values_list("key", "balance_ore"):
        if balance < 0:
            problems.append(f"{key}: a hand-prize pot below zero ({balance} öre)")
    return problems
