"""Throttle counters live in the cache (the process's memory in the tests): each test starts
with none, and with the cache up."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from config import cache as cache_guard


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    cache_guard.state.reset()
    yield
    cache.clear()
    cache_guard.state.reset()
