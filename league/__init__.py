"""The league: finished games' results, season standings, ratings, head-to-head records and
the public league page.

Other apps call the league by its public names, ``league.record_result(…)``; ``_PUBLIC`` says
which module defines each. An app's package is imported before its models are ready, so this
module cannot import those modules: a module ``__getattr__`` (PEP 562) loads one on first use.
Inside the league, modules import each other by module. The league imports ``club`` and
``core``; never ``scoring`` or ``ledger`` (tests/test_infrastructure.py).
"""

from __future__ import annotations

from importlib import import_module

_PUBLIC = {
    # results in
    "PlayerResult": "league.intake",
    "record_result": "league.intake",
    "remove_results": "league.intake",
    "results_reassigned": "league.intake",
    # ratings and tables kept up to date, or rebuilt
    "update_game": "league.incremental",
    "recompute_club": "league.incremental",
    "recompute_ratings": "league.incremental",
    "recompute_season": "league.incremental",
    # the season tables
    "season_results": "league.tables",
    "placement_points": "league.tables",
    # the rating maths
    "rate_plackett_luce": "league.ratings",
    "MU": "league.ratings",
    "SIGMA": "league.ratings",
    # what the league ranks, by name
    "register_game_name": "league.names",
    "game_names": "league.names",
    "game_name": "league.names",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> object:
    if name not in _PUBLIC:
        raise AttributeError(f"module 'league' has no attribute {name!r}")
    return getattr(import_module(_PUBLIC[name]), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})
