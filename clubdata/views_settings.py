"""The admins' settings page and a game's default options (``clubdata.settings``).

One page, one form per section; a post names its section (``section``), is read by that
section's form and saved by its service; the page comes back with the other sections as they
are. A refused post answers 422 with the section's errors and nothing saved.
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import ledger
from club.access import club_view
from club.models import Club, Role
from clubdata import settings as club_settings
from core.money import format_ore
from engine import registry
from evenings.models import EveningOptions

SECTIONS = ("club", "games", "league", "evenings", "confirming", "ceiling")


def _forms(club: Club, section: str, data) -> dict:
    """Every section's form; the posted section's bound to ``data``."""
    # Read, not made: a look at the page writes nothing (the row is made on the first save).
    options = EveningOptions.objects.filter(club=club).first() or EveningOptions(club=club)

    def bound(name: str):
        return data if section == name else None

    return {
        "club": club_settings.ClubForm(
            bound("club"),
            initial={"name": club.name, "swish_number": club.swish_number},
            prefix="club",
        ),
        "games": club_settings.GamesForm(
            bound("games"), initial={"games_played": club.games_played}, prefix="games"
        ),
        "league": club_settings.league_form(club, bound("league")),
        "evenings": club_settings.EveningForm(
            bound("evenings"),
            club=club,
            initial={
                "fee": options.fee_ore,
                "fee_kind": options.fee_kind,
                "pot_policy": options.pot_policy,
                "prize_percents": "/".join(str(s) for s in options.prize_percent_list()),
            },
            prefix="evenings",
        ),
        "confirming": club_settings.ConfirmingForm(
            bound("confirming"),
            initial={
                "confirm_when": club.confirm_when,
                "confirm_to_settle": club.confirm_to_settle,
            },
            prefix="confirming",
        ),
        "ceiling": club_settings.CeilingForm(
            bound("ceiling"),
            club=club,
            initial={
                "ceiling": format_ore(club.max_amount_ore).replace("\u00a0kr", "")
                if club.max_amount_ore is not None
                else ""
            },
            prefix="ceiling",
        ),
    }


def _save(request: HttpRequest, section: str, form) -> list[str]:
    club, by, data = request.club, request.user, form.cleaned_data
    if section == "club":
        return club_settings.save_club_fields(
            club, by, {"name": data["name"], "swish_number": data["swish_number"]}
        )
    if section == "games":
        keys = [key for key in registry.game_keys() if key in set(data["games_played"])]
        return club_settings.save_club_fields(club, by, {"games_played": keys})
    if section == "league":
        fields = ("placement_scheme", "provisional_games", "skunks_in_league")
        values = {name: data[name] for name in (*fields, "public_league_money")}
        return club_settings.save_club_fields(club, by, values)
    if section == "evenings":
        values = {
            "fee_ore": data["fee"] or 0,
            "fee_kind": data["fee_kind"],
            "pot_policy": data["pot_policy"],
            "prize_percents": data["prize_percents"],
        }
        return club_settings.save_evening_options(club, by, values)
    if section == "confirming":
        values = {name: data[name] for name in ("confirm_when", "confirm_to_settle")}
        return club_settings.save_club_fields(club, by, values)
    return club_settings.save_ceiling(club, by, data["ceiling"])


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def settings_page(request: HttpRequest) -> HttpResponse:
    club = request.club
    section = request.POST.get("section", "") if request.method == "POST" else ""
    if request.method == "POST" and section not in SECTIONS:
        section = ""
    forms = _forms(club, section, request.POST)
    status = 200
    if request.method == "POST":
        status = 422
        form = forms.get(section)
        if form is not None and form.is_valid():
            try:
                changed = _save(request, section, form)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                if changed:
                    messages.success(request, _("Saved."))
                else:
                    messages.info(request, _("Nothing was changed."))
                return redirect(f"{reverse('clubdata:settings', args=[club.slug])}#{section}")
        elif form is None:
            messages.error(request, _("The page sent an unknown section; reload it."))
    share_url = (
        request.build_absolute_uri(reverse("league:shared", args=[club.league_share_token]))
        if club.league_share_token
        else ""
    )
    played = set(club.games_played or ())
    games = [
        {
            "info": info,
            "name": _(info.name),
            "played": not played or info.key in played,
            "defaults": bool(club_settings.game_defaults(club, info.key)),
        }
        for info in registry.all_games()
    ]
    return render(
        request,
        "clubdata/settings.html",
        {
            "forms": forms,
            "games": games,
            "share_url": share_url,
            "ceiling": format_ore(ledger.amount_ceiling(club)),
            "server_ceiling": format_ore(django_settings.MAX_AMOUNT_ORE),
            "changes": club_settings.recent_changes(club),
        },
        status=status,
    )


@require_http_methods(["GET", "HEAD", "POST"])
@club_view(role=Role.ADMIN)
def game_defaults_page(request: HttpRequest, game_key: str) -> HttpResponse:
    try:
        info = registry.get(game_key)
    except KeyError:
        raise Http404 from None
    club = request.club
    form = club_settings.GameDefaultsForm(
        request.POST if request.method == "POST" else None, club=club, game_key=info.key
    )
    if request.method == "POST" and form.is_valid():
        try:
            changed = club_settings.save_game_defaults(club, request.user, info.key, form.options())
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Saved.") if changed else _("Nothing was changed."))
            return redirect(f"{reverse('clubdata:settings', args=[club.slug])}#games")
    return render(
        request,
        "clubdata/settings_game.html",
        {"form": form, "info": info, "game_name": _(info.name)},
        status=422 if request.method == "POST" else 200,
    )
