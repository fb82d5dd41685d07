"""The names of what the league ranks: the registry's games, and what other apps rank that is
not a registered game (a club evening's whist drive).

Another app registers such a kind once, with its name marked for translation
(``register_game_name``, from its ``AppConfig.ready``: ``evenings.apps``), since the league may
not import it; ``game_names`` gives every kind's name in the reader's language. Relies on
``engine.registry`` for the games' own names.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine import registry

_OTHER_GAMES: dict[str, str] = {}


def register_game_name(key: str, name) -> None:
    _OTHER_GAMES[key] = name


def game_names() -> dict[str, str]:
    """Every game the league may rank, by key: its name in the reader's language."""
    names = {key: _(registry.display_name(key)) for key in registry.game_keys()}
    return names | {key: str(name) for key, name in _OTHER_GAMES.items()}


def game_name(key: str) -> str:
    return game_names().get(key, key)
