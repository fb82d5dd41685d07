"""The competition pages' forms: announcing a competition (the admin), and entering someone
(a member of the club or a guest by name).

The form checks what a person typed (numbers within bounds, the fee in kronor, the prize
percentages written "50/30/20", a game that suits the format); ``competitions.running.announce``
checks the rest and its refusals are shown on the form in place (``add_refusal``).
"""

from __future__ import annotations

import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from club.models import Member
from competitions import prizes
from competitions.base import CompetitionError
from competitions.models import Competition, Entrant, Kind
from core import inputs
from core.forms import submission_field
from core.money import KronorField
from engine import registry

MAX_ROUNDS = 30
MAX_TABLE = 12
MAX_DEALS = 200
MAX_PLACES = 20  # prize places: more than any club pays
NAME_LENGTH = Competition._meta.get_field("name").max_length
GUEST_LENGTH = Entrant._meta.get_field("guest_name").max_length


def two_player_keys() -> list[str]:
    """The games two people can play, by their declarations (a Swiss or round robin needs
    one): cribbage, Kasino, Tvåmanswhist and any game registered that seats two; not a game
    played from a pot (a two-player tournament's tables play at once, each its own match)."""
    return [
        g.key
        for g in registry.all_games()
        if g.min_players <= 2 <= g.max_players and not g.declaration.plays_from_pot
    ]


def engine_refusal(error: CompetitionError) -> str:
    """A refusal of the competitions' pure core in the reader's language, as a sentence."""
    template = getattr(error, "template", "") or str(error)
    try:
        text = gettext(template).format(**(getattr(error, "params", {}) or {}))
    except (KeyError, IndexError, ValueError):
        text = str(error)
    return text[:1].upper() + text[1:]


def parse_percents(text: str) -> list[int]:
    """ "50/30/20" (or "50, 30, 20", "50 % / 50 %") as whole percentages adding up to 100;
    empty: no prizes."""
    text = (text or "").replace(",", "/").replace(";", "/")
    parts = [part.strip().rstrip("%").strip() for part in text.split("/") if part.strip()]
    if not parts:
        return []
    if len(parts) > MAX_PLACES or not all(
        inputs.is_int_text(part) and len(part) <= 3 for part in parts
    ):
        raise ValidationError(_("Write whole percentages, e.g. 50/30/20."), code="percents")
    shares = [int(part) for part in parts]
    if any(share == 0 for share in shares):
        raise ValidationError(_("Write whole percentages, e.g. 50/30/20."), code="percents")
    if sum(shares) != 100:
        raise ValidationError(
            _("The prizes must add up to 100 %%, not %(total)s %%."),
            code="percents",
            params={"total": sum(shares)},
        )
    try:
        prizes.check_percents(shares)
    except CompetitionError as error:
        raise ValidationError(engine_refusal(error), code="percents") from None
    return shares


