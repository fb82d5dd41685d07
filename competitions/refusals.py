"""The error the competition services raise: a ``ValidationError`` with a code, in the
reader's language, raised before anything is written (each service is one transaction)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext


class CompetitionRefused(ValidationError):
    """A request a competition cannot take; ``code`` says which rule (a page shows the
    message, a test asserts the code)."""


def refused(error: Exception, code: str) -> CompetitionRefused:
    """A ``CompetitionError`` of the pure core as a refusal in the reader's language (its
    template translated, then filled; a broken translation falls back to the English)."""
    template = getattr(error, "template", "") or str(error)
    params = getattr(error, "params", {}) or {}
    try:
        text = gettext(template).format(**params) if params else gettext(template)
    except (KeyError, IndexError, ValueError):
        text = str(error)
    return CompetitionRefused(text[:1].upper() + text[1:], code=code)
