"""The member's own login: the e-mail address a forgotten-password link goes to."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import User


class AccountEmailForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["email"]
        labels = {"email": _("E-mail address")}
        help_texts = {
            "email": _("Only for a link to set a new password if you forget yours."),
        }
        widgets = {"email": forms.EmailInput(attrs={"autocomplete": "email"})}
