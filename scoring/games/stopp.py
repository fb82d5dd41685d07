"""The Stopp pad: the cards each player still in held when the deal ended, one tap each."""

from __future__ import annotations

from engine import stopp
from scoring.games import Pad, names_of, register


def pad_context(game, state: stopp.State, seats: list) -> dict:
    names = names_of(seats)
    active = state.active
    board = [
        {
            "key": key,
            "name": names.get(key, key),
            "capital": state.capitals[key],
            "out": key not in active,
            "dealer": key == state.dealer and not state.finished,
        }
        for key in state.players
    ]
    sheet = [
        {
            "number": row.number,
            "pot": row.pot,
            "cells": [
                {"cards": row.cards.get(key), "capital": row.capitals.get(key)}
                for key in state.players
            ],
        }
        for row in reversed(state.sheet)
    ]
    return {
        "st_board": board,
        "st_active": [{"key": key, "name": names.get(key, key)} for key in active],
        "st_card_choices": list(range(stopp.HAND + 1)),
        "st_sheet": sheet,
        "st_pot_won_ore": state.pot_won * state.rules.unit_ore,
    }


PAD = Pad(
    "stopp",
    template="scoring/pads/stopp.html",
    css="css/pads/stopp.css",
    context=pad_context,
)
register(PAD)
