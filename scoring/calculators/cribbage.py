"""Cribbage calculators, without a game and without logging in.

The hand / crib calculator (tap four cards and the starter, or type ``5h 5s 5c jd
5d``) and the discard adviser (tap six cards). Input errors come back as a message next to the
form; nothing is stored.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from engine import cribbage
from engine.cards import FULL_DECK, Card, Suit, parse_card, parse_cards, require_distinct
from engine.errors import EngineError
from scoring.card_grid import card_grid
from scoring.messages import engine_message, render_line

# The starter list in the card grid's suit order (♠♥♦♣, ``card_grid``), ace to king in each.
STARTER_ORDER = tuple(
    card
    for suit in (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
    for card in FULL_DECK
    if card.suit == suit
)


def _cards(request: HttpRequest, field: str = "cards") -> list[Card]:
    """Cards from ticked boxes, or from the typed text when the text field is used."""
    text = request.GET.get("text", "").strip()
    if text:
        return parse_cards(text)
    return [parse_card(code) for code in request.GET.getlist(field)]


@require_safe
def cribbage_hand(request: HttpRequest) -> HttpResponse:
    context: dict = {"starter_choices": [(str(c), c.pretty) for c in STARTER_ORDER]}
    selected: set[str] = set(request.GET.getlist("cards"))
    if request.GET:
        try:
            hand, starter = _hand_and_starter(request)
            breakdown = cribbage.score_hand(hand, starter, crib=bool(request.GET.get("crib")))
        except EngineError as error:
            context["error"] = engine_message(error)
        else:
            context["breakdown"] = breakdown
            context["said"] = render_line(cribbage.say(breakdown).as_json(), {})
            context["items"] = _items(breakdown)
            context["shown"] = [c.pretty for c in hand] + [starter.pretty]
            selected = {str(c) for c in hand}
    context["grid"] = card_grid(selected)
    context["starter"] = request.GET.get("starter", "")
    template = "scoring/calc_cribbage_hand.html"
    if request.htmx and request.GET:
        template += "#result"
    return render(request, template, context)


def _items(breakdown: cribbage.Breakdown) -> list[dict]:
    """Each scoring combination: its kind in the reader's language, its cards as a pad shows
    them (5♥, not 5H), its points."""
    return [
        {
            "kind": _(cribbage.KIND_WORDS[item.kind]),
            "cards": [parse_card(code).pretty for code in item.cards],
            "points": item.points,
        }
        for item in breakdown.items
    ]


def _hand_and_starter(request: HttpRequest) -> tuple[list[Card], Card]:
    cards = _cards(request)
    if request.GET.get("text", "").strip():
        if len(cards) != 5:
            raise EngineError(_("Type five cards: the four of the hand or crib, then the starter."))
        hand, starter = cards[:4], cards[4]
    elif request.GET.get("starter"):
        hand, starter = cards, parse_card(request.GET["starter"])
    else:
        raise EngineError(_("Choose the starter."))
    require_distinct([*hand, starter])
    return hand, starter


@require_safe
def cribbage_discard(request: HttpRequest) -> HttpResponse:
    context: dict = {"dealer": request.GET.get("dealer", "1")}
    selected = set(request.GET.getlist("cards"))
    if request.GET.get("cards") or request.GET.get("text"):
        try:
            cards = _cards(request)
            require_distinct(cards)
            advice = cribbage.discard_advice(cards, is_dealer=request.GET.get("dealer") == "1")
        except EngineError as error:
            context["error"] = engine_message(error)
        else:
            context["advice"] = advice[:6]
            context["pretty"] = {str(c): c.pretty for c in FULL_DECK}
            selected = {str(c) for c in cards}
    context["grid"] = card_grid(selected)
    template = "scoring/calc_cribbage_discard.html"
    if request.htmx and (request.GET.get("cards") or request.GET.get("text")):
        template += "#result"
    return render(request, template, context)


urlpatterns = [
    path("calc/cribbage/hand/", cribbage_hand, name="calc-cribbage-hand"),
    path("calc/cribbage/discard/", cribbage_discard, name="calc-cribbage-discard"),
]
LINKS = [
    ("scoring:calc-cribbage-hand", gettext_lazy("Cribbage: count a hand")),
    ("scoring:calc-cribbage-discard", gettext_lazy("Cribbage: what to throw")),
]
