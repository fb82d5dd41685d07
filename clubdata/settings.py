"""The admins' one settings page: what a club decides about itself, in one place.

Sections, each a form of its own that saves only its fields: the club (name, Swish number), the
games it plays and each one's default options, the league (points, provisional games, skunks,
money on the public link), the evenings (``evenings.save_options``), and the money
ceiling (``Club.max_amount_ore``, at most the instance's ``settings.MAX_AMOUNT_ORE``: see
``ledger.amount_ceiling``, which every posting and money form asks).

A game's default options are built from the same fields as the start form
(``scoring.forms.rule_fields``) and checked by the same engine call as a game's start
(``scoring.recording.rules_for``), so a default is exactly what the start form would accept.

Every save locks the club row, reads the old values under the lock, writes only what changed,
and appends an audit record per changed field that touches money (``AuditRecord.Action.SETTINGS``,
subject ``settings:<field>``, data ``{"field", "old", "new"}``, who and when): two admins saving
at once are serialised, and each change is recorded against the value it replaced. Nothing
changed, nothing recorded.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import datetime

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import evenings
import ledger
from club.forms import MemberForm
from club.models import Club, ConfirmWhen, User
from core import inputs
from core.money import KronorField, format_ore
from core.tasks import enqueue_on_commit
from engine import registry
from evenings.forms import OptionsForm
from evenings.models import EveningOptions, FeeKind, PotPolicy
from league.forms import LeagueSettingsForm
from league.tasks import recompute_club_task
from ledger.models import AuditRecord, DuesPlan
from scoring import recording
from scoring.forms import chosen_options, rule_fields

SUBJECT = "settings:"
RECENT_CHANGES = 30

# The club's own fields that touch money: a change of one is an audit record.
CLUB_MONEY_FIELDS = ("swish_number", "public_league_money", "max_amount_ore", "confirm_to_settle")
# Fields whose change rebuilds the league tables (as the league's own settings page does).
LEAGUE_TABLE_FIELDS = ("placement_scheme", "provisional_games", "skunks_in_league")
EVENING_FIELDS = ("fee_ore", "fee_kind", "pot_policy", "prize_percents")

FIELD_LABELS = {
    "name": _("Name"),
    "swish_number": _("Club Swish number"),
    "public_league_money": _("Money on the public league page"),
    "max_amount_ore": _("Largest single amount"),
    "confirm_when": _("Confirm a game's result"),
    "confirm_to_settle": _("Settle only confirmed games"),
    "fee_ore": _("Evening fee per attendee"),
    "fee_kind": _("The evening fee is"),
    "pot_policy": _("Pots between evenings"),
    "prize_percents": _("Whist drive prizes"),
}


# --- forms -------------------------------------------------------------------------------------


class ClubForm(forms.Form):
    name = inputs.TextField(label=_("Name"), max_length=Club._meta.get_field("name").max_length)
    # The same rule as a member's number (club.forms): digits, + and spaces.
    swish_number = copy.deepcopy(MemberForm.base_fields["swish_number"])
    swish_number.label = _("Club Swish number")
    swish_number.help_text = _("Payments to the club at settle-up go to this number.")


class GamesForm(forms.Form):
    games_played = forms.MultipleChoiceField(
        label=_("Games the club plays"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None chosen: every game is offered."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["games_played"].choices = [
            (info.key, gettext(info.name)) for info in registry.all_games()
        ]


def league_form(club: Club, data=None) -> LeagueSettingsForm:
    """The league's own settings form, on a copy of the club: validating a model form writes
    its values onto the instance, and the club is saved here, under its lock, field by field."""
    return LeagueSettingsForm(data, instance=Club.objects.get(pk=club.pk), prefix="league")


class EveningForm(OptionsForm):
    """The evenings' options form, with the fee held to the club's ceiling."""

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_fee(self):
        fee = self.cleaned_data.get("fee")
        if fee:
            ledger.check_amount(fee, self.club)
        return fee


class ConfirmingForm(forms.Form):
    """Results the table confirms (``scoring.confirming``)."""

    confirm_when = forms.ChoiceField(
        label=_("Ask the other players to confirm"),
        choices=ConfirmWhen.choices,
        widget=forms.RadioSelect,
    )
    confirm_to_settle = forms.BooleanField(
        label=_("Settle a game's money tonight only when it is confirmed"),
        required=False,
        help_text=_("Tonight's “Paid” waits until every game at the tables is confirmed."),
    )


class CeilingForm(forms.Form):
    ceiling = KronorField(
        label=_("Largest single amount (kr)"),
        required=False,
        help_text=_(
            "A payment, transfer, fee or stake above it is refused. Empty: the server's ceiling."
        ),
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_ceiling(self) -> int | None:
        ceiling = self.cleaned_data.get("ceiling")
        if ceiling is None:
            return None
        if ceiling > settings.MAX_AMOUNT_ORE:
            raise ValidationError(
                _("The ceiling can be at most the server's, %(limit)s.")
                % {"limit": format_ore(settings.MAX_AMOUNT_ORE)},
                code="above_instance",
            )
        above = amounts_above(self.club, ceiling)
        if above:
            raise ValidationError(
                _("%(what)s is more than that; lower it first.") % {"what": above[0]},
                code="below_club_amounts",
            )
        return ceiling


class GameDefaultsForm(forms.Form):
    """A game's default options: the start form's fields for them, checked by the engine."""

    def __init__(self, *args, club: Club, game_key: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.game_key = game_key
        self.rules_class = registry.get(game_key).module.Rules
        self.fields.update(rule_fields(self.rules_class, game_defaults(club, game_key), club))

    def clean(self):
        data = super().clean()
        if not self.errors:
            try:
                recording.rules_for(self.game_key, self.options())
            except ValidationError as error:
                raise ValidationError(error.messages, code="rules") from None
        return data

    def options(self) -> dict:
        """The options given (an empty one is left to the last game's, then the engine's)."""
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if name in self.fields and value not in (None, "")
        }


# --- reading -----------------------------------------------------------------------------------


def game_defaults(club: Club, game_key: str) -> dict:
    """The club's stored default options for one game, the ones the game still has."""
    stored = club.game_defaults if isinstance(club.game_defaults, dict) else {}
    try:
        rules_class = registry.get(game_key).module.Rules
    except KeyError:
        return {}
    return chosen_options(rules_class, stored.get(game_key))


