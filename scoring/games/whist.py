"""The whist pad: the engine's State shaped for the template — sides with names, the running
rubber's score sheet, the last finished rubber, the evening so far, and the choices for one deal
(the tricks, and the honours as the split the table saw)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.utils.translation import gettext_lazy as _

from engine import whist
from scoring.demo import Demo, Table, each
from scoring.evening_status import Rival, per_player, whole
from scoring.forms import register_variant_fields
from scoring.games import Pad, names_of, register

VARIANT_NAMES = {
    "short": _("Short whist"),
    "long": _("Long whist"),
    "american": _("American whist"),
    "guerre": _("Whist à la guerre"),
}

# Which options belong to which variant (engine/whist.py): honours never count in American whist
# (HONOURS["american"] is empty); the rubber's money (W3: stake per rubber point, settlement,
# the Victorian extras) and W2's rubber points per game belong to the partnership variants, whose
# games make rubbers; the tie at 9 and the partie's stake (W7) only to à la guerre. The start
# form shows the chosen variant's options only and ignores the others'.
_RUBBER = ("stake_ore", "settlement", "game_values", "game_stake_ore", "rubber_stake_ore")
VARIANT_FIELDS = {
    "short": ("honours", *_RUBBER),
    "long": ("honours", *_RUBBER),
    "american": _RUBBER,
    "guerre": ("honours", "guerre_tie", "guerre_stake_ore"),
}
register_variant_fields(whist.Rules, "variant", VARIANT_FIELDS)


def pad_context(game, state: whist.State, seats: list) -> dict:
    names = names_of(seats)
    short = _first_names(names)
    variant = state.rules.variant
    partnership = state.rules.partnership
    sides = [
        {
            "index": index,
            "label": " & ".join(names.get(p, p) for p in players),
            "short": " & ".join(short.get(p, p) for p in players),
            "players": players,
            "score": state.scores[index],
            "games": state.games[index],
            "rubber_points": state.rubber_points[index],
        }
        for index, players in enumerate(state.sides)
    ]
    labels = [side["label"] for side in sides]
    money = state.money
    return {
        "whist": {
            "partnership": partnership,
            "variant_name": str(VARIANT_NAMES.get(variant, variant)),
            "target": state.rules.target,
            "sides": sides,
            "dealer": names.get(state.dealer, state.dealer),
            "deal_number": len(state.deals) + 1,
            "rows": [_row(row, labels) for row in state.deals],
            "last_rubber": _rubber(state.rubbers[-1], labels, names) if state.rubbers else None,
            "rubbers_played": len(state.rubbers),
            "evening": [
                {
                    "name": names.get(player, player),
                    "side": labels[state.teams[player]],
                    "rubbers_won": state.rubbers_won[player],
                    "points": _signed(state.points[player]),
                    "money": money[player],
                }
                for player in state.players
            ],
            "trick_choices": list(range(7, 14)) if partnership else list(range(0, 14)),
            "honours": _honour_choices(state),
            "can_end": "end_evening" in state.expected,
        }
    }


def _honour_choices(state: whist.State) -> dict | None:
    """The split chips: partners tap one of 4–0 … 0–4 (side 0 first); à la guerre each player's
    count, 0 to 5 (one may be left out: he held the rest). None when honours do not count."""
    cards = state.honours_in_play
    if not cards:
        return None
    if state.rules.partnership:
        splits = [(held, cards - held) for held in range(cards, -1, -1)]
        return {
            "cards": cards,
            "splits": [
                {"value": f"{a}-{b}", "label": f"{a}\u2013{b}", "scores": max(a, b) >= 3}
                for a, b in splits
            ],
        }
    return {"cards": cards, "counts": list(range(cards + 1))}


def _first_names(names: dict[str, str]) -> dict[str, str]:
    """First names where they tell the players apart (room on a phone), else full names."""
    first = {key: (name.split() or [name])[0] for key, name in names.items()}
    return first if len(set(first.values())) == len(first) else names


def _signed(number: int) -> str:
    return f"{number:+d}".replace("-", "\u2212") if number else "0"


def _row(row: whist.DealRow, labels: list[str]) -> dict:
    return {
        "number": row.number,
        "cells": [
            {
                "tricks": row.tricks[side],
                "points": row.points[side],
                "score": row.scores[side],
                "honours": row.honours[side],
                "game": side in row.game,
                "void": row.honours_void and row.honours[side] > 0,
            }
            for side in range(len(labels))
        ],
        "split": "\u2013".join(str(n) for n in row.split),
        "game_value": row.game_value,
        "stopped": row.stopped,
    }


def _rubber(rubber: whist.RubberRow, labels: list[str], names: dict[str, str]) -> dict:
    return {
        "number": rubber.number,
        "winners": " · ".join(labels[side] for side in rubber.winners),
        "points": rubber.points,
        "games": rubber.games,
        "difference": rubber.difference,
        "money": [
            {"name": names.get(player, player), "amount": amount}
            for player, amount in sorted(rubber.nets.items(), key=lambda kv: -kv[1])
        ],
    }


# --- the evening's board -------------------------------------------------------------------------


def evening_status(snapshot: dict, players: Sequence[str]) -> list[Rival]:
    """The evening's net rubber points, then games in the rubber being played, then the game's
    score; shown as the figure that decides, leader first ("1–0")."""
    sides = [tuple(side) for side in snapshot.get("sides") or [] if isinstance(side, list)]
    games = snapshot.get("games") or []
    scores = snapshot.get("scores") or []
    if not sides or not len(games) == len(scores) == len(sides):
        return []
    points = per_player(snapshot.get("points"), players)
    figures = [(points[side[0]], whole(games[i]), whole(scores[i])) for i, side in enumerate(sides)]
    rivals = []
    for i, side in enumerate(sides):
        others = [f for j, f in enumerate(figures) if j != i]
        best = max(others) if others else figures[i]
        decide = next((k for k in range(3) if figures[i][k] != best[k]), 2)
        mine, theirs = figures[i][decide], best[decide]
        shown = f"{mine:+d}" if decide == 0 else f"{mine}–{theirs}"
        rivals.append(Rival(side, figures[i], shown))
    return rivals


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_whist(state, rng: random.Random, table: Table) -> dict:
    if len(state.rubbers) >= 2:
        return {"type": "end_evening"}
    event = {"type": "deal", "tricks": {str(rng.randint(0, 1)): rng.choice((7, 7, 7, 8, 8, 9, 10))}}
    held = rng.choice((2, 2, 2, 1, 3, 1, 3, 0, 4))  # side 0's honours; side 1 held the rest
    event["honours"] = f"{held}-{4 - held}"
    return event


DEMO = Demo(
    each(_demo_whist),
    (Table(evening=0, number=2, players=4, start=0, hours=2.5),),
)


PAD = Pad(
    "whist",
    template="scoring/pads/whist.html",
    css="css/pads/whist.css",
    context=pad_context,
    calculator="scoring.calculators.whist",
    demo=DEMO,
    evening_status=evening_status,
)
register(PAD)
