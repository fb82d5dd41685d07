"""The Kasino pad: who took what in a deal, as rows of tap choices, the sides' scores in large
type, and the score sheet.

In partnership play a side is chosen by tapping it once (its first player's key stands for the
side; the engine credits the side). Tabbar are per player either way, for the league column.
"""

from __future__ import annotations

from engine import kasino
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


PAD = Pad(
    "kasino",
    template="scoring/pads/kasino.html",
    css="css/pads/kasino.css",
    context=pad_context,
)
register(PAD)
