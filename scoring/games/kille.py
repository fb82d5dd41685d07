"""The Kille pad: what the table looks like now, and which buttons each player has.

The pad asks one question at a time ("what just happened?"). Everything here is read from the
engine's State: the seats in order with dealer, förhand, knocker, stayers and folders marked, the
pot, each player's net tonight, and for the current step the actions each player may take (the
engine refuses anything else with a message, so these are a convenience, not the rules). In the
fold round only the player whose turn it is gets buttons, "stay" and "fold".
"""

from __future__ import annotations

from engine.base import clockwise
from engine.cards import KilleRank
from engine.kille import State
from scoring.games import Pad, names_of, register
from scoring.messages import render_log

# Short faces for the card grid (7 columns on a phone); the full name goes in the label.
_SHORT = {
    KilleRank.BLAREN: "Bla",
    KilleRank.BLOMPOTTAN: "Blom",
    KilleRank.KRANSEN: "Kr",
    KilleRank.VARDSHUS: "Vh",
    KilleRank.KAVALL: "Kav",
    KilleRank.SVIN: "Svin",
    KilleRank.HUSAR: "Hus",
    KilleRank.GOK: "Gök",
    KilleRank.KILLE: "Kille",
}

KILLE_CARDS = [(rank.label, _SHORT.get(rank, rank.label)) for rank in KilleRank]


def _actions(state: State, key: str) -> list[str]:
    """The buttons a player's row offers in the current step."""
    phase = state.phase
    if state.finished:
        return []
    if phase in ("declare", "declare2") and key == state.to_act:
        return ["bud", "knock"]
    if phase == "fold" and key == state.to_act:
        return ["stay", "fold"]
    if phase == "tricks" and key in state.active:
        return ["fourth_trick"]
    if phase == "showing" and key == state.to_act:
        return ["bud", "show"]
    return []


def pad_context(game, state: State, seats: list) -> dict:
    names = names_of(seats)
    calls = dict(state.calls)
    rows = [
        {
            "key": seat.key,
            "name": seat.name,
            "dealer": seat.key == state.dealer,
            "forhand": seat.key == state.forhand,
            "knocker": seat.key == state.knocker,
            "folded": seat.key in state.folded,
            "stayed": seat.key in state.stayed,
            "call": calls.get(seat.key, ""),
            "to_act": seat.key == state.to_act,
            "net": state.won_ore[seat.key],
            "pots_won": state.pots_won[seat.key],
            "actions": _actions(state, seat.key),
        }
        for seat in seats
    ]
    active = [{"key": key, "name": names[key]} for key in state.active]
    deals = [
        {
            "number": row.number,
            "outcome": row.outcome,
            "pot_after": row.pot_after,
            "pot_won": row.pot_before,  # the winner takes the whole pot (K6)
            "penalty_ore": row.penalty_ore,
            "dealer_name": names.get(row.dealer, row.dealer),
            "winner_name": names.get(row.winner or "", ""),
        }
        for row in reversed(state.deals[-8:])
    ]
    standings = [
        {
            "name": names[s.player],
            "placement": s.placement,
            "net": s.score,
            "pots_won": state.pots_won[s.player],
        }
        for s in state.standings
    ]
    leader = state.leader
    trick_order = clockwise(state.players, leader, state.active) if leader else []
    return {
        "kille": {
            "rows": rows,
            "active": active,
            "to_act_name": names.get(state.to_act or "", ""),
            "forhand_name": names[state.forhand],
            "knocker_name": names.get(state.knocker or "", ""),
            "first_shower_name": names.get(state.first_shower or "", ""),
            "fourth_trick_name": names.get(state.fourth_trick or "", ""),
            "leader_name": names.get(leader or "", ""),
            "trick_number": len(state.tricks) + 1,
            "trick_order": [{"key": key, "name": names[key]} for key in trick_order],
            "tricks": [
                ", ".join(f"{names[p]} {c}" for p, c in trick.plays) + f" → {names[trick.winner]}"
                for trick in state.tricks
            ],
            "last": render_log(state.log, names),
            "deals": deals,
            "standings": standings,
            "can_end": "end_evening" in state.expected,
            "can_exchange": "exchange" in state.expected,
            "cards": KILLE_CARDS,
        }
    }


PAD = Pad(
    "kille",
    template="scoring/pads/kille.html",
    css="css/pads/kille.css",
    context=pad_context,
    calculator="scoring.calculators.kille",
)
register(PAD)
