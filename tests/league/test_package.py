"""The league's public face: ``league.<name>`` for other apps, from an explicit map.

``league/__init__.py`` names, for every public name, the module that defines it; every name the
old facade over ``league.services`` served is still there, and nothing else is.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module

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


@pytest.mark.parametrize("name", sorted(league._PUBLIC))
def test_every_public_name_is_defined_by_the_module_the_map_names(name):
    module = import_module(league._PUBLIC[name])
    assert name in vars(module)
    value = getattr(league, name)
    assert value is vars(module)[name]
    if callable(value):
        assert value.__module__ == module.__name__


def test_every_name_the_old_facade_served_is_still_public():
    assert set(league._PUBLIC) >= SERVED_BEFORE
    assert set(league.__all__) == set(league._PUBLIC)
    assert set(dir(league)) >= SERVED_BEFORE


def test_a_name_not_in_the_map_is_no_attribute():
    with pytest.raises(AttributeError, match="has no attribute '_rebuild'"):
        league._rebuild  # noqa: B018
    with pytest.raises(AttributeError):
        league.transaction  # noqa: B018 - the facade used to leak the services' imports


def test_no_public_name_is_also_a_module_of_the_league():
    # A module, once imported, is an attribute of the package and would hide the public name.
    modules = {info.name for info in pkgutil.iter_modules(league.__path__)}
    assert not modules & set(league._PUBLIC)
