"""The reader's language, in one place: ``"sv"`` or ``"en"`` (what gettext is using now)."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import get_language

LANGUAGES = tuple(code for code, _name in settings.LANGUAGES)


def language() -> str:
    """The active language's two-letter code, one of ``settings.LANGUAGES`` (Swedish when
    none is active, as outside a request)."""
    code = (get_language() or settings.LANGUAGE_CODE or "sv")[:2]
    return code if code in LANGUAGES else LANGUAGES[0]
