"""The Fyrtioett pad: the players in bidding order, the bid and trick choices, the two sides'
scores and the score sheet with the partners' columns side by side.

The engine's State keeps per-seat tuples (scores, bids, tricks); templates cannot index them by
seat, so this hook turns them into one small dict per player and per sheet cell. The bidding
order is the engine's (``State.bidding_order``).
"""

from __future__ import annotations

import random

from engine import fyrtioett
from scoring.demo import Demo, Table, each, split
from scoring.evening_status import by_field
from scoring.games import Pad, names_of, register


def pad_context(game, state: fyrtioett.State, seats: list) -> dict:
    names = names_of(seats)
    players = state.players
    seat_of = {player: seat for seat, player in enumerate(players)}
    teams = state.teams

    def person(player: str) -> dict:
        return {
            "key": player,
            "name": names.get(player, player),
            "score": state.scores[seat_of[player]],
            "side": teams[player],
            "dealer": player == state.dealer,
            "forhand": player == state.forhand,
        }

    columns = [seat for side in fyrtioett.SIDES for seat in side]  # partners next to each other
    sides = [
        {
            "players": [person(players[seat]) for seat in side],
            "won": players[side[0]] in state.winners,
        }
        for side in fyrtioett.SIDES
    ]
    sheet = [
        {
            "number": row.number,
            "dealer": names.get(row.dealer, row.dealer),
            "thrown_in": row.thrown_in,
            "cells": [
                {
                    "bid": row.bids[seat],
                    "tricks": row.tricks[seat] if row.tricks else None,
                    "points": row.points[seat],
                    "score": row.scores[seat],
                    "made": row.points[seat] > 0,
                }
                for seat in columns
            ],
        }
        for row in reversed(state.sheet)
    ]
    low = state.rules.min_bid
    return {
        "f41": {
            "order": [person(p) for p in state.bidding_order],
            "sides": sides,
            "columns": [person(players[seat]) for seat in columns],
            "sheet": sheet,
            "deal_number": len(state.sheet) + 1,
            "dealer": names.get(state.dealer, state.dealer),
            "bids": list(range(low, fyrtioett.TRICKS + 1)),
            "tricks": list(range(fyrtioett.TRICKS + 1)),
            "target": fyrtioett.TARGET,
            "min_worth": fyrtioett.MIN_WORTH,
            "double_from": fyrtioett.DOUBLE_FROM,
            "winners": [names.get(p, p) for p in state.winners],
        }
    }


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_fyrtioett(state, rng: random.Random, table: Table) -> dict:
    seats = list(state.players)
    tricks = split(13, 4, rng)
    bids = [max(1, min(13, t + rng.choice((-1, 0, 0, 1)))) for t in tricks]
    return {
        "type": "deal",
        "bids": dict(zip(seats, bids, strict=True)),
        "tricks": dict(zip(seats, tricks, strict=True)),
    }


DEMO = Demo(
    each(_demo_fyrtioett),
    (Table(evening=0, number=5, players=4, start=2.5, hours=1),),
)


PAD = Pad(
    "fyrtioett",
    template="scoring/pads/fyrtioett.html",
    css="css/pads/fyrtioett.css",
    context=pad_context,
    demo=DEMO,
    evening_status=by_field("scores"),
)
register(PAD)
