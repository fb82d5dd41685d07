"""The Stopp pad: the cards each player still in held when the deal ended, one tap each."""

from __future__ import annotations

from engine import stopp
from scoring.games import names_of


def pad_context(game, state: dict, seats: list) -> dict:
    names = names_of(seats)
    active = state.get("active", [])
    board = [
        {
            "key": key,
            "name": names.get(key, key),
            "capital": state["capitals"][key],
            "out": key not in active,
            "dealer": key == state.get("dealer") and not state.get("finished"),
        }
        for key in state["players"]
    ]
    sheet = [
        {
            "number": row["number"],
            "pot": row["pot"],
            "cells": [
                {"cards": row["cards"].get(key), "capital": row["capitals"].get(key)}
                for key in state["players"]
            ],
        }
        for row in reversed(state.get("sheet", []))
    ]
    return {
        "st_board": board,
        "st_active": [{"key": key, "name": names.get(key, key)} for key in active],
        "st_card_choices": list(range(stopp.HAND + 1)),
        "st_sheet": sheet,
        "st_pot_won_ore": state.get("pot_won", 0) * state["rules"]["unit_ore"],
    }
