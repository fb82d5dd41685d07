"""The Fan tan pad: one big button per player still in ("who went out?"), passes when playing
for chips, the cards left as tap choices, the game's placement points in large type."""

from __future__ import annotations

import random

from engine import fantan
from scoring.demo import Demo, Table, each
from scoring.evening_status import by_field
from scoring.games import Pad, names_of, register, short_names


def pot_on_table(state: fantan.State) -> int:
    """Chips in the pot as the table sees it: everyone's ante and the passes until the pot is
    won. The engine books the antes only when the pot is settled (``state.pot_chips`` holds the
    passes alone), but they lie in the pot from the start of the deal."""
    if state.out and state.phase != "count":
        return 0  # settled when the cards left were counted
    return len(state.players) + state.pot_chips


def pad_context(game, state: fantan.State, seats: list) -> dict:
    names = names_of(seats)
    short = short_names(names)
    out = state.out
    sizes = fantan.hand_sizes(state)
    top = max(state.points.values())
    players = [
        {
            "key": p,
            "name": names[p],
            "short": short[p],
            "points": state.points[p],
            "out": out.index(p) + 1 if p in out else None,
            "dealer": p == state.dealer and not state.finished,
            "leading": state.finished and state.points[p] == top,
            "cards": list(range(1, sizes[p] + 1)),
            "chips": state.chips[p],
            "passes": -state.chips[p] if not out else 0,
        }
        for p in state.players
    ]
    sheet = [
        {
            "number": row.number,
            "order": [
                {"short": short[p], "points": row.points[p], "chips": row.chips.get(p)}
                for p in row.order
            ],
        }
        for row in reversed(state.sheet)
    ]
    rules = state.rules
    return {
        "ft": {
            "players": players,
            "still_in": [p for p in players if p["out"] is None],
            "out": [{"short": short[p], "place": i + 1} for i, p in enumerate(out)],
            "winner": short[out[0]] if out else None,
            "phase": state.phase,
            "can_pass": "pass" in state.expected,
            "deal_number": len(state.sheet) + (0 if state.finished else 1),
            "deals": rules.deals,
            "dealer": names.get(state.dealer, state.dealer),
            "free": rules.variant == "free",
            "chip_ore": rules.chip_ore,
            "pot_chips": pot_on_table(state),
            "pot_ore": pot_on_table(state) * rules.chip_ore,
            "sheet": sheet,
        }
    }


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_fantan(state, rng: random.Random, table: Table) -> dict:
    if state.phase == "count":
        sizes = fantan.hand_sizes(state)
        still_in = [p for p in state.players if p not in state.out]
        return {"type": "cards_left", "cards": {p: rng.randint(1, sizes[p]) for p in still_in}}
    still_in = [p for p in state.players if p not in state.out]
    return {"type": "out", "player": rng.choice(still_in)}


DEMO = Demo(
    each(_demo_fantan),
    (Table(evening=2, number=6, players=4, start=2.5, hours=0.5, rules={"deals": 3}),),
)


PAD = Pad(
    "fantan",
    template="scoring/pads/fantan.html",
    css="css/pads/fantan.css",
    context=pad_context,
    demo=DEMO,
    evening_status=by_field("points"),
)
register(PAD)
