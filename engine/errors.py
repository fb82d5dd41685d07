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


class Ore(int):
    """An amount of money in a message parameter: whole öre, formatted by the web layer in the
    reader's language (``Line(_("{player} pays {amount}"), amount=Ore(1050))``)."""

    __slots__ = ()


class Line(str):
    """A line of what an event did, for the history: an English template marked with ``_`` and
    its parameters, like a refusal's. ``str(line)`` is the English text; the web layer renders
    it in the reader's language (``scoring.messages.render_line``), with players' names for the
    seat keys among the parameters and money formatted from ``Ore``. A parameter may itself be
    a ``Line`` or a ``Text`` (translated too)::

        Line(_("{player} knocks"), player="s2")
        Line(_("{player} takes the pot, {amount}"), player="s0", amount=Ore(1800))

    ``as_json()`` is what the event store keeps (``Event.lines``).
    """

    template: str
    params: dict

    def __new__(cls, template: str = "", /, **params: object) -> Line:
        text = template.format(**{k: _plain(v) for k, v in params.items()}) if params else template
        line = super().__new__(cls, text)
        line.template = template
        line.params = params
        return line

    def __reduce__(self):  # copies and pickles keep the template and the parameters
        return (_rebuild_line, (self.template, self.params))

    def as_json(self) -> dict:
        return {"t": str(self.template), "p": {k: _param_json(v) for k, v in self.params.items()}}


def _rebuild_line(template: str, params: dict) -> Line:
    return Line(template, **params)


def _plain(value: object) -> object:
    """A parameter in the English text: money as kronor, everything else as itself."""
    if isinstance(value, Ore):
        whole, part = divmod(abs(int(value)), 100)
        return f"{'-' if value < 0 else ''}{whole}{f'.{part:02d}' if part else ''} kr"
    return value


def _param_json(value: object) -> object:
    if isinstance(value, Ore):
        return {"ore": int(value)}
    if isinstance(value, Line):
        return {"line": value.as_json()}
    if isinstance(value, Text):
        return {"text": str(value)}
    if isinstance(value, bool | int | str) or value is None:
        return value
    return str(value)


def listed(items, *, last_and: bool = False) -> object:
    """Items (seat keys, numbers, Lines) as one phrase for a log line: "a, b, c", or with
    ``last_and`` "a, b and c". A Line, so that every item is rendered in the reader's language
    with names for seat keys; a single item is itself, none is ""."""
    items = list(items)
    phrase = items[0] if items else ""
    for n, item in enumerate(items[1:], start=2):
        if last_and and n == len(items):
            phrase = Line(_("{list} and {item}"), list=phrase, item=item)
        else:
            phrase = Line(_("{list}, {item}"), list=phrase, item=item)
    return phrase
