"""``scoring.recording``'s face: ``recording.<name>`` from an explicit map of its modules.

Every name that callers outside the package used of the old ``scoring/recording.py`` is still
there, and nothing else is; that each public name is defined where the map says is
tests/test_infrastructure.py's, for every package with such a map.
"""

from __future__ import annotations

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


def test_every_name_callers_used_is_still_public():
    assert set(recording._PUBLIC) >= SERVED_BEFORE
    assert set(recording.__all__) == set(recording._PUBLIC)
    assert set(dir(recording)) >= SERVED_BEFORE


def test_a_helper_is_no_attribute_of_the_package():
    with pytest.raises(AttributeError, match="has no attribute '_replay_with_nets'"):
        recording._replay_with_nets  # noqa: B018
