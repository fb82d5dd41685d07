"""The Kasino pad: who took what in a deal, as rows of tap choices, the sides' scores in large
type, and the score sheet.

In partnership play a side is chosen by tapping it once (its first player's key stands for the
side; the engine credits the side). Tabbar are per player either way, for the league column.
"""

from __future__ import annotations

import random

from engine import kasino
from scoring.demo import Demo, Table, each
from scoring.evening_status import by_side_list
from scoring.games import Pad, names_of, register, short_names


def pad_context(game, state: kasino.State, seats: list) -> dict:
    names = names_of(seats)
    short = short_names(names)
    winners = set(state.winners)
    sides = [
        {
            "index": index,
            "key": side[0],
            "label": " & ".join(short[p] for p in side),
            "names": " & ".join(names[p] for p in side),
            "score": state.scores[index],
            "won": side[0] in winners,
        }
        for index, side in enumerate(state.sides)
    ]
    side_of = {p: index for index, side in enumerate(state.sides) for p in side}
    players = [
        {"key": p, "name": names[p], "short": short[p], "side": side_of[p]} for p in state.players
    ]

    sheet = [
        {
            "number": row.number,
            "dealer": short.get(row.dealer, row.dealer),
            "claim": row.claim,
            "cells": [
                {"points": points, "score": score}
                for points, score in zip(row.points, row.scores, strict=True)
            ],
        }
        for row in reversed(state.sheet)
    ]
    return {
        "kasino": {
            "sides": sides,
            "players": players,
            "partnership": state.rules.partnership,
            "target": state.rules.target,
            "deal_number": len(state.sheet) + 1,
            "dealer": names.get(state.dealer, state.dealer),
            "suits": [(s, kasino.SUIT_SYMBOLS[s], s in "HD") for s in kasino.ACE_SUITS],
            # 13 spades cannot be tied between two sides: no "tie" to tap then.
            "spades_tie": len(state.sides) > 2,
            "tabbar": list(range(7)),
            "aces": list(range(5)),
            "sheet": sheet,
            "winners": " & ".join(names[p] for p in state.winners),
        }
    }


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_kasino(state, rng: random.Random, table: Table) -> dict:
    players = list(state.players)
    return {
        "type": "deal",
        "most_cards": rng.choice([*players, "tie"]) if len(players) > 2 else rng.choice(players),
        "most_spades": rng.choice(players),
        "big_casino": rng.choice(players),
        "little_casino": rng.choice(players),
        "aces": [rng.choice(players) for _ in range(4)],
        "last": rng.choice(players),
        "tabbar": {p: rng.choice((0, 0, 1, 2)) for p in players},
    }


DEMO = Demo(
    each(_demo_kasino),
    (
        Table(evening=1, number=7, players=2, start=2.5, hours=0.5),
        Table(evening=2, number=7, players=2, start=2.5, hours=0.5),
    ),
)


PAD = Pad(
    "kasino",
    template="scoring/pads/kasino.html",
    css="css/pads/kasino.css",
    context=pad_context,
    demo=DEMO,
    evening_status=by_side_list,
)
register(PAD)
