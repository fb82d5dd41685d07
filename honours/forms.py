"""The club's hand prizes and money into their pots."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from core import inputs
from core.forms import IdempotentForm
from core.money import KronorField
from ledger.forms import ClubCeiling
from ledger.models import AccountKind
from ledger.postings import check_amount


class PrizeForm(ClubCeiling, forms.Form):
    active = forms.BooleanField(label=_("This hand wins a prize"), required=False)
    whole_pot = forms.BooleanField(label=_("The whole pot"), required=False)
    amount = KronorField(
        label=_("Prize"),
        required=False,
        help_text=_("Paid from the pot; when the pot holds less, what it holds."),
        validators=[check_amount],
    )
    pot_name = inputs.TextField(
        label=_("Pot"),
        max_length=60,
        help_text=_("The prizes with the same pot share its money."),
    )

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean(self):
        data = super().clean()
        if data.get("active") and not data.get("whole_pot") and not data.get("amount"):
            self.add_error(
                "amount",
                ValidationError(_("Give the prize, or choose the whole pot."), code="amount"),
            )
        return data


SOURCES = (
    (AccountKind.TREASURY.value, _("Club treasury")),
    (AccountKind.CASH.value, _("Cash")),
)


class FundForm(ClubCeiling, IdempotentForm):
    pot = forms.ChoiceField(label=_("Pot"))
    source = forms.ChoiceField(label=_("From"), choices=SOURCES, widget=forms.RadioSelect)
    amount = KronorField(label=_("Amount"), validators=[check_amount])

    def __init__(self, *args, club=None, pots=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["pot"].choices = [(pot.key, pot.label) for pot in pots]
        self.initial.setdefault("source", AccountKind.TREASURY.value)
