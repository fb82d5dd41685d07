"""The mail's tests: members with addresses, and a plain renderer standing in for a kind."""

from __future__ import annotations

import pytest

import notices
from notices import mail as mails
from tests.factories import make_member


class Raising:
    """A mail backend whose server is always away."""

    def __init__(self, *args, **kwargs):
        self.opened = 0

    def open(self):
        self.opened += 1

    def close(self):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("the mail server is away")


@pytest.fixture
def raising_mailer(settings):
    settings.MAILERS = {"default": {"BACKEND": "tests.notices.conftest.Raising"}}


@pytest.fixture
def plain_promotion():
    """A stand-in renderer for "promotion" (object: any number), restored afterwards."""
    before = mails._renderers.get("promotion")

    def render(member, object_id):
        return notices.Mail(f"Seat {object_id} for {member.name}", f"Text {object_id}", "<p>x</p>")

    notices.register_mail("promotion", render)
    yield render
    if before is None:
        mails._renderers.pop("promotion", None)
    else:
        mails._renderers["promotion"] = before


def with_address(club, name, email, **fields):
    member = make_member(club, name, **fields)
    member.email = email
    member.save(update_fields=["email"])
    return member


@pytest.fixture
def mailed(club):
    """Three members with addresses, and one without."""
    return [
        with_address(club, "Anna Ås", email="anna@example.org"),
        with_address(club, "Bo Ek", email="bo@example.org"),
        with_address(club, "Cilla Ros", email="cilla@example.org"),
        with_address(club, "Dan Utan", email=""),
    ]
