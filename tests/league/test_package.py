"""The league's public face: ``league.<name>`` for other apps, from an explicit map.

Every name the old facade over ``league.services`` served is still there, and nothing else is;
that each public name is defined where ``league/__init__.py``'s map says is
tests/test_infrastructure.py's, for every package with such a map.
"""

from __future__ import annotations

import pytest

import league

# What ``core.facade.forward("league.services")`` handed out before the split (its functions,
# the result record and the rating defaults).
SERVED_BEFORE = {
    "MU",
    "PlayerResult",
    "SIGMA",
    "game_name",
    "game_names",
    "placement_points",
    "rate_plackett_luce",
    "recompute_club",
    "recompute_ratings",
    "recompute_season",
    "record_result",
    "register_game_name",
    "remove_results",
    "results_reassigned",
    "season_results",
    "update_game",
}


def test_every_name_the_old_facade_served_is_still_public():
    assert set(league._PUBLIC) >= SERVED_BEFORE
    assert set(league.__all__) == set(league._PUBLIC)
    assert set(dir(league)) >= SERVED_BEFORE


def test_a_name_not_in_the_map_is_no_attribute():
    with pytest.raises(AttributeError, match="has no attribute '_rebuild'"):
        league._rebuild  # noqa: B018
    with pytest.raises(AttributeError):
        league.transaction  # noqa: B018 - the facade used to leak the services' imports
