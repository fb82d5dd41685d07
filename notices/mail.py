"""What a mail says and how it is put together.

A kind of mail has one renderer, registered by the app that knows its object
(``register_mail(kind, render)``; ``render(member, object_id) -> Mail | None``, called under the
member's language; None: nothing to say any more, e.g. the evening is gone). Renderers build
their ``Mail`` with ``render_mail``: templates ``notices/mail/<kind>.txt`` and ``.html`` (the
HTML extends one shared layout, ``notices/mail/_layout.html``: inline styles, no external
assets, readable on a phone), given the member, his club, the unsubscribe link and absolute
links made from ``SITE_URL``.

``message(member, kind, mail)`` makes the ``EmailMultiAlternatives`` of a rendered mail:
subject and bodies in the member's language, ``List-Unsubscribe`` with the one-click link,
``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058) and ``Auto-Submitted:
auto-generated`` (RFC 3834).

``one_batch``/``memo``: what the mails of one sending batch share is computed once (the
evening's results for its reports).

The unsubscribe token is a signed value (``django.core.signing``, salt of its own) naming the
member and the kind: a link in one member's mail turns off that one kind for him, and nothing
else; it needs no login and does not expire (an old mail's link must keep working).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from club.models import Member
from notices.models import MailKind

UNSUBSCRIBE_SALT = "notices.unsubscribe"


@dataclass(frozen=True)
class Mail:
    subject: str
    text: str
    html: str


Renderer = Callable[[Member, int], "Mail | None"]
_renderers: dict[str, Renderer] = {}


def register_mail(kind: str, render: Renderer) -> None:
    if kind not in MailKind.values:
        raise ValueError(f"unknown kind of mail: {kind!r}")
    _renderers[kind] = render


def renderer(kind: str) -> Renderer:
    try:
        return _renderers[kind]
    except KeyError:
        raise LookupError(f"no renderer registered for {kind!r} mail") from None


# What the mails of one batch share (an evening's results, read once for its thirty reports):
# ``memo`` keeps a value for the batch ``one_batch`` opened, and computes it every time outside.
_batch: ContextVar[dict | None] = ContextVar("notices_batch", default=None)


@contextmanager
def one_batch() -> Iterator[None]:
    token = _batch.set({})
    try:
        yield
    finally:
        _batch.reset(token)


def memo[T](key: Hashable, compute: Callable[[], T]) -> T:
    store = _batch.get()
    if store is None:
        return compute()
    if key not in store:
        store[key] = compute()
    return store[key]


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_token(member: Member, kind: str) -> str:
    return signing.dumps({"m": member.pk, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    """(member id, kind) from a token, or None for anything not ours (forged, cut, garbled)."""
    if not isinstance(token, str) or len(token) > 200:
        return None
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except (signing.BadSignature, ValueError, UnicodeError, OverflowError):
        return None
    if not isinstance(data, dict):
        return None
    member_id, kind = data.get("m"), data.get("k")
    if type(member_id) is not int or member_id <= 0 or kind not in MailKind.values:
        return None
    return member_id, kind


def unsubscribe_url(member: Member, kind: str) -> str:
    return absolute(reverse("notices:unsubscribe", args=[unsubscribe_token(member, kind)]))


def render_mail(kind: str, member: Member, subject: str, context: dict[str, Any]) -> Mail:
    """The text and HTML of a mail of ``kind`` to ``member`` (under the active language)."""
    context = {
        "member": member,
        "club": member.club,
        "subject": subject,
        "kind_label": MailKind(kind).label,
        "unsubscribe_url": unsubscribe_url(member, kind),
        "choices_url": absolute(reverse("notices:choices", args=[member.club.slug])),
        "site_url": settings.SITE_URL.rstrip("/"),
        **context,
    }
    text = render_to_string(f"notices/mail/{kind}.txt", context)
    html = render_to_string(f"notices/mail/{kind}.html", context)
    return Mail(subject=" ".join(str(subject).split()), text=text, html=html)


def message(member: Member, kind: str, mail: Mail) -> EmailMultiAlternatives:
    link = unsubscribe_url(member, kind)
    email = EmailMultiAlternatives(
        subject=mail.subject,
        body=mail.text,
        to=[member.email],
        headers={
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            # RFC 3834: no out-of-office replies to the club's robot.
            "Auto-Submitted": "auto-generated",
        },
    )
    email.attach_alternative(mail.html, "text/html")
    return email
