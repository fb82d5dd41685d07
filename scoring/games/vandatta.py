"""The Vändåtta pad: who went out, then one hand at a time, counted by tapping per category;
each category and chip shows what its cards cost, from the engine's values."""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine import vandatta
from scoring.demo import Demo, Table, each
from scoring.evening_status import still_in
from scoring.games import Pad, names_of, register

# Chips per category: 0 up to this many cards (more than that: enter the minus points).
_CHIPS = {"eights": 5, "aces": 5, "courts": 11, "numbers": 11}
_LABELS = {
    "eights": _("Eights"),
    "aces": _("Aces"),
    "courts": _("Tens and court cards"),
    "numbers": _("Number cards 2–7, 9"),
}


def _rows(decks: int, face_value: bool) -> list[dict]:
    """One row of chips per category, each chip with what its cards cost (the engine's values)."""
    rows = []
    for category in vandatta.CATEGORIES:
        if face_value and category == "numbers":
            continue  # counted by their face value in a number field instead
        value = vandatta.VALUES[category]
        top = min(_CHIPS[category], vandatta.PER_DECK[category] * decks)
        rows.append(
            {
                "field": category,
                "label": _LABELS[category],
                "value": value,
                "choices": [{"count": n, "cost": value * n} for n in range(top + 1)],
            }
        )
    return rows


def pad_context(game, state: vandatta.State, seats: list) -> dict:
    names = names_of(seats)
    board = [
        {
            "key": key,
            "name": names.get(key, key),
            "total": state.totals[key],
            "this_deal": state.pending.get(key),
            "went_out": key == state.pending_winner,
            "dealer": key == state.dealer and not state.finished,
            "eliminated": key not in state.active,
        }
        for key in state.players
    ]
    sheet = [
        {
            "number": row.number,
            "winner": row.winner,
            "cells": [
                {"points": row.penalties.get(key), "total": row.totals.get(key)}
                for key in state.players
            ],
        }
        for row in reversed(state.sheet)
    ]
    return {
        "vd_rows": _rows(state.decks, state.rules.face_value),
        "vd_board": board,
        "vd_active": [{"key": key, "name": names.get(key, key)} for key in state.active],
        "vd_to_record": names.get(state.to_record or "", ""),
        "vd_sheet": sheet,
        "vd_limit": vandatta.LIMIT,
    }


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_vandatta(state, rng: random.Random, table: Table) -> dict:
    winner = rng.choice(state.active)
    event: dict[str, Any] = {"type": "deal", "winner": winner}
    for player in state.active:
        if player == winner:
            continue
        counts = {
            "eights": rng.choice((0, 0, 0, 1)),
            "aces": rng.choice((0, 0, 1)),
            "courts": rng.randint(0, 2),
            "numbers": rng.randint(1, 3),
        }
        for category, count in counts.items():
            event.setdefault(category, {})[player] = count
    return event


DEMO = Demo(
    each(_demo_vandatta),
    (Table(evening=1, number=6, players=3, start=2.5, hours=0.75),),
)


PAD = Pad(
    "vandatta",
    template="scoring/pads/vandatta.html",
    css="css/pads/vandatta.css",
    context=pad_context,
    demo=DEMO,
    evening_status=still_in("totals", out="eliminated"),
)
register(PAD)
