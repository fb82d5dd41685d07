from __future__ import annotations

import pytest

from engine import registry
from tests.scoring import toy_game


@pytest.fixture
def toy(monkeypatch):
    """Register the toy game next to the real ones."""
    real_get = registry.get
    info = registry.GameInfo("toy", toy_game, toy_game.NAMES, 2, 4)
    monkeypatch.setattr(registry, "get", lambda key: info if key == "toy" else real_get(key))
    return info
