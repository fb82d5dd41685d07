"""The Stopp pad: the cards each player still in held when the deal ended, one tap each."""

from __future__ import annotations

import random

from engine import stopp
from scoring.demo import Demo, Table, each
from scoring.evening_status import still_in
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


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_stopp(state, rng: random.Random, table: Table) -> dict:
    winner = rng.choice(state.active)
    cards = {p: 0 if p == winner else rng.choice((0, 1, 1, 2, 2, 3, 4)) for p in state.active}
    return {"type": "deal", "cards": cards}


DEMO = Demo(
    each(_demo_stopp),
    (Table(evening=1, number=5, players=4, start=2.5, hours=0.75),),
)


PAD = Pad(
    "stopp",
    template="scoring/pads/stopp.html",
    css="css/pads/stopp.css",
    context=pad_context,
    demo=DEMO,
    evening_status=still_in("capitals", out="out"),
)
register(PAD)
