"""What recording answers: the event it stored and the state after it, or a refusal.

A refusal is a ``ValidationError`` with a ``code``, so views and forms show it like any other:
``EventRefused`` when the rules or the game's status do not allow what was asked (HTTP 422),
``StaleGame`` when the phone is behind (HTTP 409, with the events it missed). Relies on
Django's translation and the ``Event`` model only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring.models import Event


class EventRefused(ValidationError):
    """The rules, or the game's status, do not allow this event now."""


class StaleGame(ValidationError):
    """The phone's view is behind: someone else recorded in between."""

    def __init__(self, current_seq: int, missed: list[Event]):
        super().__init__(_("Someone else recorded in the meantime."), code="stale")
        self.current_seq = current_seq
        self.missed = missed


@dataclass(frozen=True)
class AppendResult:
    event: Event
    state: Any
    duplicate: bool = False
