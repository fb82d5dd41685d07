"""Forms every app shares: the one-time submission key that makes a double tap record once."""

from __future__ import annotations

import uuid

from django import forms
from django.utils.translation import gettext_lazy as _

from core import inputs


def submission_field(*, required: bool = True) -> forms.CharField:
    """The hidden one-time key a rendered form carries, so that a double tap (or a resent
    request) records once: the key ends up in a unique column. A page always sends it; a post
    without it comes from something else and is refused, never given a fresh key here."""
    return forms.CharField(
        widget=forms.HiddenInput,
        required=required,
        validators=[inputs.parse_token],  # a short run of [A-Za-z0-9_-]: fits any key column
        error_messages={
            "required": _(
                "The form was sent without its submission key; reload the page and try again."
            ),
        },
    )


class IdempotentForm(forms.Form):
    """A form whose submission carries a one-time key, so a double tap records once."""

    submission = submission_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("submission", uuid.uuid4().hex)

    def ledger_key(self, prefix: str) -> str:
        return f"{prefix}:{self.cleaned_data['submission']}"
