"""The Femhundra pad: the bid table as a picker (values from the engine, FH1), the declarer and
the five-player partner, the trick choices, and the score sheet — by side with four players.

The snapshot keeps per-seat tuples; templates cannot index them by seat, so this hook turns
them into one small dict per player, side and sheet cell.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine import femhundra
from engine.base import clockwise
from scoring.games import names_of

RED = {"H", "D"}
# Opponents gain at most 100 a deal (ten tricks), so equal totals over 500 in a deal where the
# order of reaching 500 matters need two sides at 400 or more before it.
FIRST_TO_500_FROM = femhundra.TARGET - femhundra.TRICKS * femhundra.TRICK_POINTS


def contract_name(contract: str | None) -> str:
    """A contract as the pad shows it: 8♥, 7 NT, misère, open misère; rundpass without one."""
    if contract is None:
        return _("no bid")
    if contract == femhundra.MISERE:
        return _("misère")
    if contract == femhundra.OPEN_MISERE:
        return _("open misère")
    tricks = femhundra.contract_tricks(contract)
    trump = contract[len(str(tricks)) :]
    return f"{tricks} {_('NT')}" if trump == "NT" else f"{tricks}{femhundra.TRUMP_LABELS[trump]}"


def first_name(name: str) -> str:
    return name.split(" ")[0] if name.strip() else name


def bid_rows() -> list[dict]:
    """The bid table (FH1) as rows of picker cells, one row per number of tricks."""
    rows = []
    for tricks, values in femhundra.AVONDALE:
        cells = []
        for trump, value in zip(femhundra.TRUMPS, values, strict=True):
            contract = f"{tricks}{trump}"
            cells.append(
                {
                    "contract": contract,
                    "name": contract_name(contract),
                    "value": value,
                    "red": trump in RED,
                }
            )
        rows.append({"tricks": tricks, "cells": cells})
    return rows


def misere_cells(players: int = 3) -> list[dict]:
    """Misère and open misère as picker cells (open misère is worth less with four players)."""
    return [
        {
            "contract": contract,
            "name": contract_name(contract),
            "value": femhundra.bid_value(contract, players),
        }
        for contract in (femhundra.MISERE, femhundra.OPEN_MISERE)
    ]


def pad_context(game, state: dict, seats: list) -> dict:
    names = names_of(seats)
    players = state["players"]
    count = len(players)
    seat_of = {player: seat for seat, player in enumerate(players)}
    rules = femhundra.Rules(**state["rules"])

    def person(player: str) -> dict:
        return {
            "key": player,
            "name": names.get(player, player),
            "score": state["scores"][seat_of[player]],
            "dealer": player == state["dealer"],
            "forhand": player == state["forhand"],
            "winner": player in state["winners"],
        }

    # The auction and the play go clockwise from förhand, the dealer's left.
    order = clockwise(players, state["forhand"], players)
    # Who scores together: the two sides with four players, else each player alone.
    groups = femhundra.teams(count)
    columns = [
        {
            "members": [person(players[s]) for s in group],
            # The sheet's heading: first names for a side, the whole name for a player alone.
            "short": " & ".join(first_name(names.get(players[s], players[s])) for s in group)
            if len(group) > 1
            else names.get(players[group[0]], players[group[0]]),
            "keys": [players[s] for s in group],
            "score": state["scores"][group[0]],
            "winner": players[group[0]] in state["winners"],
            "seat": group[0],
        }
        for group in groups
    ]
    sheet = [
        {
            "number": row["number"],
            "contract": contract_name(row["contract"]),
            "red": (row["contract"] or "")[-1:] in RED,
            # First names: the sheet has little room beside the players' columns.
            "declarer": first_name(names.get(row["declarer"], row["declarer"]))
            if row["declarer"]
            else "",
            "partner": first_name(names.get(row["partner"], row["partner"]))
            if row["partner"] and count == 5
            else "",
            "made": row["made"],
            "held": row["held_at_490"],
            "cells": [
                {"points": row["points"][c["seat"]], "score": row["scores"][c["seat"]]}
                for c in columns
            ],
        }
        for row in reversed(state["sheet"])
    ]
    high = [c for c in columns if c["score"] >= FIRST_TO_500_FROM]
    return {
        "fh": {
            "order": [person(p) for p in order],
            "columns": columns,
            "sides": count == 4,
            "five": count == 5,
            "sheet": sheet,
            "bid_rows": bid_rows(),
            "trumps": [
                (femhundra.TRUMP_LABELS[t] if t != "NT" else _("NT"), t in RED)
                for t in femhundra.TRUMPS
            ],
            "misere": misere_cells(count) if rules.misere else [],
            "tricks": list(range(femhundra.TRICKS + 1)),
            "deal_number": len(state["sheet"]) + 1,
            "dealer": names.get(state["dealer"], state["dealer"]),
            "ask_first_to_500": len(high) >= 2,
            "high": [k for c in high for k in c["keys"]],
            "target": femhundra.TARGET,
            "winners": [names.get(p, p) for p in state["winners"]],
        }
    }
