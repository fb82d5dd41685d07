"""Forms for the club's league settings and seasons."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from club import seasons
from club.models import Club, Season
from core import inputs


class LeagueSettingsForm(forms.ModelForm):
    # ASCII digits, bounded by the column (core.inputs), not whatever int() accepts.
    provisional_games = inputs.IntegerField(
        label=capfirst(Club._meta.get_field("provisional_games").verbose_name),
        min_value=0,
        max_value=32767,
    )

    class Meta:
        model = Club
        fields = [
            "placement_scheme",
            "provisional_games",
            "skunks_in_league",
            "public_league_money",
        ]
        help_texts = {
            "public_league_money": _(
                "Each member's net winnings on the link anyone can open; members who log in "
                "always see them."
            ),
        }


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "start", "end"]
        field_classes = {
            "name": inputs.TextField,
            "start": inputs.DateField,
            "end": inputs.DateField,
        }
        widgets = {
            "start": forms.DateInput(attrs={"type": "date"}),
            "end": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean(self):
        """Early feedback; ``seasons.add_season`` checks again under the club's lock."""
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end:
            if start > end:
                raise ValidationError(_("The season ends before it starts."), code="dates")
            clash = seasons.overlapping_season(self.club, start, end)
            if clash is not None:
                raise seasons.season_overlap_error(clash)
        return data

    def save(self, commit: bool = True) -> Season:
        """The season, added by ``seasons.add_season`` (a refusal raises ``ValidationError``)."""
        data = self.cleaned_data
        return seasons.add_season(self.club, data["name"], data["start"], data["end"])
