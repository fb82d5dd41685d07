"""The whist rubber calculator, without a game and without logging in.

Tap the deals of one rubber (the side that took the tricks, how many, and any honours): the page
shows the game score, games and rubber points after each deal, and at the end the rubber's
value and the money at the chosen stake. The deals so far travel in the query string
(``d=<side>:<tricks>[:<honours side>:<count>]``, repeated), so the page is a plain GET that can
be bookmarked; ``t`` (a tapped button, ``side:tricks``) and ``h`` (the honours choice) add one
deal. The rules are ``engine.whist.score_rubber``'s; a deal it refuses comes back as a message
and is not added.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from core import inputs
from core.money import format_ore, parse_kronor
from engine import whist
from engine.errors import EngineError
from ledger.postings import check_amount
from scoring.messages import engine_message

VARIANTS = [
    ("short", gettext_lazy("Short whist, game at 5")),
    ("long", gettext_lazy("Long whist, game at 10")),
    ("american", gettext_lazy("American whist, game at 7, no honours")),
]
SETTLEMENTS = [
    ("each", gettext_lazy("Each loser pays the difference × stake")),
    ("pair", gettext_lazy("The losing pair pays it once, half each")),
]
GAME_VALUES = [
    ("half", gettext_lazy("Double below half the game, single from half")),
    ("literal", gettext_lazy("Double at 1–2, single from 3")),
]
MAX_DEALS = 60  # a rubber is long before this; keeps a pasted URL from costing much


def _choice(value: str | None, choices: list[tuple[str, object]]) -> str:
    allowed = [key for key, _label in choices]
    return value if value in allowed else allowed[0]


def _deal(code: str) -> dict:
    parts = code.split(":")
    if len(parts) not in (2, 4) or not all(_small_number(part) for part in parts):
        raise EngineError(_("“%(code)s” is not a deal.") % {"code": code[:40]})
    deal: dict = {"tricks": {parts[0]: int(parts[1])}}
    if len(parts) == 4:
        deal["honours"] = {parts[2]: int(parts[3])}
    return deal


def _small_number(text: str) -> bool:
    """A side, a number of tricks or of honours: a few ASCII digits (``core.inputs``)."""
    return inputs.is_int_text(text) and not text.startswith("-") and len(text) <= 3


def _score(codes: list[str], rules: whist.Rules) -> whist.State:
    return whist.score_rubber([_deal(code) for code in codes], rules)


def _valid_start(codes: list[str], rules: whist.Rules) -> tuple[list[str], whist.State]:
    """The longest run of deals from the first that the rules accept (the refused one and
    everything after it are dropped)."""
    for end in range(len(codes) - 1, -1, -1):
        try:
            return codes[:end], _score(codes[:end], rules)
        except EngineError:
            continue
    return [], _score([], rules)


def _sides(state: whist.State, amounts: dict[str, int]) -> list[dict]:
    """Per side: its name, rubber points, and what each of its players wins or pays."""
    rubber = state.rubbers[0] if state.rubbers else None
    points = rubber.points if rubber else state.rubber_points
    names = [_("We"), _("They")]
    return [
        {
            "name": names[index],
            "points": points[index],
            "games": (rubber.games if rubber else state.games)[index],
            "money": " / ".join(dict.fromkeys(format_ore(amounts.get(p, 0)) for p in players)),
            "net": amounts.get(players[0], 0),
        }
        for index, players in enumerate(state.sides)
    ]


@require_safe
def whist_rubber(request: HttpRequest) -> HttpResponse:
    get = request.GET
    options = {
        "variant": _choice(get.get("variant"), VARIANTS),
        "settlement": _choice(get.get("settlement"), SETTLEMENTS),
        "game_values": _choice(get.get("game_values"), GAME_VALUES),
        "honours": get.get("honours", "1") == "1",
        "stake": get.get("stake", "1").strip() or "0",
    }
    context: dict = {
        "options": options,
        "variants": VARIANTS,
        "settlements": SETTLEMENTS,
        "game_values": GAME_VALUES,
        "error": "",
    }
    try:
        stake = parse_kronor(options["stake"], allow_zero=True)
        check_amount(stake)  # the club's ceiling, which the engine's Rules also hold to
    except ValidationError as error:
        context["error"] = " ".join(error.messages)
        stake = 0
    rules = whist.Rules(
        variant=options["variant"],
        honours=options["honours"],
        stake_ore=stake,
        settlement=options["settlement"],
        game_values=options["game_values"],
    )
    codes = [code for code in get.getlist("d") if code][:MAX_DEALS]
    tapped = get.get("t", "")
    if tapped:
        honours = get.get("h", "none")
        codes.append(tapped if honours in ("", "none") else f"{tapped}:{honours}")
    try:
        state = _score(codes, rules)
    except EngineError as error:
        context["error"] = engine_message(error)
        codes, state = _valid_start(codes, rules)
    rubber = state.rubbers[0] if state.rubbers else None
    base = {k: v for k, v in options.items() if k != "honours"}
    base["honours"] = "1" if options["honours"] else "0"
    context.update(
        {
            "codes": codes,
            "state": state,
            "rows": rubber.deals if rubber else state.deals,
            "rubber": rubber,
            "sides": _sides(state, rubber.nets if rubber else {}),
            "target": rules.target,
            "trick_choices": range(7, 14),
            "honour_counts": sorted(whist.HONOURS[rules.variant]) if rules.with_honours else [],
            "undo_query": urlencode({**base, "d": codes[:-1]}, doseq=True),
            "new_query": urlencode(base),
        }
    )
    template = "scoring/calc_whist_rubber.html"
    if request.htmx and get:
        template += "#result"
    return render(request, template, context)


urlpatterns = [path("calc/whist/rubber/", whist_rubber, name="calc-whist-rubber")]
LINKS = [("scoring:calc-whist-rubber", gettext_lazy("Whist: what is the rubber worth?"))]
