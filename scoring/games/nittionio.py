"""The Nittionio pad: the players in calling order from förhand, the premium calls, the bid and
trick choices, and the score sheet with premiums and game bonuses.

The engine's State keeps per-seat tuples; templates cannot index them by seat, so this hook
turns them into one small dict per player and per sheet cell.
"""

from __future__ import annotations

import random

from engine import nittionio
from scoring.demo import Demo, Table, each, split
from scoring.evening_status import by_field
from scoring.games import Pad, names_of, register

SUITS = (("♦", 0, False), ("♠", 1, False), ("♥", 2, True), ("♣", 3, False))
TRUMP_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}


def pad_context(game, state: nittionio.State, seats: list) -> dict:
    names = names_of(seats)
    players = state.players
    seat_of = {player: seat for seat, player in enumerate(players)}
    variant = state.rules.variant
    rubber = variant == "rubber"

    def person(player: str) -> dict:
        seat = seat_of[player]
        return {
            "key": player,
            "name": names.get(player, player),
            "total": state.totals[seat],
            "game_score": state.scores[seat],
            "games_won": state.games_won[seat],
            "dealer": player == state.dealer,
            "forhand": player == state.forhand,
            "winner": player in state.winners,
        }

    sheet = [
        {
            "number": row.number,
            "game": row.game,
            "trump": TRUMP_SYMBOLS.get(row.trump or "", ""),
            "cells": [
                {
                    "bid": row.bids[seat],
                    "tricks": row.tricks[seat],
                    "points": row.points[seat],
                    "bonus": row.bonus[seat],
                    "total": row.totals[seat],
                    "made": row.made[seat],
                    "premium": row.premium if row.premium_player == player else None,
                }
                for seat, player in enumerate(players)
            ],
        }
        for row in reversed(state.sheet)
    ]
    deals = state.rules.deals
    return {
        "n99": {
            "order": [person(p) for p in state.calling_order],
            "players": [person(p) for p in players],
            "sheet": sheet,
            "variant": variant,
            "rubber": rubber,
            "premiums": variant != "pennycook",
            "deal_number": len(state.sheet) + 1,
            "deals": deals if variant == "nine_deals" else None,
            "target": nittionio.TARGETS.get(variant),
            "game_number": state.game_number,
            "trump": TRUMP_SYMBOLS.get(state.trump or "", ""),
            "dealer": names.get(state.dealer, state.dealer),
            "bids": list(range(nittionio.MAX_BID + 1)),
            "tricks": list(range(nittionio.TRICKS + 1)),
            "suits": SUITS,
            "winners": [names.get(p, p) for p in state.winners],
        }
    }


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_nittionio(state, rng: random.Random, table: Table) -> dict:
    seats = list(state.players)
    tricks = split(9, 3, rng)
    bids = [max(0, min(9, t + rng.choice((-1, 0, 0, 1)))) for t in tricks]
    event = {
        "type": "deal",
        "bids": dict(zip(seats, bids, strict=True)),
        "tricks": dict(zip(seats, tricks, strict=True)),
    }
    if rng.random() < 0.15:
        event["calls"] = {rng.choice(seats): "declare"}
    return event


DEMO = Demo(
    each(_demo_nittionio),
    (Table(evening=0, number=3, players=3, start=1, hours=1),),
)


PAD = Pad(
    "nittionio",
    template="scoring/pads/nittionio.html",
    css="css/pads/nittionio.css",
    context=pad_context,
    demo=DEMO,
    evening_status=by_field("totals"),
)
register(PAD)
