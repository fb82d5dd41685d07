"""Game key → engine module, with display names and player counts.

Modules are imported lazily and only if present, so the registry lists exactly the games
whose rules exist in ``engine/``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

# In the order the club's Play page lists them.
GAME_MODULES = (
    "cribbage",
    "kille",
    "kille_elimination",
    "polskt_pass",
    "whist",
    "fyrtioett",
    "nittionio",
    "femhundra",
    "vandatta",
    "stopp",
    "president",
    "kasino",
    "tvamanswhist",
    "fantan",
)


# Display names for every club game, known even before (or without) its engine module.
DISPLAY_NAMES: dict[str, dict[str, str]] = {
    "cribbage": {"sv": "Cribbage", "en": "Cribbage"},
    "kille": {"sv": "Kille", "en": "Kille"},
    "kille_elimination": {"sv": "Kille (utslagning)", "en": "Kille (elimination)"},
    "polskt_pass": {"sv": "Polskt pass", "en": "Polish pass"},
    "whist": {"sv": "Whist", "en": "Whist"},
    "fyrtioett": {"sv": "Fyrtioett", "en": "Forty-one"},
    "nittionio": {"sv": "Nittionio", "en": "Ninety-nine"},
    "femhundra": {"sv": "Femhundra", "en": "Five hundred"},
    "vandatta": {"sv": "Vändåtta", "en": "Crazy eights"},
    "stopp": {"sv": "Stopp", "en": "Stop"},
    "president": {"sv": "President", "en": "President"},
    "kasino": {"sv": "Kasino", "en": "Casino"},
    "tvamanswhist": {"sv": "Tvåmanswhist", "en": "Two-handed whist"},
    "fantan": {"sv": "Fan tan", "en": "Fan tan"},
}


def display_name(key: str, language: str = "sv") -> str:
    names = DISPLAY_NAMES.get(key)
    if names is None:
        return key
    return names.get(language[:2], names["sv"])


@dataclass(frozen=True)
class GameInfo:
    key: str
    module: ModuleType
    names: dict[str, str]
    min_players: int
    max_players: int

    def name(self, language: str = "sv") -> str:
        return self.names.get(language[:2], self.names["sv"])


def _load(key: str) -> GameInfo | None:
    try:
        module = importlib.import_module(f"engine.{key}")
    except ModuleNotFoundError as error:
        if error.name == f"engine.{key}":
            return None
        raise
    if not hasattr(module, "new_game"):
        return None
    return GameInfo(key, module, module.NAMES, module.MIN_PLAYERS, module.MAX_PLAYERS)


def all_games() -> list[GameInfo]:
    return [info for key in GAME_MODULES if (info := _load(key)) is not None]


def get(key: str) -> GameInfo:
    info = _load(key) if key in GAME_MODULES else None
    if info is None:
        raise KeyError(f"no game {key!r}")
    return info
