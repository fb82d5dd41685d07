"""The club's books: double-entry accounts, transactions and entries, closed periods, the
keyed audit trail, dues plans and export jobs.

Double entry with one signed amount per entry: positive = credit, negative = debit, and the
entries of a transaction sum to zero. For the accounts people think of as "money somebody
has" — members, pots, betar, the treasury, dues income — a positive balance is that money
(a member at +50 kr is owed 50 kr by the club; at −50 kr the member owes the club). Cash and
expenses are debit-normal: their balances are negative when the box holds money or the club
has spent some, and pages show them negated (``Account.shown_balance``).

Only ``ledger.postings`` writes Transaction and Entry rows. The tables were ``club_*`` until
the ledger became an app of its own (migrations ``ledger.0001``/``0002`` moved them without
touching a row).

The models live in a module per noun — ``books`` (accounts, transactions, entries),
``periods``, ``audit``, ``dues``, ``exports`` — and this package names them all, as Django
and the rest of the code expect of ``ledger.models``.
"""

from ledger.models.audit import AuditRecord
from ledger.models.books import (
    DEBIT_NORMAL_KINDS,
    SYSTEM_LABELS,
    Account,
    AccountKind,
    AccountQuerySet,
    Entry,
    Source,
    Transaction,
)
from ledger.models.dues import DuesPlan
from ledger.models.exports import ExportJob
from ledger.models.periods import Period, PeriodBalance

__all__ = [
    "DEBIT_NORMAL_KINDS",
    "SYSTEM_LABELS",
    "Account",
    "AccountKind",
    "AccountQuerySet",
    "AuditRecord",
    "DuesPlan",
    "Entry",
    "ExportJob",
    "Period",
    "PeriodBalance",
    "Source",
    "Transaction",
]
