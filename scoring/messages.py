"""The engine's messages in the user's language.

The engine raises errors with an English template and named values
(``IllegalEvent(_("{player} is not at the table"), player="s1")``); the template is a msgid in
``locale/``. A template without a translation is shown in English, as it is.
"""

from __future__ import annotations

from django.utils.translation import gettext

from engine.errors import EngineError, Text


def engine_message(error: EngineError) -> str:
    template = getattr(error, "template", "") or str(error)
    params = getattr(error, "params", {}) or {}
    if not params:
        return gettext(template)
    params = {name: _value(value) for name, value in params.items()}
    try:
        return gettext(template).format(**params)
    except (KeyError, IndexError, ValueError):  # a broken translation: the English is safe
        return str(error)


def _value(value):
    """A value may itself be a refusal (whist: "deal 3: …") or a marked text (the card
    parser's "write a rank and a suit …"): those are translated too."""
    if isinstance(value, EngineError):
        return engine_message(value)
    if isinstance(value, Text):
        return gettext(value)
    return value
