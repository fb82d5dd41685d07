"""The Kille (elimination) pad: scores against the limit, who is out, and the step's buttons."""

from __future__ import annotations

import random

from engine.base import next_in
from engine.cards import KILLE_DECK
from engine.kille_elimination import State
from scoring.demo import Demo, Table, each
from scoring.evening_status import still_in
from scoring.games import Pad, names_of, register
from scoring.games.kille import KILLE_CARDS
from scoring.messages import render_log


def _actions(state: State, key: str, still_in: bool) -> list[str]:
    if state.finished or not still_in:
        return []
    if state.phase == "fourth_trick":
        return ["fourth_trick"]
    if state.phase == "calls" and key == state.to_act:
        return ["pass", "declare"]
    return []


def pad_context(game, state: State, seats: list) -> dict:
    names = names_of(seats)
    limit = state.rules.limit
    out = state.out
    calls = dict(state.calls)
    rows = []
    still = [key for key in state.players if key not in out]
    # Förhand: the first player still in on the dealer's left (marked as on the Kille pad).
    forhand = next_in(state.players, state.dealer, still) if state.dealer and still else None
    for seat in seats:
        score = state.scores[seat.key]
        still_in = seat.key not in out
        rows.append(
            {
                "key": seat.key,
                "name": seat.name,
                "score": score,
                "out": not still_in,
                "dealer": seat.key == state.dealer and not state.finished,
                "forhand": seat.key == forhand and not state.finished,
                "to_act": seat.key == state.to_act,
                "fourth_trick": seat.key == state.fourth_trick,
                "call": calls.get(seat.key, ""),
                "percent": min(100, 100 * score // limit),
                "actions": _actions(state, seat.key, still_in),
            }
        )
    players_in = [{"key": s.key, "name": s.name} for s in seats if s.key not in out]
    deals = [
        {
            "number": row.number,
            "points": [row.points.get(seat.key) for seat in seats],
            "declarer": names.get(row.declarer or "", ""),
        }
        for row in reversed(state.deals[-10:])
    ]
    return {
        "ke": {
            "rows": rows,
            "players_in": players_in,
            "limit": limit,
            "to_act_name": names.get(state.to_act or "", ""),
            "declarer_name": names.get(state.declarer or "", ""),
            "winner_name": names.get(state.winner or "", ""),
            "last": render_log(state.log, names),
            "deals": deals,
            "standings": [
                {"name": names[s.player], "placement": s.placement, "score": s.score}
                for s in state.standings
            ],
            "cards": KILLE_CARDS,
        }
    }


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_kille_elimination(state, rng: random.Random, table: Table) -> dict:
    if state.phase == "calls":
        kind = "declare" if rng.random() < 0.3 else "pass"
        return {"type": kind, "player": state.to_act}
    if state.phase == "reveal":
        deck = list(KILLE_DECK)
        rng.shuffle(deck)
        return {"type": "reveal", "cards": {p: deck.pop().label for p in state.players_in}}
    return {"type": "fourth_trick", "player": rng.choice(state.players_in)}


DEMO = Demo(
    each(_demo_kille_elimination),
    (Table(evening=0, number=6, players=5, start=2.5, hours=0.75),),
)


PAD = Pad(
    "kille_elimination",
    template="scoring/pads/kille_elimination.html",
    css="css/pads/kille_elimination.css",
    context=pad_context,
    demo=DEMO,
    evening_status=still_in("scores", out="out", fewer_is_better=True),
)
register(PAD)
