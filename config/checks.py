"""Production keys (issue 23 §6): the development SECRET_KEY and AUDIT_KEY are in the public
repository, so production must never run on them. ``config/settings.py`` refuses to start with
DEBUG off on either; ``manage.py check --deploy`` reports them too (protokoll.E001, E002), for a
settings module that was started with DEBUG on by mistake."""

from __future__ import annotations

from django.conf import settings
from django.core import checks

DEVELOPMENT_SECRET_KEY = "django-insecure-protokoll-development-key-only-for-debug"  # noqa: S105
DEVELOPMENT_AUDIT_KEY = "protokoll-development-audit-key-only-for-debug"
HOW_TO_MAKE_ONE = (
    'make one with: python3 -c "import secrets; print(secrets.token_urlsafe(48))" '
    "and set it in the environment (a different one for each key)"
)


def development_keys(secret_key: str, audit_key: str) -> list[str]:
    """The names of the keys that are the public development ones."""
    names = []
    if secret_key == DEVELOPMENT_SECRET_KEY:
        names.append("SECRET_KEY")
    if audit_key == DEVELOPMENT_AUDIT_KEY:
        names.append("AUDIT_KEY")
    return names


def refusal(names: list[str]) -> str:
    return f"{' and '.join(names)} must not be the development value when DEBUG is off: " + (
        HOW_TO_MAKE_ONE
    )


@checks.register(checks.Tags.security, deploy=True)
def check_production_keys(app_configs, **kwargs) -> list[checks.CheckMessage]:
    names = development_keys(settings.SECRET_KEY, getattr(settings, "AUDIT_KEY", ""))
    return [
        checks.Error(
            f"{name} is the public development value.",
            hint=HOW_TO_MAKE_ONE[0].upper() + HOW_TO_MAKE_ONE[1:] + ".",
            id=f"protokoll.E00{number}",
        )
        for number, name in ((1, "SECRET_KEY"), (2, "AUDIT_KEY"))
        if name in names
    ]
