"""Statements: an account's entries with the running balance, and the same as a member reads
it, one line per game, payments and dues on lines of their own.

``statement`` lists every entry of an account between two dates, from the range's opening
balance (``ledger.balances``), each with its running balance and its memo in the reader's
language (``ledger.memos``); exports and "my data" read it whole. A Kille evening is thirty
entries, each with the deal's whole narrative as its memo. ``statement_lines`` groups the
entries of one game — its transactions carry the reference ``game:<id>:event:<seq>``, and an
undo's reversal the same reference — into one line with the game's net, dated by the game's
first entry and named by the game ("Kille #17", the memo's head, which scoring writes as
"<game> #<id>: <deal>"; ``club`` never imports ``scoring``). The line keeps its deals for the
page to expand. Every other transaction (a payment, dues, a transfer, the reversal of one) is
a line of its own.

The running balance runs over the lines in the order shown, starting at the statement's
opening balance, so the last line ends at its closing balance. Pure arithmetic on the rows
``statement`` has read already: no query, however many lines.

The member's page reads one page of lines at a time (``ledger.statement_pages``), and builds
its lines with ``grouped_lines``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date as Date

from django.utils.translation import gettext as _

from ledger import memos
from ledger.balances import entries_between, opening_balance
from ledger.models import Account, Entry, Source


@dataclass(frozen=True)
class StatementRow:
    entry: Entry
    amount_ore: int
    running_ore: int


@dataclass(frozen=True)
class Statement:
    account: Account
    start: Date | None
    end: Date | None
    opening_ore: int
    rows: list[StatementRow]
    closing_ore: int


def statement(account: Account, start: Date | None = None, end: Date | None = None) -> Statement:
    """Every entry of the account between two dates with its running balance."""
    opening = opening_balance(account, start)
    entries = entries_between(account, start, end)
    running = opening
    rows = []
    for entry in entries.select_related("transaction", "transaction__reverses").order_by(
        "date", "id"
    ):
        running += entry.amount_ore
        rows.append(StatementRow(entry, entry.amount_ore, running))
    memos.describe(
        [row.entry.transaction for row in rows] + [row.entry.transaction.reverses for row in rows]
    )
    return Statement(account, start, end, opening, rows, running)


@dataclass(frozen=True)
class Deal:
    """One entry inside a game's line: what happened, and what it did to the account."""

    date: Date
    text: str
    amount_ore: int
    transaction_id: int
    is_reversal: bool


@dataclass
class Line:
    """One line of the statement: a game (with its deals), or one transaction."""

    date: Date
    title: str
    source: str
    amount_ore: int = 0
    running_ore: int = 0
    game_id: int | None = None
    transaction_id: int | None = None
    is_reversal: bool = False
    named: bool = False
    deals: list[Deal] = field(default_factory=list)

    @property
    def is_game(self) -> bool:
        return self.game_id is not None

    @property
    def source_label(self) -> str:
        return str(Source(self.source).label)


def _game_name(memo: str, game_id: int) -> str | None:
    head, sep, _rest = memo.partition(": ")
    return head if sep and head.endswith(f"#{game_id}") else None


def _deal_text(memo: str, game_id: int) -> str:
    head, sep, rest = memo.partition(": ")
    return rest if sep and head.endswith(f"#{game_id}") else memo


def _game_line(row: StatementRow, game_id: int) -> Line:
    title = _("Game #%(id)s") % {"id": game_id}
    return Line(row.entry.date, title, Source.GAME, game_id=game_id)


def _add_deal(line: Line, row: StatementRow) -> None:
    tx = row.entry.transaction
    reversal = tx.reverses_id is not None
    # A reversal's memo is its reason; the deal it takes back names the game (read with it by
    # ``statement``).
    name = _game_name(tx.reverses.memo if reversal else tx.memo, line.game_id)
    if name and not line.named:
        line.title, line.named = name, True
    text = tx.memo if reversal else _deal_text(tx.memo, line.game_id)
    line.deals.append(Deal(row.entry.date, text, row.amount_ore, tx.pk, reversal))
    line.amount_ore += row.amount_ore


def _single_line(row: StatementRow) -> Line:
    tx = row.entry.transaction
    return Line(
        row.entry.date,
        memos.describe_opening([tx]).get(tx, tx.memo),
        tx.source,
        amount_ore=row.amount_ore,
        transaction_id=tx.pk,
        is_reversal=tx.reverses_id is not None,
    )


def statement_lines(stmt: Statement) -> list[Line]:
    """The statement's rows as lines: a game's entries together, everything else alone."""
    lines: list[Line] = []
    games: dict[int, Line] = {}
    for row in stmt.rows:
        game_id = row.entry.transaction.game_id
        if game_id is None:
            lines.append(_single_line(row))
            continue
        if game_id not in games:
            games[game_id] = _game_line(row, game_id)
            lines.append(games[game_id])
        _add_deal(games[game_id], row)
    running = stmt.opening_ore
    for line in lines:
        running += line.amount_ore
        line.running_ore = running
    return lines


def grouped_lines(groups: list[list[StatementRow]]) -> list[Line]:
    """Lines of rows already grouped (one game's rows, or one row of its own), in the order
    given; their running balances are the caller's."""
    lines = []
    for rows in groups:
        game_id = rows[0].entry.transaction.game_id
        if game_id is None:
            lines.append(_single_line(rows[0]))
            continue
        line = _game_line(rows[0], game_id)
        for row in rows:
            _add_deal(line, row)
        lines.append(line)
    return lines
