"""The club's mail (issue 28): mail the members want, in their language, sent through an
outbox that never blocks a page and never loses a mail.

Public names, loaded on first use (an app's package is imported before its models are ready):
``notices.queue(kind, object_id, member_ids)`` (``notices.outbox``), ``notices.register_mail``
and ``notices.Mail`` (``notices.mail``). The kinds are ``notices.models.MailKind``.

Layering: ``notices`` stands on ``club``, ``ledger``, ``league`` and ``evenings``; ``week``
stands on it (its three mails are rendered in ``week.mails``), and nothing below imports it:
the evening report is queued through ``evenings.opening.register_on_close``.
"""

from importlib import import_module

_PUBLIC = {
    "queue": "notices.outbox",
    "Mail": "notices.mail",
    "register_mail": "notices.mail",
    "render_mail": "notices.mail",
}


def __getattr__(name: str):
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'notices' has no attribute {name!r}")
    return getattr(import_module(module), name)


def __dir__() -> list[str]:
    return sorted(_PUBLIC)
