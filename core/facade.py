"""An app's service functions reachable as attributes of the app's package.

``ledger.game_pot(club, "kille")`` reads better at a call site than
``ledger.services.game_pot``, but a Django app's package is imported before its models are
ready, so its ``__init__`` cannot import the services module. ``forward("ledger.services")``
gives the package a module ``__getattr__`` (PEP 562) that loads the services on first use and
hands out only what that module defines itself (not what it imported).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module


def forward(module_name: str) -> Callable[[str], object]:
    package = module_name.rpartition(".")[0]

    def __getattr__(name: str) -> object:
        if not name.startswith("_"):
            module = import_module(module_name)
            value = module.__dict__.get(name)
            if value is not None and getattr(value, "__module__", module_name) == module_name:
                return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
