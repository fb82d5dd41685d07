"""CSV files for a spreadsheet: the club's transactions and its balances.

Transactions (one line per entry, so a spreadsheet can sum by account) and balances (one line
per account). The language is the one the page was shown in: Swedish files use ";" between
fields and a decimal comma (what Swedish Excel and LibreOffice expect), English ones "," and a
decimal point. Column names and the few fixed words are written here per language rather than
through gettext: a file format must not change its header because a translation was edited,
and a spreadsheet that reads "Belopp (kr)" keeps working (the season statements,
``ledger.season_statements``, total by source with the same words). Files start with a UTF-8
byte order mark, without which Excel mangles å, ä and ö. Amounts are decimal kronor
(``-12,50``); balances as people read them (cash in the box positive), at a date from
``ledger.balances``. Rows are produced lazily so the view can stream a club's whole history.
Free text that a spreadsheet would run as a formula ("=HYPERLINK(…)" as a memo or a name) is
written with a leading apostrophe (``text_cell``); amounts are never touched, so ``-12,50``
stays a number.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from datetime import date as Date

from club.models import Club
from core.money import ore_to_decimal_text
from ledger.balances import balances_at
from ledger.models import DEBIT_NORMAL_KINDS, Account, Entry

LANGUAGES = ("sv", "en")
DELIMITERS = {"sv": ";", "en": ","}
BOM = "\ufeff"

TRANSACTION_HEADERS = {
    "sv": ["Datum", "Verifikation", "Text", "Källa", "Konto", "Kontotyp", "Belopp (kr)", "Rättar"],
    "en": [
        "Date",
        "Transaction",
        "Memo",
        "Source",
        "Account",
        "Account type",
        "Amount (SEK)",
        "Corrects",
    ],
}
BALANCE_HEADERS = {
    "sv": ["Konto", "Kontotyp", "Saldo (kr)", "Stängt"],
    "en": ["Account", "Account type", "Balance (SEK)", "Closed"],
}
SOURCE_WORDS = {
    "sv": {
        "manual": "manuell",
        "game": "spel",
        "dues": "avgift",
        "settlement": "avräkning",
        "evening": "klubbkväll",
    },
    "en": {
        "manual": "manual",
        "game": "game",
        "dues": "dues",
        "settlement": "settlement",
        "evening": "club evening",
    },
}
KIND_WORDS = {
    "sv": {
        "member": "medlem",
        "pot": "pott",
        "bet": "bet",
        "treasury": "klubbkassa",
        "dues_income": "avgiftsintäkter",
        "expenses": "utgifter",
        "cash": "kontanter",
    },
    "en": {
        "member": "member",
        "pot": "pot",
        "bet": "bet",
        "treasury": "treasury",
        "dues_income": "dues income",
        "expenses": "expenses",
        "cash": "cash",
    },
}
YES = {"sv": "ja", "en": "yes"}
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """Free text (a memo, a name) as a spreadsheet must show it: a cell starting with ``=``,
    ``+``, ``-``, ``@``, tab or CR would be read as a formula, so it gets a leading apostrophe
    (OWASP, CSV injection). Amounts are written by the app from integers and stay numbers."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def csv_language(language: str | None) -> str:
    language = (language or "sv")[:2]
    return language if language in LANGUAGES else "sv"


def csv_lines(header: list[str], rows: Iterable[list[str]], language: str) -> Iterator[str]:
    """The file as text chunks: BOM and header first, then one chunk per row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=DELIMITERS[language], lineterminator="\r\n")

    def flush() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(header)
    yield BOM + flush()
    for row in rows:
        writer.writerow(row)
        yield flush()


def transaction_rows(
    club: Club, language: str, start: Date | None = None, end: Date | None = None
) -> Iterator[list[str]]:
    entries = Entry.objects.filter(transaction__club=club)
    if start is not None:
        entries = entries.filter(date__gte=start)
    if end is not None:
        entries = entries.filter(date__lte=end)
    entries = entries.select_related("transaction", "account").order_by(
        "date", "transaction_id", "id"
    )
    sources, kinds = SOURCE_WORDS[language], KIND_WORDS[language]
    for entry in entries.iterator(chunk_size=2000):
        tx = entry.transaction
        yield [
            entry.date.isoformat(),
            str(tx.pk),
            text_cell(tx.memo),
            sources.get(tx.source, tx.source),
            text_cell(entry.account.label),
            kinds.get(entry.account.kind, entry.account.kind),
            ore_to_decimal_text(entry.amount_ore, language),
            str(tx.reverses_id or ""),
        ]


def transactions_csv(
    club: Club, language: str, start: Date | None = None, end: Date | None = None
) -> Iterator[str]:
    language = csv_language(language)
    return csv_lines(
        TRANSACTION_HEADERS[language], transaction_rows(club, language, start, end), language
    )


def balance_rows(club: Club, language: str, at: Date | None = None) -> Iterator[list[str]]:
    accounts = Account.objects.for_club(club).order_by("kind", "name")
    at_date = balances_at(club, at) if at is not None else None
    kinds = KIND_WORDS[language]
    for account in accounts:
        amount = account.balance_ore if at_date is None else at_date.get(account.pk, 0)
        if account.kind in DEBIT_NORMAL_KINDS:
            amount = -amount
        yield [
            text_cell(account.label),
            kinds.get(account.kind, account.kind),
            ore_to_decimal_text(amount, language),
            YES[language] if account.closed_at else "",
        ]


def balances_csv(club: Club, language: str, at: Date | None = None) -> Iterator[str]:
    language = csv_language(language)
    return csv_lines(BALANCE_HEADERS[language], balance_rows(club, language, at), language)
