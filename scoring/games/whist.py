"""The whist pad: the snapshot shaped for the template — sides with names, the running rubber's
score sheet, the last finished rubber, the evening so far, and the choices for one deal."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from engine import whist
from scoring.games import names_of

VARIANT_NAMES = {
    "short": _("Short whist"),
    "long": _("Long whist"),
    "american": _("American whist"),
    "guerre": _("Whist à la guerre"),
}


def pad_context(game, state: dict, seats: list) -> dict:
    names = names_of(seats)
    short = _first_names(names)
    rules = state["rules"]
    variant = rules["variant"]
    partnership = variant != "guerre"
    sides = [
        {
            "index": index,
            "label": " & ".join(names.get(p, p) for p in players),
            "short": " & ".join(short.get(p, p) for p in players),
            "players": players,
            "score": state["scores"][index],
            "games": state["games"][index],
            "rubber_points": state["rubber_points"][index],
        }
        for index, players in enumerate(state["sides"])
    ]
    labels = [side["label"] for side in sides]
    honour_counts = sorted(whist.HONOURS[variant]) if _with_honours(rules) else []
    nets = state.get("nets", {})
    return {
        "whist": {
            "partnership": partnership,
            "variant_name": str(VARIANT_NAMES.get(variant, variant)),
            "target": whist.TARGETS[variant],
            "sides": sides,
            "dealer": names.get(state["dealer"], state["dealer"]),
            "deal_number": len(state["deals"]) + 1,
            "rows": [_row(row, labels) for row in state["deals"]],
            "last_rubber": _rubber(state["rubbers"][-1], labels, names)
            if state["rubbers"]
            else None,
            "rubbers_played": len(state["rubbers"]),
            "evening": [
                {
                    "name": names.get(player, player),
                    "side": labels[state["teams"][player]],
                    "rubbers_won": state["rubbers_won"][player],
                    "points": _signed(state["points"][player]),
                    "money": nets.get(player, 0),
                }
                for player in state["players"]
            ],
            "trick_choices": list(range(7, 14)) if partnership else list(range(0, 14)),
            "honour_counts": honour_counts,
            "can_end": "end_evening" in state["expected"],
        }
    }


def _first_names(names: dict[str, str]) -> dict[str, str]:
    """First names where they tell the players apart (room on a phone), else full names."""
    first = {key: (name.split() or [name])[0] for key, name in names.items()}
    return first if len(set(first.values())) == len(first) else names


def _signed(number: int) -> str:
    return f"{number:+d}".replace("-", "\u2212") if number else "0"


def _with_honours(rules: dict) -> bool:
    return bool(rules["honours"]) and bool(whist.HONOURS[rules["variant"]])


def _row(row: dict, labels: list[str]) -> dict:
    return {
        "number": row["number"],
        "cells": [
            {
                "tricks": row["tricks"][side],
                "points": row["points"][side],
                "score": row["scores"][side],
                "honours": row["honours"][side],
                "game": side in row["game"],
                "void": row["honours_void"] and row["honours"][side] > 0,
            }
            for side in range(len(labels))
        ],
        "game_value": row["game_value"],
        "stopped": row["stopped"],
    }


def _rubber(rubber: dict, labels: list[str], names: dict[str, str]) -> dict:
    return {
        "number": rubber["number"],
        "winners": " · ".join(labels[side] for side in rubber["winners"]),
        "points": rubber["points"],
        "games": rubber["games"],
        "difference": rubber["difference"],
        "money": [
            {"name": names.get(player, player), "amount": amount}
            for player, amount in sorted(rubber["nets"].items(), key=lambda kv: -kv[1])
        ],
    }
