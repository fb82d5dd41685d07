"""Forms for the club pages: members and invites. Validation lives in models and services."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import BaseUserCreationForm
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from club.models import Role, User
from core import inputs


class MemberForm(forms.Form):
    name = inputs.TextField(label=_("Name"), max_length=100)
    swish_number = inputs.TextField(
        label=_("Swish number"),
        max_length=20,
        required=False,
        validators=[
            RegexValidator(
                r"\A[0-9+ ()./-]*\Z",
                _("A Swish number is written with the digits 0–9 (and + or spaces)."),
                code="swish_number",
            )
        ],
    )
    roles = forms.MultipleChoiceField(
        label=_("Roles"),
        choices=[(r.value, r.label) for r in Role if r != Role.MEMBER],
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )


class InviteAcceptForm(BaseUserCreationForm):
    class Meta(BaseUserCreationForm.Meta):
        model = User
        fields = ("username",)