def amounts_above(club: Club, ceiling: int) -> list[str]:
    """The club's own amounts (an evening fee, a membership fee, a game's default stake) above
    ``ceiling``, in words."""
    found = []
    options = EveningOptions.objects.filter(club=club).first()
    if options is not None and options.fee_ore > ceiling:
        found.append(f"{gettext(FIELD_LABELS['fee_ore'])} ({format_ore(options.fee_ore)})")
    plan = DuesPlan.objects.filter(club=club).first()
    if plan is not None and plan.fee_ore > ceiling:
        found.append(f"{gettext('Membership fee')} ({format_ore(plan.fee_ore)})")
    for key in sorted(club.game_defaults if isinstance(club.game_defaults, dict) else {}):
        for name, value in game_defaults(club, key).items():
            if name.endswith("_ore") and isinstance(value, int) and value > ceiling:
                found.append(f"{field_label(f'{key}.{name}')} ({format_ore(value)})")
    return found


def field_label(field: str) -> str:
    """A recorded field in words: the club's own, or ``<game>.<option>`` of a game's defaults."""
    if field in FIELD_LABELS:
        return gettext(FIELD_LABELS[field])
    game_key, _dot, option = field.partition(".")
    try:
        info = registry.get(game_key)
    except KeyError:
        return field
    label = getattr(info.module.Rules, "LABELS", {}).get(option)
    option_text = gettext(label) if label else option.removesuffix("_ore").replace("_", " ")
    return f"{gettext(info.name)}: {option_text}"


def shown(field: str, value) -> str:
    """A recorded value in words: money as money, choices by their label."""
    if value is None:
        if field == "max_amount_ore":
            return gettext("the server's (%(limit)s)") % {
                "limit": format_ore(settings.MAX_AMOUNT_ORE)
            }
        return "–"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int) and field.endswith("_ore"):
        return format_ore(value)
    if field == "prize_percents" and isinstance(value, list):
        return "/".join(str(v) for v in value) or gettext("the drive's default")
    for choices in (
        ((FeeKind,) if field == "fee_kind" else ())
        + ((PotPolicy,) if field == "pot_policy" else ())
        + ((ConfirmWhen,) if field == "confirm_when" else ())
    ):
        if value in choices.values:
            return str(choices(value).label)
    if value == "":
        return "–"
    return str(value)


@dataclass(frozen=True)
class Change:
    at: datetime
    by: str
    field: str
    old: str
    new: str


