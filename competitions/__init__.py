"""Competitions (issue 29): tournaments and championships, and their pure core.

The club's side (Django): ``models`` (a competition, its entrants, rounds, tables, seats and
results), ``running`` (announce, enter, withdraw, start, next round, finish: each under the
competition's row lock), ``results`` (a table's game finished or reopened, told by scoring in
the game's transaction), ``tables`` (standings, a round's tables, progress, winners), ``money``
(entry fees into the pool and the prizes out, once, with the books' check), ``links`` (the pad
of a table, registered by scoring), and the pages (``views``, ``urls``, ``forms``).

The pure core, plain functions over frozen dataclasses without Django (league formats live in
``league.formats``):

- ``seating`` and ``championship``: a championship's tables dealt, re-seated, balanced after
  drops, the final table and the places it decides;
- ``round_robin``: the circle method, byes for odd fields, seats alternated fairly;
- ``swiss``: a Swiss round by maximum-weight matching (networkx), no repeat when avoidable;
- ``standings``: two-player standings (match points, skunks, spread, opponents' wins) and a
  multi-table ranking;
- ``prizes``: a pool of öre split by percentages over places, ties sharing, nothing lost.

Players are ids (ints or strings) the caller chooses; only equality and hashing are used, and
order always comes from the input (a seeding, a ranking), never from comparing ids.
"""
