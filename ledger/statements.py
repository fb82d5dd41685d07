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

The page shows a statement ``LINES_PER_PAGE`` lines at a time, the latest lines first (the page
that ends at the closing balance), with links to the older ones: a month of a busy account can
hold thousands of entries. ``statement_page`` reads only what it needs for that: the range's
opening balance (one sum over the (account, date) index), then the range's entries as three
small columns (id, amount, the transaction's reference) to group them into lines and run the
balance, then the whole rows — entries, their transactions, the memos in the reader's
language — of the page's lines alone. A fixed number of queries for any page, and the work of
reading and drawing one page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date as Date

from django.core.paginator import Page, Paginator
from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _

from ledger import memos
from ledger.balances import entries_between, opening_balance
from ledger.models import Account, Entry, Source, Transaction

LINES_PER_PAGE = 50


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


# --- the page: one page of lines at a time ---------------------------------------------------


def _game_of(ref: str) -> int | None:
    """``Transaction.game_id`` from the reference alone ("game:17:event:4" → 17)."""
    parts = ref.split(":")
    if len(parts) >= 2 and parts[0] == "game" and parts[1].isdigit():
        return int(parts[1])
    return None


@dataclass(slots=True)
class _Outline:
    """A line before its rows are read: which entries, and what they add up to."""

    entry_ids: list[int]
    amount_ore: int = 0


@dataclass(frozen=True)
class StatementPage:
    """One page of an account's statement between two dates."""

    account: Account
    start: Date | None
    end: Date | None
    opening_ore: int  # the range's opening balance
    closing_ore: int  # …and its closing balance
    brought_ore: int  # the balance before this page's first line
    carried_ore: int  # …and after its last
    lines: list[Line]
    page: Page  # of the range's lines, newest first: number, count, neighbours

    @property
    def is_first(self) -> bool:
        """Whether the page starts at the range's first line (no older page)."""
        return not self.page.has_next()

    @property
    def is_last(self) -> bool:
        """Whether the page ends at the range's last line (no newer page)."""
        return not self.page.has_previous()


def statement_page(
    account: Account,
    start: Date | None = None,
    end: Date | None = None,
    number: int | None = None,
) -> StatementPage:
    """Page ``number`` of the statement's lines, ``LINES_PER_PAGE`` a page counted back from the
    latest (None: page 1, which ends at the range's closing balance; past the end: the page
    with the first line). The page's lines are in the statement's order, oldest first."""
    opening = opening_balance(account, start)
    outlines: list[_Outline] = []
    games: dict[int, _Outline] = {}
    # The reference read by primary key per entry: a join of thousands of entries with their
    # transactions, PostgreSQL may answer by reading every transaction of the club's books.
    tx_ref = Transaction.objects.filter(pk=OuterRef("transaction_id")).values("ref")[:1]
    rows = entries_between(account, start, end).annotate(ref=Subquery(tx_ref))
    for entry_id, amount, ref in rows.order_by("date", "id").values_list("id", "amount_ore", "ref"):
        game_id = _game_of(ref) if ref.startswith("game:") else None
        if game_id is None:  # a line of its own, as in ``statement_lines``
            outlines.append(_Outline([entry_id], amount))
            continue
        outline = games.get(game_id)
        if outline is None:
            outline = games[game_id] = _Outline([])
            outlines.append(outline)
        outline.entry_ids.append(entry_id)
        outline.amount_ore += amount
    # Pages count back from the latest line: page 1 ends at the range's closing balance.
    paginator = Paginator(outlines[::-1], LINES_PER_PAGE, allow_empty_first_page=True)
    page = paginator.get_page(number or 1)
    before = len(outlines) - (page.end_index() if page.object_list else 0)
    brought = opening + sum(outline.amount_ore for outline in outlines[:before])
    lines = _lines_of(page.object_list[::-1])
    running = brought
    for line in lines:
        running += line.amount_ore
        line.running_ore = running
    closing = opening + sum(outline.amount_ore for outline in outlines)
    return StatementPage(account, start, end, opening, closing, brought, running, lines, page)


def _lines_of(outlines: list[_Outline]) -> list[Line]:
    """The page's lines with their rows: entries, transactions and the memos in the reader's
    language (``ledger.memos``), a fixed number of queries."""
    wanted = [entry_id for outline in outlines for entry_id in outline.entry_ids]
    entries = Entry.objects.select_related("transaction", "transaction__reverses").in_bulk(wanted)
    memos.describe(
        [e.transaction for e in entries.values()]
        + [e.transaction.reverses for e in entries.values()]
    )
    lines = []
    for outline in outlines:
        rows = [StatementRow(entries[i], entries[i].amount_ore, 0) for i in outline.entry_ids]
        game_id = rows[0].entry.transaction.game_id
        if game_id is None:
            lines.append(_single_line(rows[0]))
            continue
        line = _game_line(rows[0], game_id)
        for row in rows:
            _add_deal(line, row)
        lines.append(line)
    return lines
