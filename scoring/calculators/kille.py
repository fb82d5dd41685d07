"""Kille calculator: settle one showing without a game and without logging in.

Up to six seats in clockwise order; each seat is empty, a player who folded, or a player at the
showing with his last card. With who laid up first, who took the fourth trick, the pot and the
club's stakes, ``engine.kille.settle_showing`` says who takes the pot and lists every payment,
next deal's stakes included. Input errors come back as a message next to the form.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from core.money import parse_kronor
from engine import kille
from engine.base import POT
from engine.errors import EngineError
from scoring.games.kille import KILLE_CARDS
from scoring.messages import engine_message, sentence

SEATS = 6
FOLDED = "fold"
_SEAT_KEY = re.compile(r"'?\b(p\d)\b'?")


def _seat_name(key: str) -> str:
    return _("Player %(n)s") % {"n": key[1:]}


def _amount(request: HttpRequest, name: str, default: str) -> int:
    return parse_kronor(request.GET.get(name) or default, allow_zero=True)


def _settle(request: HttpRequest) -> tuple[kille.Settlement, list[str]]:
    players, cards = [], {}
    for n in range(1, SEATS + 1):
        value = request.GET.get(f"seat{n}", "").strip()
        if not value:
            continue
        key = f"p{n}"
        players.append(key)
        if value != FOLDED:
            cards[key] = value
    if len(cards) < 2:
        raise EngineError(_("Give the last card of at least two players at the showing."))
    first, fourth = request.GET.get("first", ""), request.GET.get("fourth", "")
    if not first or not fourth:
        raise EngineError(_("Say who laid up first and who took the fourth trick."))
    rules = kille.Rules(
        base_stake_ore=_amount(request, "base", "2"),
        small_stake_ore=_amount(request, "small", "1"),
        two_player_rule=request.GET.get("two_player") == "1",
    )
    settlement = kille.settle_showing(
        cards,
        first=f"p{first}",
        fourth_trick=f"p{fourth}",
        pot_ore=parse_kronor(request.GET.get("pot", ""), allow_zero=True),
        players=players,
        rules=rules,
    )
    return settlement, players


def _payments(settlement: kille.Settlement) -> list[dict]:
    """Each transfer in words: who pays whom, how much, and why."""
    rows = []
    for transfer in settlement.transfers:
        if transfer.payer == POT:
            why = _("the pot goes out")
        elif settlement.penalty_ore and not rows:
            why = _("laid up first without the lowest card: as much as the pot held")
        else:
            why = _("stake for the next deal")
        rows.append(
            {
                "payer": _("The pot") if transfer.payer == POT else _seat_name(transfer.payer),
                "payee": _("the pot") if transfer.payee == POT else _seat_name(transfer.payee),
                "amount": transfer.amount_ore,
                "why": why,
            }
        )
    return rows


@require_safe
def kille_showing(request: HttpRequest) -> HttpResponse:
    submitted = "pot" in request.GET
    seats = [
        {
            "n": n,
            "value": request.GET.get(f"seat{n}", ""),
            "first": request.GET.get("first") == str(n),
            "fourth": request.GET.get("fourth") == str(n),
        }
        for n in range(1, SEATS + 1)
    ]
    context: dict = {
        "seats": seats,
        "cards": KILLE_CARDS,
        "folded": FOLDED,
        "pot": request.GET.get("pot", ""),
        "base": request.GET.get("base", "2"),
        "small": request.GET.get("small", "1"),
        "two_player": request.GET.get("two_player") == "1" or not submitted,
    }
    if submitted:
        try:
            settlement, players = _settle(request)
        except (EngineError, ValidationError) as error:
            messages = (
                error.messages
                if isinstance(error, ValidationError)
                else [engine_message(error, sentence=False)]
            )
            # The engine names seats by key ("'p3'"); people read "Player 3".
            context["error"] = sentence(
                _SEAT_KEY.sub(lambda m: _seat_name(m[1]), " ".join(messages))
            )
        else:
            context["settlement"] = settlement
            context["winner"] = _seat_name(settlement.winner)
            context["first_name"] = _seat_name(settlement.first)
            context["payments"] = _payments(settlement)
            context["nets"] = [(_seat_name(p), settlement.nets[p]) for p in players]
    template = "scoring/calc_kille_showing.html"
    if request.htmx and submitted:
        template += "#result"
    return render(request, template, context)


urlpatterns = [path("calc/kille/showing/", kille_showing, name="calc-kille-showing")]
LINKS = [("scoring:calc-kille-showing", gettext_lazy("Kille: settle a showing"))]
