"""The statement page: an account's statement one page of lines at a time, the latest first.

A line is a game (all of the account's entries in the range with the game's reference
``game:<id>:…``, placed at the first of them) or an entry of its own (``ledger.statements``);
page 1 holds the latest ``LINES_PER_PAGE`` lines and ends at the range's closing balance, page
2 the lines before them, and so on. A busy account holds 100,000 entries: a page reads back
from the range's end only as far as its lines reach, never the whole range.

``statement_page`` reads, newest first down the (account, date, id) index, the latest
``ENTRIES_PER_LINE`` entries per line it needs (the lines of pages 1…n, and one more, which
says whether there is an older page): id, date, amount and the transaction's reference
(``_window``). Each entry of its own starts a line; a game's line starts at its oldest entry
in the window — unless the game has an entry older than the window, which the references'
index answers for the page's games in one query (``_older_games``): such a line starts before
every line of the window and belongs to an older page. Too few lines in the window, and it is
read again, larger. The closing balance is the account's cached balance (read in the window's
query, so both are of one moment) or, for a range with an end, the balance that day
(``ledger.balances``); each line of pages 1…n has all its entries in the window, so the balance
before the page is the closing balance less their sum — a sum of the rows already read. Then
the page's entries alone are read whole, with their transactions and memos in the reader's
language.

So a page costs a fixed number of queries (one more each time the window is widened, when a
page's lines hold more than ``ENTRIES_PER_LINE`` entries each) and the work of its own lines
and the newer ones: page 1 of 100,000 entries as much as page 1 of a hundred. How many pages
there are is known only when the window reached back to the range's first entry (then the
opening balance too is the closing balance less the window's sum); otherwise the page says
"Page 3", not "of how many". The exports read the whole statement (``ledger.statements``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date as Date

from django.db.models import OuterRef, Q, Subquery

from ledger import memos
from ledger.balances import balance, entries_between
from ledger.models import Account, Entry, Transaction
from ledger.statements import Line, StatementRow, grouped_lines

LINES_PER_PAGE = 50
# The entries a page reads at first, per line it looks for: a payment is one entry, a game a
# few of the member's (more are read if the lines found took more).
ENTRIES_PER_LINE = 4


def _game_of(ref: str) -> int | None:
    """``Transaction.game_id`` from the reference alone ("game:17:event:4" → 17)."""
    if not ref.startswith("game:"):
        return None
    parts = ref.split(":")
    return int(parts[1]) if parts[1].isdigit() else None


# A line's key: ("g", game id) for a game's entries, ("e", entry id) for an entry of its own.
type _Key = tuple[str, int]
type _Pos = tuple[Date, int]  # an entry's place in the statement: (date, id)


@dataclass(frozen=True, slots=True)
class _Row:
    """An entry as the page first reads it: its place, its amount and its line."""

    pos: _Pos
    amount_ore: int
    key: _Key


@dataclass(frozen=True)
class _Window:
    """The range's latest entries, newest first; ``complete``: back to the range's first."""

    rows: list[_Row]
    complete: bool
    closing_ore: int | None  # the account's balance, read with the rows (a range without end)


@dataclass(frozen=True)
class StatementPage:
    """One page of an account's statement between two dates, pages counted back from the
    latest line: page 1 ends at the range's closing balance."""

    account: Account
    start: Date | None
    end: Date | None
    number: int
    pages: int | None  # how many pages, when the page's reading reached the range's first line
    has_older: bool
    opening_ore: int | None  # the range's opening balance, when known (as ``pages``)
    closing_ore: int  # the range's closing balance
    brought_ore: int  # the balance before this page's first line
    carried_ore: int  # …and after its last
    lines: list[Line]

    @property
    def is_first(self) -> bool:
        """Whether the page starts at the range's first line (no older page)."""
        return not self.has_older

    @property
    def is_last(self) -> bool:
        """Whether the page ends at the range's last line (no newer page)."""
        return self.number == 1

    @property
    def older(self) -> int:
        return self.number + 1

    @property
    def newer(self) -> int:
        return self.number - 1


