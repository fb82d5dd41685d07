"""The Tvåmanswhist pad: the deal's result as one tap on a "split" button (Anna–Bo), the deals
won in large type, and the score sheet.

With the 13 or 26 count a split button sends the first player's counted tricks; at 13–13 in the
26 count there are two buttons, one per taker of the last trick (TW2). The weighted count (1
point per early trick, 2 per late) asks for the first player's early and late tricks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine import tvamanswhist
from scoring.demo import Demo, Table, each
from scoring.evening_status import Rival, per_player
from scoring.games import Pad, names_of, register, short_names


def pad_context(game, state: tvamanswhist.State, seats: list) -> dict:
    names = names_of(seats)
    short = short_names(names)
    first, second = state.players
    rules = state.rules
    total = tvamanswhist.COUNTED[rules.counting]
    splits = []
    if rules.counting != "points":
        for n in range(total, -1, -1):
            if 2 * n == total:
                splits += [(n, total - n, first), (n, total - n, second)]
            else:
                splits.append((n, total - n, None))
    players = [
        {
            "key": p,
            "name": names[p],
            "short": short[p],
            "deals_won": state.deals_won[p],
            "points": state.points[p],
            "won": state.winner == p,
            "dealer": state.dealer == p and not state.finished,
        }
        for p in state.players
    ]
    sheet = [
        {
            "number": row.number,
            "cells": [
                {"counted": row.counted[p], "won": row.winner == p, "last": row.last == p}
                for p in state.players
            ],
        }
        for row in reversed(state.sheet)
    ]
    return {
        "tw": {
            "first": {"key": first, "short": short[first]},
            "second": {"key": second, "short": short[second]},
            "players": players,
            "counting": rules.counting,
            "total": total,
            "splits": splits,
            "half": list(range(tvamanswhist.HALF + 1)),
            "deals_to_win": rules.deals_to_win,
            "points_to_win": rules.points_to_win,
            "deal_number": len(state.sheet) + 1,
            "dealer": names.get(state.dealer, state.dealer),
            "sheet": sheet,
            "winner": names.get(state.winner) if state.winner else None,
        }
    }


# --- the evening's board -------------------------------------------------------------------------


def evening_status(snapshot: dict, players: Sequence[str]) -> list[Rival]:
    # The match's measure first (engine.tvamanswhist._measures): points only in a points match.
    rules = snapshot.get("rules") or {}
    points = per_player(snapshot.get("points"), players)
    deals = per_player(snapshot.get("deals_won"), players)
    first, second = (
        (points, deals)
        if rules.get("points_to_win") and not rules.get("deals_to_win")
        else (deals, points)
    )
    return [Rival((p,), (first[p], second[p]), str(first[p])) for p in players]


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_tvamanswhist(state, rng: random.Random, table: Table) -> dict:
    return {"type": "deal", "tricks": {rng.choice(state.players): rng.randint(3, 10)}}


DEMO = Demo(
    each(_demo_tvamanswhist),
    (Table(evening=2, number=3, players=2, start=1, hours=0.75),),
)


PAD = Pad(
    "tvamanswhist",
    template="scoring/pads/tvamanswhist.html",
    css="css/pads/tvamanswhist.css",
    context=pad_context,
    demo=DEMO,
    evening_status=evening_status,
)
register(PAD)
