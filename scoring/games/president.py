"""The President pad: tap the players in the order they go out; the last one is implied."""

from __future__ import annotations

import random

from engine import president
from scoring.demo import Demo, Table, each
from scoring.evening_status import by_field
from scoring.games import Pad, names_of, register


def pad_context(game, state: president.State, seats: list) -> dict:
    names = names_of(seats)
    rules = state.rules
    players = state.players
    points = president.placement_points(len(players), trouduc=rules.trouduc)
    pending = state.pending
    board = sorted(
        (
            {
                "key": key,
                "name": names.get(key, key),
                "score": state.scores[key],
                "to_go": max(state.target - state.scores[key], 0),
                "president": key == state.president,
                "last": key == state.last,
            }
            for key in players
        ),
        key=lambda row: -row["score"],
    )
    sheet = [
        {
            "number": row.number,
            "cells": [{"points": row.points[key], "score": row.scores[key]} for key in players],
        }
        for row in reversed(state.sheet)
    ]
    return {
        "pr_variant": "Trouduc" if rules.trouduc else "President",
        "pr_board": board,
        "pr_gone_out": [
            {"key": key, "name": names.get(key, key), "place": i + 1, "points": points[i]}
            for i, key in enumerate(pending)
        ],
        "pr_to_go_out": [
            {"key": key, "name": names.get(key, key)} for key in players if key not in pending
        ],
        "pr_place": len(pending) + 1,
        "pr_last_tap": len(pending) == len(players) - 2,
        "pr_points_now": points[len(pending)],
        "pr_sheet": sheet,
    }


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_president(state, rng: random.Random, table: Table) -> dict:
    order = list(state.players)
    rng.shuffle(order)
    return {"type": "deal", "order": order}


DEMO = Demo(
    each(_demo_president),
    (Table(evening=1, number=3, players=3, start=1, hours=0.75),),
)


PAD = Pad(
    "president",
    template="scoring/pads/president.html",
    css="css/pads/president.css",
    context=pad_context,
    demo=DEMO,
    evening_status=by_field("scores"),
)
register(PAD)
