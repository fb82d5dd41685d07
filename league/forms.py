"""Forms for the club's league settings and seasons."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from club import seasons
from club.models import Club, Season
from core import inputs
from league.models import LeagueFormat


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


def _label(name: str) -> str:
    return capfirst(LeagueFormat._meta.get_field(name).verbose_name)


class LeagueFormatForm(forms.ModelForm):
    """The club's league format (``league.formats``); the points table is checked by the
    model's validator, which names the line it refuses."""

    # ASCII digits, bounded by the columns (core.inputs).
    best = inputs.IntegerField(label=_label("best"), min_value=1, max_value=32767, required=False)
    participation = inputs.IntegerField(label=_label("participation"), min_value=0, max_value=1000)
    minimum = inputs.IntegerField(label=_label("minimum"), min_value=0, max_value=32767)
    points_table = inputs.TextField(
        label=_label("points_table"),
        max_length=2000,
        multiline=True,
        required=False,
        # One line per number of players: a text area (a declared field ignores Meta.widgets).
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "4: 10 6 3 1\n3: 8 4 1"}),
    )

    class Meta:
        model = LeagueFormat
        fields = ["best", "unit", "participation", "points_table", "minimum"]

    def __init__(self, *args, club: Club, **kwargs):
        instance = LeagueFormat.objects.filter(club=club).first() or LeagueFormat(club=club)
        super().__init__(*args, instance=instance, **kwargs)
        self.club = club
        for name in ("best", "participation", "points_table", "minimum"):
            self.fields[name].help_text = LeagueFormat._meta.get_field(name).help_text

    def save(self, commit: bool = True) -> LeagueFormat:
        """One row per club, whoever saves first (two admins at once update the same row)."""
        data = {name: self.cleaned_data[name] for name in self.Meta.fields}
        data["points_table"] = data["points_table"] or ""
        league_format, _created = LeagueFormat.objects.update_or_create(
            club=self.club, defaults=data
        )
        return league_format
