"""Forms for the club pages. Validation lives in models and services; forms reuse it."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import BaseUserCreationForm
from django.utils.translation import gettext_lazy as _

from club.models import Role, User


class MemberForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    swish_number = forms.CharField(label=_("Swish number"), max_length=20, required=False)
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