def statement_page(
    account: Account,
    start: Date | None = None,
    end: Date | None = None,
    number: int | None = None,
) -> StatementPage:
    """Page ``number`` of the statement's lines, ``LINES_PER_PAGE`` a page counted back from the
    latest (None: page 1, which ends at the range's closing balance; past the end: the page
    with the first line). The page's lines are in the statement's order, oldest first."""
    number = number or 1
    # The lines of pages 1…number, and one more: is there an older page?
    window, starts = _read_back(account, start, end, number * LINES_PER_PAGE + 1)
    pages = None
    if window.complete:
        pages = max(1, -(-len(starts) // LINES_PER_PAGE))
        number = min(number, pages)
    shown = starts[(number - 1) * LINES_PER_PAGE : number * LINES_PER_PAGE]
    newer_or_shown = set(starts[: number * LINES_PER_PAGE])
    on_page = set(shown)
    closing = window.closing_ore if window.closing_ore is not None else balance(account, end)
    # The lines of this page and the newer ones hold every entry from this page's first line
    # on: a game of theirs began at or after it, so all of its entries are in the window.
    brought = closing - sum(row.amount_ore for row in window.rows if row.key in newer_or_shown)
    outlines = _outlines(window.rows, on_page)
    lines = _lines_of([outlines[key] for key in reversed(shown)])
    running = brought
    for line in lines:
        running += line.amount_ore
        line.running_ore = running
    opening = closing - sum(row.amount_ore for row in window.rows) if window.complete else None
    has_older = not window.complete or len(starts) > number * LINES_PER_PAGE
    return StatementPage(
        account, start, end, number, pages, has_older, opening, closing, brought, running, lines
    )


def _read_back(
    account: Account, start: Date | None, end: Date | None, need: int
) -> tuple[_Window, list[_Key]]:
    """A window of the range's latest entries that holds the starts of its latest ``need``
    lines (or the whole range), and the lines that start in it, newest first."""
    size = need * ENTRIES_PER_LINE
    while True:
        window = _window(account, start, end, size)
        starts = _line_starts(account, start, end, window, need)
        if window.complete or len(starts) >= need:
            return window, starts
        # More entries to a line than guessed: read as many again as the lines found took.
        size = max(2 * size, len(window.rows) * need // max(len(starts), 1) * 5 // 4)


def _window(account: Account, start: Date | None, end: Date | None, size: int) -> _Window:
    """The range's latest ``size`` entries, newest first, each with its line: one query down
    the (account, date, id) index, each entry's reference read by its transaction's key. For a
    range without end the same query reads the account's balance, its closing balance, so
    that both are of one moment."""
    # The reference read by primary key per entry: joined to thousands of entries, PostgreSQL
    # may answer by hashing every transaction of the club's books.
    ref = Transaction.objects.filter(pk=OuterRef("transaction_id")).values("ref")[:1]
    entries = (
        entries_between(account, start, end).order_by("-date", "-id").annotate(ref=Subquery(ref))
    )
    fields = ["id", "date", "amount_ore", "ref"]
    if end is None:
        now = Account.objects.filter(pk=account.pk).values("balance_ore")
        entries = entries.annotate(closing=Subquery(now))
        fields.append("closing")
    read = list(entries.values_list(*fields)[: size + 1])
    rows = []
    for entry_id, day, amount, ref, *_closing in read[:size]:
        game_id = _game_of(ref)
        rows.append(
            _Row((day, entry_id), amount, ("e", entry_id) if game_id is None else ("g", game_id))
        )
    closing = read[0][4] if end is None and read else None
    return _Window(rows, len(read) <= size, closing)


def _line_starts(
    account: Account, start: Date | None, end: Date | None, window: _Window, need: int
) -> list[_Key]:
    """The window's lines by where they start, newest first. An entry of its own starts its
    line; a game's line starts at the game's first entry in the range — in the window, unless
    the game has entries older than the window: then its line is older than every line that
    starts in the window, and is left out. Only the newest ``need`` lines' games are asked
    (``_older_games``), again as one left out lets an older one in."""
    first: dict[_Key, _Pos] = {}
    for row in window.rows:  # newest first: a game's first entry is the last one seen
        first[row.key] = row.pos
    ordered = sorted(first, key=first.__getitem__, reverse=True)
    asked: set[int] = set()
    older: set[int] = set()
    while True:
        starts = [key for key in ordered if key[0] == "e" or key[1] not in older]
        games = {key[1] for key in starts[:need] if key[0] == "g"} - asked
        if window.complete or not games:  # no entry is older than a whole range's window
            return starts
        older |= _older_games(account, start, end, window.rows[-1].pos, games)
        asked |= games


_GAMES_AT_ONCE = 200  # SQLite reads a long OR as a tree as deep as it is long (limit: 1000)


def _older_games(
    account: Account, start: Date | None, end: Date | None, before: _Pos, games: set[int]
) -> set[int]:
    """Those of ``games`` with an entry of the account in the range before ``before``.

    Two small queries: the games' transactions up to that day, by the references' index
    ("game:17:…"; a transaction's date is its entries', ``Entry.date``); then the account's
    entries among them, by the entries' transaction index. (As one join, PostgreSQL may plan
    a parallel hash of the account's entries, and start its workers, to find none.)"""
    day, entry_id = before
    found: set[int] = set()
    asked = sorted(games)
    for at in range(0, len(asked), _GAMES_AT_ONCE):
        refs = [f"game:{game_id}" for game_id in asked[at : at + _GAMES_AT_ONCE]]
        # Written on the transactions alone: through the entries' join the ORM takes five
        # times as long to build it, some 15 ms for a page's hundred games.
        which = Q(ref__in=refs, _connector=Q.OR)
        which.children += [("ref__startswith", f"{ref}:") for ref in refs]
        transactions = Transaction.objects.filter(which, date__lte=day)
        if start is not None:
            transactions = transactions.filter(date__gte=start)
        game_of = {pk: _game_of(ref) for pk, ref in transactions.values_list("pk", "ref")}
        earlier = entries_between(account, start, end).filter(
            Q(date__lt=day) | Q(date=day, id__lt=entry_id), transaction_id__in=list(game_of)
        )
        found.update(game_of[pk] for pk in earlier.values_list("transaction_id", flat=True))
    return found


def _outlines(rows: list[_Row], keys: set[_Key]) -> dict[_Key, list[int]]:
    """The entries of the lines ``keys`` in the statement's order, by line."""
    outlines: dict[_Key, list[int]] = {}
    for row in reversed(rows):
        if row.key in keys:
            outlines.setdefault(row.key, []).append(row.pos[1])
    return outlines


def _lines_of(outlines: list[list[int]]) -> list[Line]:
    """The page's lines with their rows: entries, transactions and the memos in the reader's
    language (``ledger.memos``), a fixed number of queries."""
    wanted = [entry_id for entry_ids in outlines for entry_id in entry_ids]
    entries = Entry.objects.select_related("transaction", "transaction__reverses").in_bulk(wanted)
    memos.describe(
        [e.transaction for e in entries.values()]
        + [e.transaction.reverses for e in entries.values()]
    )
    return grouped_lines(
        [[StatementRow(entries[i], entries[i].amount_ore, 0) for i in ids] for ids in outlines]
    )
