"""``scoring.recording``'s face: ``recording.<name>`` from an explicit map of its modules.

``scoring/recording/__init__.py`` names, for every public name, the module that defines it;
every name that callers outside the package used of the old ``scoring/recording.py`` is still
there, and nothing else is.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module

import pytest

from scoring import recording

# What other modules (and the tests) asked ``scoring/recording.py`` for by a public name.
SERVED_BEFORE = {
    "UNDO",
    "EventRefused",
    "StaleGame",
    "AppendResult",
    "start_game",
    "append_event",
    "undo_last",
    "void_game",
    "current_state",
    "effective_events",
    "rules_for",
    "account_key",
    "event_audit_data",
    "may_undo",
}


@pytest.mark.parametrize("name", sorted(recording._PUBLIC))
def test_every_public_name_is_defined_by_the_module_the_map_names(name):
    module = import_module(recording._PUBLIC[name])
    assert name in vars(module)
    value = getattr(recording, name)
    assert value is vars(module)[name]
    if callable(value):
        assert value.__module__ == module.__name__


def test_every_name_callers_used_is_still_public():
    assert set(recording._PUBLIC) >= SERVED_BEFORE
    assert set(recording.__all__) == set(recording._PUBLIC)
    assert set(dir(recording)) >= SERVED_BEFORE


def test_a_helper_is_no_attribute_of_the_package():
    with pytest.raises(AttributeError, match="has no attribute '_replay_with_nets'"):
        recording._replay_with_nets  # noqa: B018


def test_no_public_name_is_also_a_module_of_the_package():
    # A module, once imported, is an attribute of the package and would hide the public name.
    modules = {info.name for info in pkgutil.iter_modules(recording.__path__)}
    assert not modules & set(recording._PUBLIC)
