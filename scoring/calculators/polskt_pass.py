"""Polskt pass calculator, without a game and without logging in: what one deal is played for
and who pays what, given the pot, the outstanding betar, the club's options and the outcome.

The arithmetic is the engine's (``engine.polskt_pass.settle``); this page only names the
players by their part in the deal (the spelförare, the winner, the others).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_safe

from core.money import parse_kronor
from engine import polskt_pass as engine
from engine.errors import EngineError
from scoring.messages import engine_message

SP, SP2, WINNER = "sp", "sp2", "winner"
BET_FIELDS = 3


def _outcomes() -> list[tuple[str, str]]:
    return [
        ("spelforare", _("The declarer (spelförare) wins")),
        ("other", _("Another player wins")),
        ("two_one", _("Two declarers, one of them wins")),
        ("two_none", _("Two declarers, a third wins")),
        ("la_vola_won", _("La vola won")),
        ("la_vola_lost", _("La vola lost")),
        ("no_winner", _("Five players, one trick each")),
    ]


def _deal(outcome: str, players: int) -> tuple[list[str], tuple[str, ...], str | None, str | None]:
    """Players (by part), spelförare, winner and la vola result for an outcome."""
    named = {
        "spelforare": ([SP], (SP,), SP, None),
        "other": ([SP, WINNER], (SP,), WINNER, None),
        "two_one": ([SP, SP2], (SP, SP2), SP, None),
        "two_none": ([SP, SP2, WINNER], (SP, SP2), WINNER, None),
        "la_vola_won": ([WINNER], (SP,), WINNER, "won"),
        "la_vola_lost": ([SP], (SP,), None, "lost"),
        "no_winner": ([SP], (SP,), None, None),
    }
    if outcome not in named:
        raise EngineError(_("Choose what happened in the deal."))
    if outcome == "no_winner" and players != 5:
        raise EngineError(_("Only five players can take one trick each."))
    seated, spelforare, winner, la_vola = named[outcome]
    if outcome == "la_vola_won":
        spelforare = ()  # P7: the spelförare's commitment lapses; the others all pay
    others = [f"other{i}" for i in range(1, players - len(seated) + 1)]
    return [*seated, *others], spelforare, winner, la_vola


def _amount(text: str, *, label: str, required: bool) -> int | None:
    if not text.strip():
        if required:
            raise EngineError(_("Enter the pot."))
        return None
    try:
        return parse_kronor(text, allow_zero=True)
    except ValidationError as error:
        raise EngineError(f"{label}: {' '.join(error.messages)}") from None


def _label(account: str) -> str:
    if account == engine.POT:
        return _("the pot")
    if account.startswith("bet:"):
        return _("bet %(n)s") % {"n": account[4:]}
    return {
        SP: _("the declarer"),
        SP2: _("the other declarer"),
        WINNER: _("the winner"),
    }.get(account, _("each of the others"))


def _payments(transfers) -> list[dict]:
    """Transfers grouped by who pays whom how much: the others paying a la vola are one row."""
    rows: list[dict] = []
    for t in transfers:
        payer = "others" if t.payer.startswith("other") else t.payer
        for row in rows:
            if (row["payer"], row["payee"], row["amount_ore"]) == (payer, t.payee, t.amount_ore):
                row["count"] += 1
                break
        else:
            rows.append({"payer": payer, "payee": t.payee, "amount_ore": t.amount_ore, "count": 1})
    for row in rows:
        row["payer_label"] = _label(row["payer"] if row["payer"] != "others" else "other")
        row["payee_label"] = _label(row["payee"])
        if row["count"] > 1:
            row["times"] = ngettext("%(n)s player", "%(n)s players", row["count"]) % {
                "n": row["count"]
            }
    return rows


@require_safe
def polskt_pass_deal(request: HttpRequest) -> HttpResponse:
    asked = "outcome" in request.GET
    values = {
        "pot": request.GET.get("pot", ""),
        "bets": (request.GET.getlist("bet") + [""] * BET_FIELDS)[:BET_FIELDS],
        "players": request.GET.get("players", "4"),
        "bet_size": request.GET.get("bet_size", "single"),
        "merge": bool(request.GET.get("merge")),
        "outcome": request.GET.get("outcome", ""),
    }
    context: dict = {"values": values, "outcomes": _outcomes(), "bet_sizes": engine.BET_SIZES}
    if asked:
        try:
            context["result"] = _calculate(values)
        except EngineError as error:
            context["error"] = engine_message(error)
    template = "scoring/calc_polskt_pass_deal.html"
    if request.htmx and asked:
        template += "#result"
    return render(request, template, context)


def _calculate(values: dict) -> dict:
    pot = _amount(values["pot"], label=_("Pot"), required=True)
    amounts = [
        _amount(text, label=_("Bet no. %(n)s") % {"n": i}, required=False)
        for i, text in enumerate(values["bets"], start=1)
    ]
    betar = tuple(engine.Bet(i, a, ()) for i, a in enumerate(amounts, start=1) if a)
    if values["players"] not in ("3", "4", "5"):
        raise EngineError(_("Polskt pass is for 3, 4 or 5 players."))
    if values["bet_size"] not in engine.BET_SIZES:
        raise EngineError(_("Choose single or double bets."))
    players, spelforare, winner, la_vola = _deal(values["outcome"], int(values["players"]))
    rules = engine.Rules(bet_size=values["bet_size"], merge_betar=values["merge"])
    result = engine.settle(
        pot_ore=pot,
        betar=betar,
        next_bet_id=max((bet.id for bet in betar), default=0) + 1,
        players=players,
        spelforare=spelforare,
        winner=winner,
        rules=rules,
        la_vola=la_vola,
    )
    return {
        "amount_ore": result.amount_ore,
        "bet_in_play": engine.bet_in_play(betar),
        "payments": _payments(result.transfers),
        "nothing": not result.transfers,
        "pot_after_ore": result.pot_ore,
        "betar_after": [
            {
                "id": bet.id,
                "amount_ore": bet.amount_ore,
                "owners": " & ".join(_label(o) for o in bet.owners),
            }
            for bet in result.betar
        ],
    }


urlpatterns = [
    path("calc/polskt_pass/deal/", polskt_pass_deal, name="calc-polskt_pass-deal"),
]
LINKS = [
    ("scoring:calc-polskt_pass-deal", gettext_lazy("Polskt pass: who pays what")),
]
