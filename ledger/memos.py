"""Memos in the reader's language.

A memo is stored as text when money moves, in the language of whoever moved it. Pages and
exports call ``describe`` on the transactions they show, and every registered describer puts
the memos it knows better in the reader's language with today's names: scoring a game's deal
(from the event's lines), evenings its fees and pot moves, and the books their own — an
opening from the paper books (``describe_opening``) and a dues charge (``describe_dues``),
registered in ``LedgerConfig.ready``. Other apps register from their ``AppConfig.ready``, so
the ledger never imports them. The override is in memory only: a transaction is never saved
again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from django.utils.translation import gettext as _

from ledger import opening
from ledger.models import Source, Transaction

Describer = Callable[[list[Transaction]], dict[Transaction, str]]
_DESCRIBERS: list[Describer] = []


def register_describer(describer: Describer) -> Describer:
    _DESCRIBERS.append(describer)
    return describer


def describe(transactions: Iterable[Transaction | None]) -> None:
    """Put each transaction's memo in the reader's language, where an app knows how (a few
    queries for any number of transactions)."""
    shown = [tx for tx in transactions if tx is not None]
    for describer in _DESCRIBERS:
        for tx, text in describer(shown).items():
            tx.memo = text


def describe_opening(transactions: list[Transaction]) -> dict[Transaction, str]:
    """The club's opening balances read as such in the reader's language ("Opening balance
    (from the paper books), <date>"), not as their stored memo (``register_describer``);
    a reversal keeps its reason. No query."""
    return {
        tx: opening.opening_memo(tx.date)
        for tx in transactions
        if tx.source == Source.OPENING and tx.reverses_id is None
    }


_DUES_KEY = re.compile(r"dues:\d+:([\w-]+):\d+")


def describe_dues(transactions: list[Transaction]) -> dict[Transaction, str]:
    """A dues charge in the reader's language ("Membership fee 2026"), from its key rather than
    the memo stored in the club's language when it was charged (``ledger.dues``). No query."""
    texts = {}
    for tx in transactions:
        match = _DUES_KEY.fullmatch(tx.key or "")
        if match and tx.source == Source.DUES and tx.reverses_id is None:
            texts[tx] = _("Membership fee %(period)s") % {"period": match[1]}
    return texts
