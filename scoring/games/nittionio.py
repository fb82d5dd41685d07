"""The Nittionio pad: the players in calling order from förhand, the premium calls, the bid and
trick choices, and the score sheet with premiums and game bonuses.

The engine's State keeps per-seat tuples; templates cannot index them by seat, so this hook
turns them into one small dict per player and per sheet cell.
"""

from __future__ import annotations

from engine import nittionio
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


PAD = Pad(
    "nittionio",
    template="scoring/pads/nittionio.html",
    css="css/pads/nittionio.css",
    context=pad_context,
)
register(PAD)