def recent_changes(club: Club, limit: int = RECENT_CHANGES) -> list[Change]:
    """The newest settings changes, newest first, in words."""
    records = (
        AuditRecord.objects.filter(club=club, action=AuditRecord.Action.SETTINGS)
        .select_related("by")
        .order_by("-seq")[:limit]
    )
    changes = []
    for record in records:
        data = record.data if isinstance(record.data, dict) else {}
        field = str(data.get("field", record.subject.removeprefix(SUBJECT)))
        changes.append(
            Change(
                at=record.at,
                by=record.by.get_username() if record.by else "",
                field=field_label(field),
                old=shown(field, data.get("old")),
                new=shown(field, data.get("new")),
            )
        )
    return changes


# --- saving ------------------------------------------------------------------------------------


def _record(club: Club, by: User | None, at, field: str, old, new) -> None:
    ledger.append_audit(
        club,
        AuditRecord.Action.SETTINGS,
        by,
        at,
        subject=f"{SUBJECT}{field}",
        data={"field": field, "old": old, "new": new},
    )


def save_club_fields(club: Club, by: User | None, values: dict) -> list[str]:
    """Set the club's own fields that differ from ``values``, under the club's lock; record the
    money ones. Returns the names of the fields that changed."""
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        changed = [name for name, value in values.items() if getattr(locked, name) != value]
        if not changed:
            return []
        now = timezone.now()
        old = {name: getattr(locked, name) for name in changed}
        for name in changed:
            setattr(locked, name, values[name])
        locked.save(update_fields=changed)  # the Swish number is sealed by ledger.ownership
        for name in changed:
            if name in CLUB_MONEY_FIELDS:
                _record(locked, by, now, name, old[name], values[name])
        if set(changed) & set(LEAGUE_TABLE_FIELDS):
            enqueue_on_commit(recompute_club_task, locked.pk)
    for name in changed:
        setattr(club, name, values[name])
    return changed


def save_ceiling(club: Club, by: User | None, ceiling: int | None) -> list[str]:
    """The club's money ceiling (None: the server's), checked again under the lock against the
    club's own amounts (another admin may have raised a fee meanwhile)."""
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if ceiling is not None:
            if ceiling > settings.MAX_AMOUNT_ORE:
                raise ValidationError(
                    _("The ceiling can be at most the server's, %(limit)s.")
                    % {"limit": format_ore(settings.MAX_AMOUNT_ORE)},
                    code="above_instance",
                )
            above = amounts_above(locked, ceiling)
            if above:
                raise ValidationError(
                    _("%(what)s is more than that; lower it first.") % {"what": above[0]},
                    code="below_club_amounts",
                )
        return save_club_fields(club, by, {"max_amount_ore": ceiling})


def save_evening_options(club: Club, by: User | None, values: dict) -> list[str]:
    """The club's evening options (``evenings.save_options``), each changed one
    recorded."""
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if values.get("fee_ore"):
            ledger.check_amount(values["fee_ore"], locked)
        existing = EveningOptions.objects.filter(club=locked).first()
        before = evenings.options_state(existing or EveningOptions(club=locked))
        changed = [name for name in EVENING_FIELDS if before[name] != values[name]]
        if not changed:
            return []
        now = timezone.now()
        evenings.save_options(locked, by, **{name: values[name] for name in changed})
        for name in changed:
            _record(locked, by, now, name, before[name], values[name])
    return changed


def save_game_defaults(club: Club, by: User | None, game_key: str, options: dict) -> list[str]:
    """One game's default options (already checked by ``GameDefaultsForm``), each changed one
    recorded: any option may change who pays what."""
    rules_class = registry.get(game_key).module.Rules
    options = chosen_options(rules_class, options)
    recording.rules_for(game_key, options)  # the engine's word, once more
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        for name, value in options.items():
            if name.endswith("_ore") and isinstance(value, int):
                ledger.check_amount(value, locked)
        stored = dict(locked.game_defaults) if isinstance(locked.game_defaults, dict) else {}
        before = game_defaults(locked, game_key)
        changed = sorted(
            name for name in set(before) | set(options) if before.get(name) != options.get(name)
        )
        if not changed:
            return []
        now = timezone.now()
        if options:
            stored[game_key] = options
        else:
            stored.pop(game_key, None)
        locked.game_defaults = stored
        locked.save(update_fields=["game_defaults"])
        for name in changed:
            _record(locked, by, now, f"{game_key}.{name}", before.get(name), options.get(name))
    club.game_defaults = stored
    return changed
