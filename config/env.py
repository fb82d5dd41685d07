"""Typed readers for environment variables: they fail loudly on a bad value."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use 1/0, true/false, yes/no")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None


def env_secret(name: str, *, debug: bool, development: str, min_length: int = 32) -> str:
    """A secret that production must set: with DEBUG off a missing or short value stops the
    app with a message; with DEBUG on it defaults to ``development`` (a fixed laptop value)."""
    raw = os.environ.get(name, "")
    if not raw:
        if not debug:
            raise ImproperlyConfigured(f"{name} must be set when DEBUG is off")
        return development
    if not debug and len(raw) < min_length:
        raise ImproperlyConfigured(f"{name} must be at least {min_length} characters long")
    return raw


def env_url(name: str, default: str) -> str:
    """An absolute http(s) address without a query or fragment (a site's base, say), with no
    trailing slash."""
    from urllib.parse import urlsplit

    raw = os.environ.get(name, default).strip()
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - raises for a port that is not a number
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an address") from None
    if parts.scheme not in {"http", "https"} or not parts.hostname or parts.query or parts.fragment:
        raise ImproperlyConfigured(
            f"{name}={raw!r} must be an absolute http(s) address such as https://club.example.org"
        )
    return raw.rstrip("/")
