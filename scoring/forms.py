"""Forms for starting a game: players in seat order, guests, and the rules options.

Rules options are built from the engine's ``Rules`` dataclass: a bool is a checkbox, an int a
number, an öre amount (a field named ``*_ore``) a kronor field, a field with a fixed set of
values (a ``Literal`` or a tuple of choices in ``Rules.CHOICES``) a select; labels come from
``Rules.LABELS`` ({field: label}) and ``Rules.CHOICE_LABELS`` ({field: {value: label}}), English
texts the engine marks for translation, read through gettext. What the form starts from: the
club's own defaults (``Club.game_defaults``, set on the settings page through the same fields,
``rule_fields``), then the options of its last game of the same kind, then the engine's. A money
option is held to the club's ceiling on a single amount (``ledger.amount_ceiling``) here, at the
start, so no transfer of the game is refused mid-game.

A game with variants whose options differ (whist: honours never in American whist, the
à la guerre tie and stake only à la guerre) declares which options belong to which variant with
``register_variant_fields`` (from its ``scoring/games/<key>.py``). The start form then marks
each such option with its variants (``data-variants``), app.js shows only the chosen variant's
(without JavaScript all are shown), and an option of another variant is ignored on submit:
neither its value nor its errors count.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import Club, Member
from core import inputs
from core.forms import submission_field
from core.money import KronorField, format_ore
from ledger.postings import check_amount
from scoring.models import Seat

# A whole-number option (a target, a capital, a count): far beyond any game, within any column.
MAX_OPTION = 10**9
GUEST_NAME_LENGTH = Seat._meta.get_field("guest_name").max_length


# Rules class → (the option that chooses the variant, {variant: the options that belong to it}).
_VARIANT_FIELDS: dict[type, tuple[str, dict[str, tuple[str, ...]]]] = {}


def register_variant_fields(rules_class, selector: str, fields: dict[str, tuple[str, ...]]):
    """Declare which options of ``rules_class`` belong to which value of ``selector``; an option
    named by no variant belongs to all."""
    _VARIANT_FIELDS[rules_class] = (selector, {v: tuple(names) for v, names in fields.items()})


def variant_fields(rules_class) -> tuple[str, dict[str, tuple[str, ...]]] | None:
    return _VARIANT_FIELDS.get(rules_class)


def _variants_of(rules_class) -> dict[str, tuple[str, ...]]:
    """{option: the variants it belongs to}, for the options that belong to some only."""
    declared = variant_fields(rules_class)
    if declared is None:
        return {}
    _selector, fields = declared
    variants: dict[str, list[str]] = {}
    for variant, names in fields.items():
        for name in names:
            variants.setdefault(name, []).append(variant)
    return {name: tuple(found) for name, found in variants.items() if len(found) < len(fields)}


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
    field: dataclasses.Field,
    default,
    choices: tuple,
    label: str,
    choice_labels: dict,
    club: Club | None = None,
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
        # The club's ceiling (Club.max_amount_ore, else settings.MAX_AMOUNT_ORE) before the
        # engine's own bound.
        ceiling = functools.partial(check_amount, club=club)
        return KronorField(initial=shown, allow_zero=True, validators=[ceiling], **common)
    if isinstance(default, int):
        return inputs.IntegerField(
            initial=default, min_value=-MAX_OPTION, max_value=MAX_OPTION, **common
        )
    if isinstance(default, str):
        return inputs.TextField(initial=default, max_length=100, **common)
    return None  # tuples and nested options keep their defaults


def rule_fields(rules_class, chosen: dict | None = None, club: Club | None = None) -> dict:
    """The form fields of a game's options ({option: field}), each starting from ``chosen``'s
    value when it has the option's type, else the rules' default. The start form and the
    club's default options (clubdata.settings) are both built from these, so they accept the
    same values."""
    defaults = rules_class()
    built = {}
    for field in dataclasses.fields(rules_class):
        default = getattr(defaults, field.name)
        form_field = _field_for(
            field,
            default,
            _choices(rules_class, field),
            _label(rules_class, field.name),
            _choice_labels(rules_class, field.name),
            club,
        )
        if form_field is None:
            continue
        value = (chosen or {}).get(field.name)
        if value is not None and type(value) is type(default):
            form_field.initial = _shown(form_field, value)
        built[field.name] = form_field
    return built


def chosen_options(rules_class, chosen: dict | None) -> dict:
    """The options of ``chosen`` that ``rules_class`` has, with the type of its default."""
    if not isinstance(chosen, dict):
        return {}
    defaults = rules_class()
    return {
        name: value
        for name, value in chosen.items()
        if isinstance(name, str)
        and hasattr(defaults, name)
        and type(value) is type(getattr(defaults, name))
    }


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

    def __init__(
        self, *args, club=None, rules_class=None, club_rules=None, club_defaults=None, **kwargs
    ):
        """``club_defaults``: the club's own default options for the game (what an option left
        empty means); ``club_rules``: what the form shows, the club's defaults over its last
        game's options."""
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("submission", uuid.uuid4().hex)
        self.club = club
        self.rules_class = rules_class
        self.fields["players"].queryset = Member.objects.for_club(club).active()
        self.rule_fields: list[str] = []
        self.club_defaults: dict = {}
        self.variants_of: dict[str, tuple[str, ...]] = {}
        if rules_class is not None:
            self.club_defaults = chosen_options(rules_class, club_defaults)
            shown = {**(club_rules or {}), **self.club_defaults}
            self.variants_of = _variants_of(rules_class)
            for name, form_field in rule_fields(rules_class, shown, club).items():
                self.fields[f"rule_{name}"] = form_field
                self.rule_fields.append(name)

    def _variant(self) -> str | None:
        """The variant chosen on the form (else the club's default, else the rules')."""
        declared = variant_fields(self.rules_class) if self.rules_class else None
        if declared is None:
            return None
        selector = declared[0]
        chosen = (getattr(self, "cleaned_data", None) or {}).get(f"rule_{selector}")
        if chosen in (None, ""):
            chosen = self.club_defaults.get(selector, getattr(self.rules_class(), selector))
        return chosen

    def _in_play(self, name: str) -> bool:
        """Whether an option belongs to the chosen variant (an option of all variants does)."""
        variants = self.variants_of.get(name)
        return variants is None or self._variant() in variants

    def _drop_other_variants(self) -> None:
        """Another variant's options, hidden on the page, neither count nor refuse."""
        for name in self.rule_fields:
            if not self._in_play(name):
                self.errors.pop(f"rule_{name}", None)
                self.cleaned_data.pop(f"rule_{name}", None)

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
        self._drop_other_variants()
        self._check_money_options()
        if len(data["seated"]) < 2:
            raise ValidationError(_("Choose at least two players."), code="players")
        return data

    def _check_money_options(self) -> None:
        """Every money option the game will play with, given or not, within the club's
        ceiling: refused here rather than one transfer at a time mid-game."""
        if self.rules_class is None:
            return
        options = self.rules_options()
        defaults = self.rules_class()
        for name in self.rule_fields:
            field_name = f"rule_{name}"
            if not name.endswith("_ore") or field_name in self.errors or not self._in_play(name):
                continue
            value = options.get(name, getattr(defaults, name))
            if isinstance(value, int) and not isinstance(value, bool):
                try:
                    check_amount(value, self.club)
                except ValidationError as error:
                    self.add_error(field_name, error)

    def rules_options(self) -> dict:
        """The options that were given; a left-out option keeps the club's default, else the
        rules' default."""
        options = {}
        for name in self.rule_fields:
            if not self._in_play(name):
                continue
            value = self.cleaned_data.get(f"rule_{name}")
            if value not in (None, ""):
                options[name] = value
            elif name in self.club_defaults:
                options[name] = self.club_defaults[name]
        return options

    def rule_bound_fields(self):
        return [self[f"rule_{name}"] for name in self.rule_fields]

    def rule_rows(self):
        """(bound field, the variants it belongs to as "short long", or "" for all)."""
        return [
            (self[f"rule_{name}"], " ".join(self.variants_of.get(name, ())))
            for name in self.rule_fields
        ]

    @property
    def variant_selector(self) -> str:
        """The name of the field that chooses the variant, for app.js ("" without variants)."""
        declared = variant_fields(self.rules_class) if self.rules_class else None
        return f"rule_{declared[0]}" if declared else ""


class VoidForm(forms.Form):
    reason = inputs.TextField(label=_("Why is the game voided?"), max_length=200)
