"""The Kille (elimination) pad: scores against the limit, who is out, and the step's buttons."""

from __future__ import annotations

from scoring.games import names_of
from scoring.games.kille import KILLE_CARDS
from scoring.recording import with_names


def _actions(state: dict, key: str, still_in: bool) -> list[str]:
    if state.get("finished") or not still_in:
        return []
    if state["phase"] == "fourth_trick":
        return ["fourth_trick"]
    if state["phase"] == "calls" and key == state.get("to_act"):
        return ["pass", "declare"]
    return []


def pad_context(game, state: dict, seats: list) -> dict:
    names = names_of(seats)
    limit = state["rules"]["limit"]
    out = state.get("out", [])
    calls = dict(state.get("calls", []))
    rows = []
    for seat in seats:
        score = state["scores"][seat.key]
        still_in = seat.key not in out
        rows.append(
            {
                "key": seat.key,
                "name": seat.name,
                "score": score,
                "out": not still_in,
                "dealer": seat.key == state["dealer"] and not state.get("finished"),
                "to_act": seat.key == state.get("to_act"),
                "fourth_trick": seat.key == state.get("fourth_trick"),
                "call": calls.get(seat.key, ""),
                "percent": min(100, 100 * score // limit),
                "actions": _actions(state, seat.key, still_in),
            }
        )
    players_in = [{"key": s.key, "name": s.name} for s in seats if s.key not in out]
    deals = [
        {
            "number": row["number"],
            "points": [row["points"].get(seat.key) for seat in seats],
            "declarer": names.get(row["declarer"] or "", ""),
        }
        for row in reversed(state.get("deals", [])[-10:])
    ]
    return {
        "ke": {
            "rows": rows,
            "players_in": players_in,
            "limit": limit,
            "to_act_name": names.get(state.get("to_act") or "", ""),
            "declarer_name": names.get(state.get("declarer") or "", ""),
            "winner_name": names.get(state.get("winner") or "", ""),
            "last": [with_names(line, seats) for line in state.get("log", [])],
            "deals": deals,
            "standings": [
                {"name": names[s["player"]], "placement": s["placement"], "score": s["score"]}
                for s in state.get("standings", [])
            ],
            "cards": KILLE_CARDS,
        }
    }
