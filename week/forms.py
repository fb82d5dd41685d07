"""Forms of the club's week: a reply, the schedule and its exceptions, moving an evening and
its seats."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core import inputs
from engine import registry
from week.models import ReplyAnswer, Weekday

MAX_CAP = 500


class ReplyForm(forms.Form):
    answer = forms.ChoiceField(choices=ReplyAnswer.choices)
    guest_name = inputs.TextField(label=_("+1 guest"), required=False, max_length=100)


class CapField(inputs.IntegerField):
    def __init__(self, **kwargs):
        super().__init__(
            min_value=1,
            max_value=MAX_CAP,
            required=False,
            label=_("Seats (empty: no limit)"),
            **kwargs,
        )


class ScheduleForm(forms.Form):
    weekday = forms.TypedChoiceField(label=_("Weekday"), choices=Weekday.choices, coerce=int)
    start_time = forms.TimeField(
        label=_("Starts at"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )
    first_date = inputs.DateField(
        label=_("From"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    until = inputs.DateField(
        label=_("Until (empty: no end)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    cap = CapField()
    title = inputs.TextField(label=_("Title"), required=False, max_length=100)
    games = forms.MultipleChoiceField(
        label=_("Games on offer"), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["games"].choices = [(g.key, _(g.name)) for g in registry.all_games()]

    def clean(self):
        data = super().clean()
        first, until = data.get("first_date"), data.get("until")
        if first and until and until < first:
            self.add_error(
                "until", forms.ValidationError(_("The end comes before the start."), code="order")
            )
        return data


class ExceptionForm(forms.Form):
    schedule = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31)
    date = inputs.DateField(
        label=_("Skip the date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


class MoveForm(forms.Form):
    date = inputs.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    start_time = forms.TimeField(
        label=_("Starts at"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
    )


class SeatsForm(forms.Form):
    cap = CapField()
