"""Errors the engine raises. Each carries a message a person at the table can act on."""


class EngineError(ValueError):
    """Base class: bad input to the rules engine."""


class CardError(EngineError):
    """Text that is not a card (or not a card of the deck in use)."""


class IllegalEvent(EngineError):
    """An event the rules do not allow in the current state."""
