"""Forms for the books: payments, transfers, reversals, periods, settle-up, dues, exports."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from club.models import Member, Season
from core import inputs
from core.forms import IdempotentForm
from core.money import KronorField, format_ore
from ledger.models import DuesPlan
from ledger.payments import NEEDS_MEMBER, PaymentKind
from ledger.postings import check_amount


def _today():
    return timezone.localdate()


class ClubCeiling:
    """The club's own ceiling on a single amount (``Club.max_amount_ore``) for a form's
    ``amount``: the field's validator knows only the instance's, the form knows the club."""

    club = None

    def clean_amount(self):
        amount = self.cleaned_data.get("amount")
        if amount is not None:
            check_amount(amount, self.club)
        return amount


class PaymentForm(ClubCeiling, IdempotentForm):
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
        self.club = club
        self.fields["member"].queryset = Member.objects.for_club(club).active()

    def clean(self):
        data = super().clean()
        if data.get("kind") in NEEDS_MEMBER and not data.get("member"):
            self.add_error("member", ValidationError(_("Choose the member."), code="required"))
        return data


class TransferForm(ClubCeiling, IdempotentForm):
    payer = forms.ModelChoiceField(label=_("From"), queryset=Member.objects.none())
    payee = forms.ModelChoiceField(label=_("To"), queryset=Member.objects.none())
    amount = KronorField(label=_("Amount"), validators=[check_amount])
    memo = inputs.TextField(label=_("Note"), max_length=200, required=False)

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
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


class SettleOneForm(ClubCeiling, forms.Form):
    """Settle one member: all of the balance, or a chosen part of it (GET form)."""

    member = forms.ChoiceField(label=_("Member"))
    amount = KronorField(
        label=_("Amount"),
        required=False,
        help_text=_("Leave empty to settle the whole balance."),
        validators=[check_amount],
    )

    def __init__(self, *args, accounts=(), club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.balances = {a.key: a.balance_ore for a in accounts}
        self.fields["member"].choices = [
            (a.key, f"{a.label}: {format_ore(a.balance_ore)}") for a in accounts
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

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_fee(self):
        fee = self.cleaned_data.get("fee")
        if fee is not None:
            check_amount(fee, self.club)
        return fee


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