class StartsAtField(forms.DateTimeField):
    """A date and time from the phone's picker (``2026-12-05T18:30``), within the app's range
    of dates."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"]

    def to_python(self, value):
        value = super().to_python(value)
        if value is not None:
            inputs.bounded_date(timezone.localtime(value).date())
        return value


# The codes of ``running.announce``'s refusals, and the field each is shown beside.
REFUSAL_FIELDS = {
    "name": "name",
    "kind": "kind",
    "game": "game_key",
    "pot_game": "game_key",
    "players": "game_key",
    "table_size": "table_size",
    "final_table_size": "final_table_size",
    "rounds": "rounds",
    "fee": "entry_fee",
    "entry_fee_ore": "entry_fee",
    "prizes": "prize_percents",
    "starts_at": "starts_at",
}


class AnnounceForm(forms.Form):
    name = inputs.TextField(label=_("Name"), max_length=NAME_LENGTH)
    kind = forms.ChoiceField(label=_("Format"), choices=Kind.choices, initial=Kind.SWISS)
    game_key = forms.ChoiceField(label=_("Game"))
    rounds = inputs.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
        help_text=_("Round robin: empty, every entrant meets every other once."),
    )
    table_size = inputs.IntegerField(
        label=_("Most players per table (championship)"),
        min_value=2,
        max_value=MAX_TABLE,
        required=False,
    )
    final_table_size = inputs.IntegerField(
        label=_("Players at the final table (empty: no final table)"),
        min_value=2,
        max_value=MAX_TABLE,
        required=False,
    )
    deals_per_round = inputs.IntegerField(
        label=_("Deals per round (championship; empty: the host ends the round)"),
        min_value=1,
        max_value=MAX_DEALS,
        required=False,
    )
    skunks = forms.BooleanField(label=_("Skunk bonuses (cribbage)"), required=False, initial=True)
    entry_fee = KronorField(
        label=_("Entry fee (kr)"),
        allow_zero=True,
        required=False,
        help_text=_("Paid into the prize pool, e.g. 50 or 50,00."),
    )
    prize_percents = inputs.TextField(
        label=_("Prizes, % of the pool"),
        required=False,
        max_length=100,
        help_text=_("First, second, third … place, e.g. 50/30/20."),
    )
    starts_at = StartsAtField(label=_("Starts"), required=False)
    # The form's one-time key: a double tap on "Announce" announces once (views.announce).
    submission = submission_field()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game_key"].choices = [(g.key, gettext(g.name)) for g in registry.all_games()]
        if not self.is_bound:
            self.initial.setdefault("submission", uuid.uuid4().hex)
            self.initial.setdefault("game_key", "cribbage")

    COMMON = ("name", "kind", "game_key", "rounds", "starts_at")
    CHAMPIONSHIP = ("table_size", "final_table_size", "deals_per_round")
    MONEY = ("entry_fee", "prize_percents")

    def common_fields(self):
        return [self[name] for name in self.COMMON]

    def championship_fields(self):
        return [self[name] for name in self.CHAMPIONSHIP]

    def money_fields(self):
        return [self[name] for name in self.MONEY]

    def championship_errors(self) -> bool:
        return any(self.has_error(name) for name in self.CHAMPIONSHIP)

    def clean_prize_percents(self) -> list[int]:
        return parse_percents(self.cleaned_data.get("prize_percents") or "")

    def clean(self):
        data = super().clean()
        if (
            data.get("entry_fee")
            and not data.get("prize_percents")
            and not self.has_error("prize_percents")
        ):
            self.add_error(
                "prize_percents",
                ValidationError(
                    _("The entry fees go to the prize pool: say how it is shared, e.g. 50/30/20."),
                    code="percents",
                ),
            )
        kind, game_key = data.get("kind"), data.get("game_key")
        if kind and game_key:
            two_player = kind != Kind.CHAMPIONSHIP
            if two_player and game_key not in two_player_keys():
                self.add_error(
                    "game_key",
                    ValidationError(
                        _(
                            "%(game)s is not a game for two: a Swiss or round robin needs one "
                            "(%(games)s)."
                        ),
                        code="not_two_player",
                        params={
                            "game": gettext(registry.display_name(game_key)),
                            "games": ", ".join(
                                gettext(registry.display_name(k)) for k in two_player_keys()
                            ),
                        },
                    ),
                )
            if kind == Kind.SWISS and not data.get("rounds"):
                self.add_error(
                    "rounds",
                    ValidationError(_("How many rounds? A Swiss needs a number."), code="rounds"),
                )
            if kind == Kind.CHAMPIONSHIP and not data.get("rounds"):
                self.add_error(
                    "rounds",
                    ValidationError(
                        _("How many rounds? A championship needs a number."), code="rounds"
                    ),
                )
            if kind == Kind.CHAMPIONSHIP and game_key in registry.game_keys():
                info = registry.get(game_key)
                size = data.get("table_size") or info.max_players
                if not info.min_players <= size <= info.max_players:
                    self.add_error(
                        "table_size",
                        ValidationError(
                            _("%(game)s is played by %(lo)s to %(hi)s players at a table."),
                            code="table_size",
                            params={
                                "game": gettext(info.name),
                                "lo": info.min_players,
                                "hi": info.max_players,
                            },
                        ),
                    )
        return data

    def announce_kwargs(self) -> dict:
        """What ``running.announce`` takes, from the cleaned form."""
        data = self.cleaned_data
        kind = data["kind"]
        championship = kind == Kind.CHAMPIONSHIP
        info = registry.get(data["game_key"])
        return {
            "name": data["name"],
            "kind": kind,
            "game_key": data["game_key"],
            "rounds": 0 if kind == Kind.ROUND_ROBIN else data["rounds"],
            "table_size": (data.get("table_size") or info.max_players) if championship else 2,
            "final_table_size": (data.get("final_table_size") or 0) if championship else 0,
            "deals_per_round": (data.get("deals_per_round") or 0) if championship else 0,
            "skunks": bool(data.get("skunks")) and data["game_key"] == "cribbage",
            "entry_fee_ore": data.get("entry_fee") or 0,
            "prize_percents": data.get("prize_percents") or [],
            "starts_at": data.get("starts_at"),
        }

    def add_refusal(self, refusal: ValidationError) -> None:
        """The service's refusal on the form: beside its field when it names one of the
        form's fields, else above the form."""
        if hasattr(refusal, "error_dict"):
            for field, errors in refusal.error_dict.items():
                name = REFUSAL_FIELDS.get(field, field)
                self.add_error(name if name in self.fields else None, errors)
            return
        for error in refusal.error_list:
            self.add_error(REFUSAL_FIELDS.get(error.code or ""), error)


class EnterForm(forms.Form):
    """An admin or scorer enters someone: a member of the club, or a guest by name."""

    member = forms.ModelChoiceField(
        label=_("Member"),
        queryset=Member.objects.none(),
        required=False,
        error_messages={"invalid_choice": _("That is not a member of this club; reload the page.")},
    )
    guest_name = inputs.TextField(label=_("Or a guest"), required=False, max_length=GUEST_LENGTH)

    def __init__(self, *args, competition: Competition, **kwargs):
        super().__init__(*args, **kwargs)
        entered = competition.entrants.exclude(member=None).values("member_id")
        self.fields["member"].queryset = (
            Member.objects.for_club(competition.club)
            .active()
            .exclude(pk__in=entered)
            .order_by("name")
        )
        self.fields["member"].label_from_instance = lambda m: m.name

    def clean(self):
        data = super().clean()
        if not self.errors and not data.get("member") and not data.get("guest_name"):
            raise ValidationError(_("Choose a member or write a guest's name."), code="nobody")
        if data.get("member") and data.get("guest_name"):
            raise ValidationError(
                _("Choose a member or write a guest's name, not both."), code="both"
            )
        return data
