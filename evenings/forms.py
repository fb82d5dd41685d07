"""Forms of a club evening: opening it, checking in, forming tables, the club's options."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from club.models import Member
from core import inputs
from core.money import KronorField
from engine import registry
from engine.errors import EngineError
from engine.whist_drive import check_percents
from evenings import attendance, drives
from evenings.models import Attendee, Evening, FeeKind, PotPolicy


def _game_choices(keys=None) -> list[tuple[str, str]]:
    games = registry.all_games()
    return [(g.key, _(g.name)) for g in games if not keys or g.key in keys]


class OpenEveningForm(forms.Form):
    title = inputs.TextField(label=_("Title"), required=False, max_length=100)
    games = forms.MultipleChoiceField(
        label=_("Games on offer"), required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["games"].choices = _game_choices()


REGULARS = 20  # guests of earlier evenings offered for a tick, the most recent first
_REGULARS_SCANNED = 400  # earlier guest rows looked through for them (a name comes back often)


class CheckInForm(forms.Form):
    """The host ticks everyone who came, members and the guests of earlier evenings, writes a
    new guest's name if there is one, and saves once. Someone already here is listed as here,
    not offered; a ticked box for him (a double submit) finds him, it does not check him in
    twice."""

    members = inputs.ModelMultipleChoiceField(
        label=_("Members"),
        queryset=Member.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": _(
                "Someone ticked is not a member of this club; reload the page and tick again."
            )
        },
    )
    regulars = inputs.ModelMultipleChoiceField(
        label=_("Guests of earlier evenings"),
        queryset=Attendee.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": _(
                "Someone ticked is not a guest of an earlier evening; reload the page and tick "
                "again."
            )
        },
    )
    # The +1 guests members said they would bring (``attendance.expected``), pre-ticked.
    expected_guests = forms.MultipleChoiceField(
        label=_("Guests members said they would bring"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    guest_name = inputs.TextField(label=_("A new guest"), required=False, max_length=100)

    def __init__(self, *args, evening: Evening, **kwargs):
        super().__init__(*args, **kwargs)
        tonight = list(evening.attendees.values_list("member_id", "guest_name"))
        self.here_members = {member_id for member_id, _name in tonight if member_id}
        self.here_guests = {name.casefold() for member_id, name in tonight if not member_id}
        # Tonight's check-in starts from the replies: those who said coming are listed first
        # and pre-ticked, those who said maybe next; their +1 guests pre-ticked too.
        self.expected = attendance.expected(evening)
        self.said = {m: _("maybe") for m in self.expected.maybe} | {
            m: _("said coming") for m in self.expected.coming
        }
        self.fields["members"].initial = [
            m for m in self.expected.coming if m not in self.here_members
        ]
        self.fields["expected_guests"].choices = [(n, n) for n in self.expected.guests]
        self.fields["expected_guests"].initial = [
            n for n in self.expected.guests if n.casefold() not in self.here_guests
        ]
        # Everyone active, the ones here too: they are shown as here, and a second submit of
        # the same ticks is then valid and finds them.
        self.fields["members"].queryset = (
            Member.objects.for_club(evening.club).active().order_by("name")
        )
        self.fields["members"].label_from_instance = lambda m: m.name
        self.fields["regulars"].queryset = Attendee.objects.filter(
            pk__in=_regulars(evening)
        ).order_by("-evening__date", "-arrived_at", "-pk")
        self.fields["regulars"].label_from_instance = lambda a: a.guest_name

    def member_choices(self) -> list[tuple[object, bool]]:
        """Each member's check box, and whether he is here already (then shown, not offered)."""
        return [(box, here) for box, here, _said in self.member_choices_said()]

    def member_choices_said(self) -> list[tuple[object, bool, str]]:
        """``member_choices`` with what each replied (``attendance.expected``): those who said
        coming first, then maybe, then the rest by name."""
        first = dict.fromkeys(self.expected.maybe, 0) | dict.fromkeys(self.expected.coming, -1)
        boxes = [
            (box, box.data["value"].value in self.here_members, box.data["value"].value)
            for box in self["members"]
        ]
        boxes.sort(key=lambda choice: first.get(choice[2], 1))  # stable: by name within
        return [(box, here, self.said.get(pk, "")) for box, here, pk in boxes]

    def expected_guest_choices(self) -> list[tuple[object, bool]]:
        boxes = self["expected_guests"]
        return [(box, box.choice_label.casefold() in self.here_guests) for box in boxes]

    def regular_choices(self) -> list[tuple[object, bool]]:
        return [(box, box.choice_label.casefold() in self.here_guests) for box in self["regulars"]]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        if not (
            data.get("members")
            or data.get("regulars")
            or data.get("expected_guests")
            or data.get("guest_name")
        ):
            raise forms.ValidationError(
                _("Tick who came, or write a new guest's name."), code="nobody"
            )
        return data

    def guest_names(self) -> list[str]:
        """The ticked regulars' names and the new guest's, as ``check_in`` takes them."""
        names = [a.guest_name for a in self.cleaned_data.get("regulars") or []]
        names += list(self.cleaned_data.get("expected_guests") or [])
        new = self.cleaned_data.get("guest_name") or ""
        return [*names, new] if new else names


def _regulars(evening: Evening) -> list[int]:
    """One attendee row per guest name of the club's earlier evenings (its latest), the most
    recent ``REGULARS`` names."""
    rows = (
        Attendee.objects.filter(evening__club=evening.club_id, member__isnull=True)
        .exclude(evening=evening)
        .filter(evening__date__lte=evening.date)
        .order_by("-evening__date", "-arrived_at", "-pk")
        .values_list("pk", "guest_name")[:_REGULARS_SCANNED]
    )
    latest: dict[str, int] = {}
    for pk, name in rows:
        latest.setdefault(name.casefold(), pk)
        if len(latest) == REGULARS:
            break
    return list(latest.values())


