"""Errors the engine raises. Each carries a message a person at the table can act on.

Messages are English templates with named ``{placeholders}``; the UI translates them. Mark a
template with ``_`` (an identity function here, the keyword the translators' tools look for) and
pass the values as keywords::

    raise IllegalEvent(_("{player} is not at the table"), player=player)

``str(error)`` is the English message; ``error.template`` and ``error.params`` let the web layer
show it in the user's language (``scoring.messages.engine_message``). A plain preformatted
string still works; it is shown as it is.
"""

from __future__ import annotations


class Text(str):
    """A text marked for translation: a template, or a value that is itself prose (the card
    parser's help), so the web layer knows to translate it and nothing else."""

    __slots__ = ()


def _(template: str) -> Text:
    """Marks a message template for translation; the engine itself never translates."""
    return Text(template)


class EngineError(ValueError):
    """Base class: bad input to the rules engine."""

    def __init__(self, template: str = "", /, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)


class CardError(EngineError):
    """Text that is not a card (or not a card of the deck in use)."""


class IllegalEvent(EngineError):
    """An event the rules do not allow in the current state."""


class RulesError(EngineError):
    """A club option (a ``Rules`` value) the rules do not allow, e.g. a stake above the bound."""
