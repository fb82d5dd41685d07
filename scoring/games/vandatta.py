"""The Vändåtta pad: who went out, then one hand at a time, counted by tapping per category."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from engine import vandatta
from scoring.games import names_of

# Chips per category: 0 up to this many cards (more than that: enter the minus points).
_CHIPS = {"eights": 5, "aces": 5, "courts": 11, "numbers": 11}
_LABELS = {
    "eights": _("Eights (−25)"),
    "aces": _("Aces (−15)"),
    "courts": _("Tens and court cards (−10)"),
    "numbers": _("Number cards 2–7, 9 (−5)"),
}


def _rows(decks: int, face_value: bool) -> list[dict]:
    rows = []
    for category in vandatta.CATEGORIES:
        if face_value and category == "numbers":
            continue  # counted by their face value in a number field instead
        top = min(_CHIPS[category], vandatta.PER_DECK[category] * decks)
        rows.append(
            {"field": category, "label": _LABELS[category], "choices": list(range(top + 1))}
        )
    return rows


def pad_context(game, state: dict, seats: list) -> dict:
    names = names_of(seats)
    active = state.get("active", [])
    pending = state.get("pending", {})
    board = [
        {
            "key": key,
            "name": names.get(key, key),
            "total": state["totals"][key],
            "this_deal": pending.get(key),
            "went_out": key == state.get("pending_winner"),
            "dealer": key == state.get("dealer") and not state.get("finished"),
            "eliminated": key not in active,
        }
        for key in state["players"]
    ]
    sheet = [
        {
            "number": row["number"],
            "winner": row["winner"],
            "cells": [
                {"points": row["penalties"].get(key), "total": row["totals"].get(key)}
                for key in state["players"]
            ],
        }
        for row in reversed(state.get("sheet", []))
    ]
    return {
        "vd_rows": _rows(state.get("decks", 1), state["rules"]["face_value"]),
        "vd_board": board,
        "vd_active": [{"key": key, "name": names.get(key, key)} for key in active],
        "vd_to_record": names.get(state.get("to_record") or "", ""),
        "vd_sheet": sheet,
        "vd_limit": vandatta.LIMIT,
    }
