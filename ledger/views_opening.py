"""The treasurer's "Opening balances" page: the paper books brought in (``ledger.opening``).

One page, three states: the form (pots, open betar, members, cash box, treasury, as of a date);
the confirmation, which shows the whole opening in kronor with the club's net worth and
carries the entered values on as hidden fields; and, once posted, the standing opening with a
link to its transaction page, where it is reversed. A second opening is refused while one
stands; after a reversal the form is offered again.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from club.access import club_view
from club.models import Member, Role
from core import inputs
from core.forms import IdempotentForm
from core.money import KronorField
from engine import registry
from ledger import opening as books

BET_ROWS = 6  # open betar a paper book carries: a handful at most


def _today():
    return timezone.localdate()


class OpeningForm(IdempotentForm):
    """The paper books as of a date. Fields are made per club: ``pot_<game>``, the rows
    ``bet<n>_game`` / ``bet<n>_amount`` / ``bet<n>_owner``, ``member_<id>``, ``cash`` and
    ``treasury``."""

    date = inputs.DateField(
        label=gettext_lazy("As of"),
        initial=_today,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.members = list(
            Member.objects.for_club(club).active().filter(erased_at__isnull=True).order_by("name")
        )
        self.pot_games = books.pot_games(club)
        self.bet_games = books.bet_games(club)
        for key in self.pot_games:
            self.fields[f"pot_{key}"] = KronorField(
                label=books.ledger_label("pot", f"pot:{key}"), required=False, allow_zero=True
            )
        people = Member.objects.filter(pk__in=[m.pk for m in self.members]).order_by("name")
        for n in range(1, BET_ROWS + 1) if self.bet_games else ():
            self.fields[f"bet{n}_game"] = forms.ChoiceField(
                label=_("Bet %(n)s: game") % {"n": n},
                choices=[(key, _(registry.display_name(key))) for key in self.bet_games],
                required=False,
            )
            self.fields[f"bet{n}_amount"] = KronorField(
                label=_("Bet %(n)s: amount") % {"n": n}, required=False
            )
            self.fields[f"bet{n}_owner"] = forms.ModelChoiceField(
                label=_("Bet %(n)s: put in by") % {"n": n}, queryset=people, required=False
            )
        for member in self.members:
            self.fields[f"member_{member.pk}"] = KronorField(
                label=member.name, required=False, allow_zero=True, allow_negative=True
            )
        self.fields["cash"] = KronorField(
            label=_("The cash box holds"),
            required=False,
            allow_zero=True,
            help_text=_("All the club's notes and coins, the pots' tins included."),
        )
        self.fields["treasury"] = KronorField(
            label=_("Club treasury (optional)"),
            required=False,
            allow_zero=True,
            help_text=_("Only if the club keeps its own funds apart from the net worth."),
        )

    # Groups for the template.
    def pot_fields(self):
        return [self[f"pot_{key}"] for key in self.pot_games]

    def bet_rows(self):
        if not self.bet_games:
            return []
        return [
            (n, self[f"bet{n}_game"], self[f"bet{n}_amount"], self[f"bet{n}_owner"])
            for n in range(1, BET_ROWS + 1)
        ]

    def member_fields(self):
        return [self[f"member_{m.pk}"] for m in self.members]

    def clean(self):
        data = super().clean()
        for n in range(1, BET_ROWS + 1) if self.bet_games else ():
            amount, owner = data.get(f"bet{n}_amount"), data.get(f"bet{n}_owner")
            if amount and not owner:
                self.add_error(
                    f"bet{n}_owner",
                    ValidationError(_("Say who put the bet in."), code="required"),
                )
            elif owner and not amount and f"bet{n}_amount" not in self.errors:
                self.add_error(
                    f"bet{n}_amount", ValidationError(_("Enter an amount."), code="required")
                )
        if self.errors:
            return data
        self.opening = self._opening(data)
        try:
            books.check_opening(self.club, self.opening)
        except ValidationError as error:
            self.add_error(None, error)
        return data

    def _opening(self, data) -> books.Opening:
        bets = [
            books.OpeningBet(
                data.get(f"bet{n}_game") or self.bet_games[0],
                data[f"bet{n}_amount"],
                data[f"bet{n}_owner"],
            )
            for n in range(1, BET_ROWS + 1)
            if self.bet_games and data.get(f"bet{n}_amount")
        ]
        return books.Opening(
            date=data["date"],
            pots={key: data.get(f"pot_{key}") or 0 for key in self.pot_games},
            bets=bets,
            members=[(m, data.get(f"member_{m.pk}") or 0) for m in self.members],
            cash_ore=data.get("cash") or 0,
            treasury_ore=data.get("treasury") or 0,
        )


def _standing_context(club) -> dict:
    standing = books.standing_opening(club)
    if standing is None:
        return {"standing": None}
    return {
        "standing": standing,
        "standing_memo": books.opening_memo(standing.date),
        "lines": books.posted_lines(standing),
        "refusal": books.reversal_refusal(standing),
    }


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.TREASURER)
def opening(request: HttpRequest) -> HttpResponse:
    club = request.club
    context = _standing_context(club)
    reversed_before = books.openings(club).exists()
    if context["standing"] is not None and request.method != "POST":
        return render(request, "ledger/opening.html", context)
    form = OpeningForm(request.POST if request.method == "POST" else None, club=club)
    context |= {"form": form, "reversed_before": reversed_before}
    if request.method != "POST":
        return render(request, "ledger/opening.html", context)
    if not form.is_valid():
        return render(request, "ledger/opening.html", context, status=422)
    if "edit" in request.POST:  # back from the confirmation, with what was entered
        return render(request, "ledger/opening.html", context)
    if "post" not in request.POST:
        context |= {"opening": form.opening, "lines": form.opening.lines()}
        return render(request, "ledger/opening_confirm.html", context)
    try:
        tx, posted = books.open_books(
            club, form.opening, request.user, submission=form.cleaned_data["submission"]
        )
    except ValidationError as error:
        form.add_error(None, error)
        context = _standing_context(club) | {"form": form, "refused": True}
        return render(request, "ledger/opening.html", context, status=409)
    if posted:
        messages.success(request, _("The books are opened: %(memo)s") % {"memo": tx.memo})
    return redirect("ledger:opening", club_slug=club.slug)
