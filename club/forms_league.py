"""Forms for the club's league settings and seasons."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from club.models import Club, Season


class LeagueSettingsForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["placement_scheme", "provisional_games", "skunks_in_league"]


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "start", "end"]
        widgets = {
            "start": forms.DateInput(attrs={"type": "date"}),
            "end": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end:
            if start > end:
                raise ValidationError(_("The season ends before it starts."), code="dates")
            overlap = Season.objects.filter(club=self.club, start__lte=end, end__gte=start)
            if overlap.exists():
                raise ValidationError(
                    _("The season overlaps %(name)s.") % {"name": overlap.first().name},
                    code="overlap",
                )
        return data