class TableForm(forms.Form):
    """Seat the chosen attendees at a new table, or let the app draw every table."""

    game = forms.ChoiceField(label=_("Game"))
    attendees = inputs.ModelMultipleChoiceField(
        label=_("Players"),
        queryset=Attendee.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    # The order the host tapped them in (the first seat deals first), kept by static/js/app.js.
    order = forms.CharField(widget=forms.HiddenInput, required=False, max_length=2000)

    def __init__(self, *args, evening: Evening, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = _game_choices(evening.games)
        keys = [key for key, _name in self.fields["game"].choices]
        # The evening's first game on offer, else the first the club plays, else the registry's.
        played = [key for key in evening.club.games_played or () if key in keys]
        self.fields["game"].initial = keys[0] if evening.games else (played or keys)[0]
        seated = evening.tables.values("seats__attendee_id")
        self.fields["attendees"].queryset = (
            evening.attendees.exclude(pk__in=seated).select_related("member").order_by("pk")
        )
        self.fields["attendees"].label_from_instance = lambda a: a.name

    def seated(self) -> list[Attendee]:
        """The ticked attendees in the order they were tapped (the rest in check-in order)."""
        chosen = list(self.cleaned_data.get("attendees") or [])
        order = [p for p in (self.cleaned_data.get("order") or "").split(",") if p.isdigit()]
        rank = {int(pk): i for i, pk in enumerate(order) if len(pk) <= 19}
        return sorted(chosen, key=lambda a: (rank.get(a.pk, len(rank)), a.pk))


class OptionsForm(forms.Form):
    fee = KronorField(label=_("Fee per attendee (kr)"), allow_zero=True, required=False)
    fee_kind = forms.ChoiceField(label=_("The fee is"), choices=FeeKind.choices)
    pot_policy = forms.ChoiceField(label=_("Between evenings"), choices=PotPolicy.choices)
    prize_percents = inputs.TextField(
        label=_("Whist drive prizes, % of the entry fees"),
        required=False,
        max_length=60,
        help_text=_("First, second, third … place, e.g. 50/30/20."),
    )

    def clean_prize_percents(self) -> list[int]:
        text = (self.cleaned_data.get("prize_percents") or "").replace(",", "/")
        parts = [part.strip().rstrip("%") for part in text.split("/") if part.strip()]
        if not parts:
            return []
        if not all(inputs.is_int_text(part) and len(part) <= 3 for part in parts):
            raise forms.ValidationError(_("Write whole percentages, e.g. 50/30/20."))
        shares = [int(part) for part in parts]
        try:
            check_percents(shares)
        except EngineError as error:
            raise forms.ValidationError(drives.refusal(error).messages[0]) from None
        return shares


class DriveStartForm(forms.Form):
    """Who plays the whist drive (a multiple of four), and its length."""

    attendees = inputs.ModelMultipleChoiceField(
        label=_("Players"),
        queryset=Attendee.objects.none(),
        widget=forms.CheckboxSelectMultiple,
    )
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=40, initial=6)
    deals_per_round = forms.IntegerField(
        label=_("Deals per round"), min_value=1, max_value=24, initial=4
    )

    def __init__(self, *args, evening: Evening, **kwargs):
        super().__init__(*args, **kwargs)
        people = evening.attendees.select_related("member").order_by("pk")
        self.fields["attendees"].queryset = people
        self.fields["attendees"].label_from_instance = lambda a: a.name
        if not self.is_bound:
            self.initial.setdefault("attendees", [a.pk for a in people])


class DriveReportForm(forms.Form):
    """One table's round: the tricks each pair took (and on a tie, who took the last deal)."""

    table = forms.TypedChoiceField(label=_("Table"), coerce=int)
    ns_tricks = forms.IntegerField(label=_("Tricks N/S"), min_value=0, max_value=24 * 13)
    ew_tricks = forms.IntegerField(label=_("Tricks E/W"), min_value=0, max_value=24 * 13)
    last_deal = forms.ChoiceField(
        label=_("On a tie: who took the last deal"),
        required=False,
        choices=[("", "–"), ("ns", _("N/S")), ("ew", _("E/W"))],
    )

    def __init__(self, *args, waiting=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = [(t, str(t)) for t in waiting]


class DriveCorrectionForm(forms.Form):
    """A table's round reported wrongly: the round, the table and the tricks as they were."""

    prefix = "correct"

    round_no = forms.TypedChoiceField(label=_("Round"), coerce=int)
    table = forms.TypedChoiceField(label=_("Table"), coerce=int)
    ns_tricks = forms.IntegerField(label=_("Tricks N/S"), min_value=0, max_value=24 * 13)
    ew_tricks = forms.IntegerField(label=_("Tricks E/W"), min_value=0, max_value=24 * 13)
    last_deal = forms.ChoiceField(
        label=_("On a tie: who took the last deal"),
        required=False,
        choices=[("", "–"), ("ns", _("N/S")), ("ew", _("E/W"))],
    )

    def __init__(self, *args, rounds=(), tables=0, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round_no"].choices = [(r, str(r)) for r in rounds]
        if rounds:
            self.initial.setdefault("round_no", rounds[-1])
        self.fields["table"].choices = [(t, str(t)) for t in range(1, tables + 1)]
