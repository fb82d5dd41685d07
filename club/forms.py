"""Forms for the club pages. Validation lives in models and services; forms reuse it."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib.auth.forms import BaseUserCreationForm
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.ledger import check_amount
from club.models import DuesPlan, Member, Role, Season, User
from club.money import KronorField, format_ore
from club.payments import NEEDS_MEMBER, PaymentKind
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


def _today():
    return timezone.localdate()


class PaymentForm(IdempotentForm):
    kind = forms.ChoiceField(
        label=_("What happened"), choices=PaymentKind.choices, widget=forms.RadioSelect
    )
    member = forms.ModelChoiceField(
        label=_("Member"), queryset=Member.objects.none(), required=False
    )
    amount = KronorField(label=_("Amount"), validators=[check_amount])
    memo = inputs.TextField(label=_("Note"), max_length=200, required=False)
    date = inputs.DateField(
        label=_("Date"), initial=_today, widget=forms.DateInput(attrs={"type": "date"})
    )

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = Member.objects.for_club(club).active()

    def clean(self):
        data = super().clean()
        if data.get("kind") in NEEDS_MEMBER and not data.get("member"):
            self.add_error("member", ValidationError(_("Choose the member."), code="required"))
        return data


class TransferForm(IdempotentForm):
    payer = forms.ModelChoiceField(label=_("From"), queryset=Member.objects.none())
    payee = forms.ModelChoiceField(label=_("To"), queryset=Member.objects.none())
    amount = KronorField(label=_("Amount"), validators=[check_amount])
    memo = inputs.TextField(label=_("Note"), max_length=200, required=False)

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        members = Member.objects.for_club(club).active()
        self.fields["payer"].queryset = members
        self.fields["payee"].queryset = members

    def clean(self):
        data = super().clean()
        if data.get("payer") and data.get("payer") == data.get("payee"):
            self.add_error(
                "payee", ValidationError(_("Choose two different members."), code="same_member")
            )
        return data


class ReverseForm(forms.Form):
    reason = inputs.TextField(label=_("Why is it reversed?"), max_length=200)


class DateRangeForm(forms.Form):
    start = inputs.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    end = inputs.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self):
        data = super().clean()
        if data.get("start") and data.get("end") and data["start"] > data["end"]:
            raise ValidationError(_("The end date is before the start date."), code="dates")
        return data


class ClosePeriodForm(forms.Form):
    name = inputs.TextField(label=_("Name"), max_length=100)
    start = inputs.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    end = inputs.DateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))


class SettleOneForm(forms.Form):
    """Settle one member: all of the balance, or a chosen part of it (GET form)."""

    member = forms.ChoiceField(label=_("Member"))
    amount = KronorField(
        label=_("Amount"),
        required=False,
        help_text=_("Leave empty to settle the whole balance."),
        validators=[check_amount],
    )

    def __init__(self, *args, accounts=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.balances = {a.key: a.balance_ore for a in accounts}
        self.fields["member"].choices = [
            (a.key, f"{a.name}: {format_ore(a.balance_ore)}") for a in accounts
        ]

    def clean(self):
        data = super().clean()
        key, amount = data.get("member"), data.get("amount")
        if key and amount and amount > abs(self.balances.get(key, 0)):
            self.add_error(
                "amount",
                ValidationError(
                    _("That is more than the balance of %(balance)s.")
                    % {"balance": format_ore(abs(self.balances[key]))},
                    code="more_than_balance",
                ),
            )
        return data


class DuesPlanForm(forms.Form):
    fee = KronorField(label=_("Membership fee"), validators=[check_amount])
    interval = forms.ChoiceField(
        label=_("Charged"), choices=DuesPlan.Interval.choices, widget=forms.RadioSelect
    )
    active = forms.BooleanField(
        label=_("Charge automatically"),
        required=False,
        help_text=_("Every night the fee is charged to active members not yet charged."),
    )


class StatementForm(forms.Form):
    season = forms.ModelChoiceField(label=_("Season"), queryset=Season.objects.none())
    member = forms.ModelChoiceField(
        label=_("Member"),
        queryset=Member.objects.none(),
        required=False,
        empty_label=_("All members"),
    )

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].queryset = Season.objects.filter(club=club)
        self.fields["member"].queryset = Member.objects.for_club(club)


class BalanceDateForm(forms.Form):
    at = inputs.DateField(
        label=_("At the end of"),
        required=False,
        help_text=_("Leave empty for the balances now."),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
