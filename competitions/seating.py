"""Where everyone sits in a multi-table championship (Kille, Polskt pass, …): round 1, the
re-seating between rounds, the balancing after drops, the final table.

Design
------
Table sizes are the caller's: ``max_size`` is the most players a table takes (the
competition's ``table_size``, at most the game's ``MAX_PLAYERS``), ``min_size`` the fewest it
can play with (the game's ``MIN_PLAYERS``: Kille 2, Polskt pass 3).

- **How many tables.** The fewest that hold the field: ``ceil(n / max_size)``. The field is
  split as evenly as possible over them (``n // tables`` each, one more at the first
  ``n % tables``), so sizes differ by at most 1. If the smaller size is under ``min_size`` the
  field cannot be seated (more tables only make tables smaller): ``CompetitionError`` says so,
  as it does for fewer players than ``min_size``, ``max_size < min_size`` or a player listed
  twice.
- **Round 1** (``seat_field``): the players in the order given (entry, a draw) are dealt to the
  tables like cards, 1 → table 1, 2 → table 2, …, round and round; the bigger tables are
  therefore the first ones.
- **Between rounds** (``reseat``): the same number of tables and sizes, seated by the
  standings, strongest together: table 1 takes the top of the ranking, table 2 the next
  players, …; within a table the seats follow the ranking.
- **Within a round, after drops** (``balance``): the gone leave their seats; then as few
  players as possible move so that every table is within ``[min_size, max_size]`` and sizes
  differ by at most 1. Over every possible number of tables, a table keeps
  ``min(players left at it, its new size)`` of its players, so the tables kept are the fullest
  ones (on equal sizes the lower number) and the bigger new sizes go to the fullest of them;
  the number of tables is the one that moves fewest players, on equal moves the fewer tables.
  A table is thus broken up only when the field no longer fills the tables (or breaking it
  moves no more players than keeping it). Who moves: repeatedly the last-seated player of the
  biggest table over its new size (a broken-up table's new size is 0) goes to the end of the
  smallest table under its new size (equal sizes: the lower number). The answer has one list
  per table given, in the same order (table i stays table i); a broken-up table comes back
  empty; a table opened because the input was over ``max_size`` is appended.
- **The final table** (``final_table``): the top ``size`` of the ranking, seated in its order.

Players are ids the caller chooses; only equality and hashing are used, never their order.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from competitions.base import CompetitionError, PlayerId, check_unique
from engine.errors import _


def check_sizes(*, max_size: int, min_size: int) -> None:
    """Refuse table bounds no table can meet."""
    if min_size < 1 or max_size < min_size:
        raise CompetitionError(
            _(
                "tables of {min} to {max} players cannot be set: the fewest must be 1 or more "
                "and no more than the most"
            ),
            min=min_size,
            max=max_size,
        )


def table_sizes(count: int, *, max_size: int, min_size: int) -> list[int]:
    """The sizes of the fewest tables that seat ``count`` players, bigger tables first."""
    check_sizes(max_size=max_size, min_size=min_size)
    if count < min_size:
        raise CompetitionError(
            _("{count} players are too few: a table needs at least {min}"),
            count=count,
            min=min_size,
        )
    tables = -(-count // max_size)
    sizes = even_split(count, tables)
    if sizes[-1] < min_size:
        raise CompetitionError(
            _(
                "{count} players cannot sit at tables of {min} to {max} players with sizes "
                "differing by at most one: add or remove a player, or change the table size"
            ),
            count=count,
            min=min_size,
            max=max_size,
        )
    return sizes


def even_split(count: int, tables: int) -> list[int]:
    """``count`` split over ``tables`` as evenly as possible, the bigger parts first."""
    size, extra = divmod(count, tables)
    return [size + 1] * extra + [size] * (tables - extra)


def seat_field(
    players: Sequence[PlayerId], *, max_size: int, min_size: int
) -> list[list[PlayerId]]:
    """Round 1: the players dealt to the fewest tables like cards (see the module docstring)."""
    field = list(players)
    check_unique(field)
    tables = len(table_sizes(len(field), max_size=max_size, min_size=min_size))
    return [field[start::tables] for start in range(tables)]


def reseat(ranking: Sequence[PlayerId], *, max_size: int, min_size: int) -> list[list[PlayerId]]:
    """Between rounds: table 1 the top of the ranking, table 2 the next, …"""
    field = list(ranking)
    check_unique(field)
    tables, start = [], 0
    for size in table_sizes(len(field), max_size=max_size, min_size=min_size):
        tables.append(field[start : start + size])
        start += size
    return tables


def balance(
    tables: Sequence[Sequence[PlayerId]],
    gone: Collection[PlayerId],
    *,
    max_size: int,
    min_size: int,
) -> list[list[PlayerId]]:
    """After drops: the fewest moves to tables within bounds (see the module docstring)."""
    check_sizes(max_size=max_size, min_size=min_size)
    check_unique([player for table in tables for player in table])
    left = [[player for player in table if player not in gone] for table in tables]
    count = sum(map(len, left))
    table_sizes(count, max_size=max_size, min_size=min_size)  # refuses a field too small
    targets = new_sizes([len(table) for table in left], max_size=max_size, min_size=min_size)
    left += [[] for _new in range(len(targets) - len(left))]
    while moving := [i for i, table in enumerate(left) if len(table) > targets[i]]:
        source = max(moving, key=lambda i: (len(left[i]), -i))
        short = [i for i, table in enumerate(left) if len(table) < targets[i]]
        target = min(short, key=lambda i: (len(left[i]), i))
        left[target].append(left[source].pop())
    return left


def new_sizes(current: Sequence[int], *, max_size: int, min_size: int) -> list[int]:
    """Each table's size after balancing (0: broken up; extra entries: new tables), the one
    that keeps the most players at their tables, on equal the fewer tables."""
    count = sum(current)
    best: tuple[int, int, list[int]] | None = None
    for tables in range(1, count + 1):
        sizes = even_split(count, tables)
        if sizes[0] > max_size or sizes[-1] < min_size:
            continue
        targets = assign_sizes(current, sizes)
        kept = sum(min(have, want) for have, want in zip(current, targets, strict=False))
        if best is None or (count - kept, tables) < best[:2]:
            best = (count - kept, tables, targets)
    assert best is not None  # table_sizes found the fewest tables valid
    return best[2]


def assign_sizes(current: Sequence[int], sizes: Sequence[int]) -> list[int]:
    """The new sizes (bigger first) given to the fullest tables, lower numbers first on equal;
    tables beyond them get 0, and sizes beyond the tables become new tables."""
    fullest = sorted(range(len(current)), key=lambda i: (-current[i], i))
    targets = [0] * len(current)
    for table, size in zip(fullest, sizes, strict=False):
        targets[table] = size
    return targets + list(sizes[len(current) :])


def final_table(ranking: Sequence[PlayerId], size: int) -> list[PlayerId]:
    """The final table: the top ``size`` of the ranking, seated in its order."""
    field = list(ranking)
    check_unique(field)
    if size < 1:
        raise CompetitionError(_("a final table seats at least 1 player, not {size}"), size=size)
    if len(field) < size:
        raise CompetitionError(
            _("a final table of {size} needs {size} players, and only {count} are left"),
            size=size,
            count=len(field),
        )
    return field[:size]
