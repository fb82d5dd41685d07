"""Competitions (issue 29): the pure core of tournaments and league formats.

Plain functions over frozen dataclasses; no Django, no models (the pages come later):

- ``round_robin``: the circle method, byes for odd fields, seats alternated fairly;
- ``swiss``: a Swiss round by maximum-weight matching (networkx), no repeat when avoidable;
- ``standings``: two-player standings (match points, skunks, spread, opponents' wins) and a
  multi-table ranking;
- ``league_formats``: best N of M, participation points, points tables, minimum games;
- ``prizes``: a pool of öre split by percentages over places, ties sharing, nothing lost.

Players are ids (ints or strings) the caller chooses; only equality and hashing are used, and
order always comes from the input (a seeding, a ranking), never from comparing ids.
"""
