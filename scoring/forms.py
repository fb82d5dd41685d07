"""Forms for starting a game: players in seat order, guests, and the rules options.

Rules options are built from the engine's ``Rules`` dataclass: a bool is a checkbox, an int a
number, an öre amount (a field named ``*_ore``) a kronor field, a field with a fixed set of
values (a ``Literal`` or a tuple of choices in ``Rules.CHOICES``) a select; labels come from
``Rules.LABELS`` ({field: label}) and ``Rules.CHOICE_LABELS`` ({field: {value: label}}), English
texts the engine marks for translation, read through gettext. The club's defaults
are the options of its last game of the same kind: a club sets its house rules once.
"""

from __future__ import annotations

import dataclasses
import typing
import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import Member
from core import inputs
from core.forms import submission_field
from core.money import KronorField, format_ore
from ledger.services import check_amount
from scoring.models import Seat

# A whole-number option (a target, a capital, a count): far beyond any game, within any column.
MAX_OPTION = 10**9
GUEST_NAME_LENGTH = Seat._meta.get_field("guest_name").max_length


def _choices(rules_class, field: dataclasses.Field) -> tuple:
    """Fixed values of an option: ``Rules.CHOICES[name]``, or a ``Literal`` annotation."""
    listed = getattr(rules_class, "CHOICES", {}).get(field.name)
    if listed:
        return tuple(listed)
    try:
        hint = typing.get_type_hints(rules_class).get(field.name)
    except (NameError, TypeError):  # an annotation that cannot be resolved: no choices
        return ()
    return typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else ()


def _label(rules_class, name: str) -> str:
    """``Rules.LABELS[name]`` (an English label the engine marked for translation) in the
    reader's language; an option without one reads as its field name."""
    label = getattr(rules_class, "LABELS", {}).get(name)
    return gettext(label) if label else name.removesuffix("_ore").replace("_", " ").capitalize()


def _choice_labels(rules_class, name: str) -> dict:
    """``Rules.CHOICE_LABELS[name][value]`` in the reader's language: how a value reads."""
    by_value = getattr(rules_class, "CHOICE_LABELS", {}).get(name) or {}
    return {value: gettext(label) for value, label in by_value.items()}


def _field_for(
    field: dataclasses.Field, default, choices: tuple, label: str, choice_labels: dict
) -> forms.Field | None:
    """A form field for one option; left empty, the option keeps the rules' default."""
    common = {"label": label, "required": False}
    if isinstance(default, bool):
        return forms.BooleanField(initial=default, **common)
    if choices:
        # Typed, so that a choice of numbers (a target of 121 or 61) reaches the rules as a number.
        return forms.TypedChoiceField(
            choices=[(c, choice_labels.get(c, c)) for c in choices],
            coerce=type(default),
            empty_value=None,
            initial=default,
            **common,
        )
    if isinstance(default, int) and field.name.endswith("_ore"):
        shown = format_ore(default).replace("\u00a0kr", "")
        # The club's ceiling (settings.MAX_AMOUNT_ORE) before the engine's own bound.
        return KronorField(initial=shown, allow_zero=True, validators=[check_amount], **common)
    if isinstance(default, int):
        return inputs.IntegerField(
            initial=default, min_value=-MAX_OPTION, max_value=MAX_OPTION, **common
        )
    if isinstance(default, str):
        return inputs.TextField(initial=default, max_length=100, **common)
    return None  # tuples and nested options keep their defaults


def _shown(form_field: forms.Field, value):
    if isinstance(form_field, KronorField):
        return format_ore(value).replace("\u00a0kr", "")
    return value


class StartGameForm(forms.Form):
    players = inputs.ModelMultipleChoiceField(
        label=_("Players"),
        queryset=Member.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    order = forms.CharField(widget=forms.HiddenInput, required=False, max_length=1000)
    draw_dealer = forms.BooleanField(
        label=_("Let the app draw the first dealer"),
        required=False,
        help_text=_("Otherwise the first player tapped deals first."),
    )
    guests = inputs.TextField(
        label=_("Guests"),
        required=False,
        max_length=1000,
        help_text=_("Names of players who are not members, separated by commas."),
    )
    # One key per rendering: a double tap on "Start the game" starts one game (the second post
    # finds it, see recording.start_game). Optional: a post without it starts a game as before.
    submission = submission_field(required=False)

    def __init__(self, *args, club=None, rules_class=None, club_rules=None, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("submission", uuid.uuid4().hex)
        self.fields["players"].queryset = Member.objects.for_club(club).active()
        self.rule_fields: list[str] = []
        if rules_class is not None:
            defaults = rules_class()
            for field in dataclasses.fields(rules_class):
                default = getattr(defaults, field.name)
                form_field = _field_for(
                    field,
                    default,
                    _choices(rules_class, field),
                    _label(rules_class, field.name),
                    _choice_labels(rules_class, field.name),
                )
                if form_field is not None:
                    # The club's own choice (the options of its last game of this kind).
                    chosen = (club_rules or {}).get(field.name)
                    if chosen is not None and type(chosen) is type(default):
                        form_field.initial = _shown(form_field, chosen)
                    self.fields[f"rule_{field.name}"] = form_field
                    self.rule_fields.append(field.name)

    def clean(self):
        data = super().clean()
        members = list(data.get("players") or [])
        # Seat order: the order in which the players were tapped, when the page sent it.
        order = [p.strip() for p in (data.get("order") or "").split(",") if inputs.is_int_text(p)]
        rank = {int(pk): i for i, pk in enumerate(order) if len(pk) <= inputs.MAX_DIGITS}
        members.sort(key=lambda m: (rank.get(m.pk, len(rank)), m.name))
        guests = [g.strip() for g in (data.get("guests") or "").split(",") if g.strip()]
        for guest in guests:
            if len(guest) > GUEST_NAME_LENGTH:
                raise ValidationError(
                    _("A guest's name has at most %(limit)s characters.")
                    % {"limit": GUEST_NAME_LENGTH},
                    code="guest_name",
                )
        data["seated"] = [*members, *guests]
        if len(data["seated"]) < 2:
            raise ValidationError(_("Choose at least two players."), code="players")
        return data

    def rules_options(self) -> dict:
        """The options that were given; a left-out option keeps the rules' default."""
        options = {}
        for name in self.rule_fields:
            value = self.cleaned_data.get(f"rule_{name}")
            if value not in (None, ""):
                options[name] = value
        return options

    def rule_bound_fields(self):
        return [self[f"rule_{name}"] for name in self.rule_fields]


class VoidForm(forms.Form):
    reason = inputs.TextField(label=_("Why is the game voided?"), max_length=200)
