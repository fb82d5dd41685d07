"""Femhundra calculator: what a bid is worth and what a deal scores, without a game.

Pick a contract from the bid table (FH1), the number of players and the tricks the declaring
side took; the answer is the bid's value, the declarer's (and partner's) points and what the
opponents score, computed by ``engine.femhundra.score_deal``. Nothing is stored.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from core import inputs
from engine import femhundra
from engine.errors import EngineError
from scoring.games.femhundra import bid_rows, contract_name, misere_cells
from scoring.messages import engine_message


def _int(request: HttpRequest, name: str, default: int) -> int:
    value = request.GET.get(name, "")
    if not value:
        return default
    try:
        # The bounds only keep the number small; deal_outcome says what the game allows.
        return inputs.parse_int(value, lo=-1000, hi=1000)
    except ValidationError:
        raise EngineError(_("%(name)s must be a whole number.") % {"name": name}) from None


def deal_outcome(contract: str, players: int, taken: int, one_round: bool) -> dict:
    """The scores of one deal where the declaring side took ``taken`` tricks."""
    contract = femhundra.parse_contract(contract)
    if not femhundra.MIN_PLAYERS <= players <= femhundra.MAX_PLAYERS:
        raise EngineError(_("Femhundra is for 2–5 players."))
    if not 0 <= taken <= femhundra.TRICKS:
        raise EngineError(_("A deal has ten tricks: the declarer's side takes 0–10."))
    rules = femhundra.Rules(misere=True, bidding="one_round" if one_round else "multi_round")
    # Seat 0 declares (with his partner opposite when four play, who takes no trick here);
    # the other tricks go to seat 1, so seat 1's points show the opponents' rate.
    tricks = [0] * players
    tricks[0] = taken
    tricks[1] = femhundra.TRICKS - taken
    points = femhundra.score_deal(tricks, 0, contract, rules=rules)
    misere = contract in (femhundra.MISERE, femhundra.OPEN_MISERE)
    made = points[0] > 0
    return {
        "contract": contract_name(contract),
        "value": femhundra.bid_value(contract, players),
        "made": made,
        "declarer": points[0],
        "slam": made and points[0] != femhundra.bid_value(contract, players),
        "need": femhundra.contract_tricks(contract),
        "misere": misere,
        # A failed misère pays each opponent for the declarer's tricks; otherwise each opponent
        # scores 10 for each trick he took himself.
        "each_opponent": points[1] if misere and not made else None,
        "opponent_tricks": femhundra.TRICKS - taken,
        "opponents_total": femhundra.TRICK_POINTS * (femhundra.TRICKS - taken),
        "sides": players == 4,
    }


@require_safe
def femhundra_deal(request: HttpRequest) -> HttpResponse:
    context: dict = {
        "bid_rows": bid_rows(),
        "misere": misere_cells(),
        "trick_choices": list(range(femhundra.TRICKS + 1)),
        "player_choices": list(range(femhundra.MIN_PLAYERS, femhundra.MAX_PLAYERS + 1)),
        "chosen": request.GET.get("contract", ""),
        "players": request.GET.get("players", "3"),
        "taken": request.GET.get("taken", ""),
    }
    asked = bool(request.GET.get("contract"))
    if asked:
        try:
            context["outcome"] = deal_outcome(
                request.GET["contract"],
                _int(request, "players", 3),
                _int(request, "taken", 0),
                one_round=request.GET.get("rounds", "one") == "one",
            )
        except EngineError as error:
            context["error"] = engine_message(error)
    template = "scoring/calc_femhundra_deal.html"
    if request.htmx and asked:
        template += "#result"
    return render(request, template, context)


urlpatterns = [path("calc/femhundra/deal/", femhundra_deal, name="calc-femhundra-deal")]
LINKS = [("scoring:calc-femhundra-deal", gettext_lazy("Five Hundred: what a bid is worth"))]
