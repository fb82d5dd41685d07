"""The Femhundra pad: the auction as rows of call buttons, one row a call in turn from förhand
(the bid table as a picker, values from the engine, FH1, and Pass), the five-player partner, the
trick choices, the trick order when it may decide who reached 500 first (the engine says when,
``femhundra.trick_order_may_decide``), and the score sheet — by side with four players.

The pad needs no script: each call is a checkbox named ``p_auction.<n>`` (the n-th call), so
the checked ones arrive as the calls numbered in order; CSS shows one row at a time and hides
the bids that are not higher (classes ``r<rank>`` from ``femhundra.bid_order``). The engine
refuses what the CSS lets through. Reads the engine's State.
"""

from __future__ import annotations

import random

from django.utils.translation import gettext as _

from engine import femhundra
from engine.base import clockwise
from scoring.demo import Demo, Table, each, split
from scoring.evening_status import by_field
from scoring.games import Pad, names_of, register

RED = {"H", "D"}
# Rows for calls: one a player when each calls once; with several rounds (four players) three
# rounds' worth — an auction longer than that is rare; the engine refuses one left unfinished.
ROUNDS_SHOWN = 3


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


def call_cells(rules: femhundra.Rules, players: int) -> list[dict]:
    """Pass and every bid in rank order (FH3 places misère) as the picker cells of one call.

    ``rank`` orders the bids for the CSS that hides those not higher than the last one;
    ``late``: a misère the four-player game allows only after 7♠; ``from_seven``: 7♠ or
    higher."""
    order = femhundra.bid_order(rules)
    seven = order.index(femhundra.MISERE_AFTER)
    misere = (femhundra.MISERE, femhundra.OPEN_MISERE)
    cells = [{"contract": femhundra.PASS, "name": _("Pass"), "pass": True}]
    for rank, contract in enumerate(order):
        cells.append(
            {
                "contract": contract,
                "name": contract_name(contract),
                "value": femhundra.bid_value(contract, players),
                "red": contract[-1:] in RED,
                "rank": rank,
                "misere": contract in misere,
                "late": players == 4 and contract in misere,
                "from_seven": rank >= seven and contract not in misere,
            }
        )
    return cells


def call_rows(rules: femhundra.Rules, order: list[dict]) -> list[dict]:
    """One row per call: named while each player's turn is known (the first round), then
    numbered (who calls depends on who passed)."""
    count = len(order)
    rows = count if rules.one_round(count) else count * ROUNDS_SHOWN
    return [{"number": n + 1, "who": order[n]["name"] if n < count else ""} for n in range(rows)]


def pad_context(game, state: femhundra.State, seats: list) -> dict:
    names = names_of(seats)
    players = state.players
    count = len(players)
    seat_of = {player: seat for seat, player in enumerate(players)}

    def person(player: str) -> dict:
        return {
            "key": player,
            "name": names.get(player, player),
            "score": state.scores[seat_of[player]],
            "dealer": player == state.dealer,
            "forhand": player == state.forhand,
            "winner": player in state.winners,
        }

    # The auction and the play go clockwise from förhand, the dealer's left.
    order = [person(p) for p in clockwise(players, state.forhand, players)]
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
            "score": state.scores[group[0]],
            "winner": players[group[0]] in state.winners,
            "seat": group[0],
        }
        for group in groups
    ]
    sheet = [
        {
            "number": row.number,
            "contract": contract_name(row.contract),
            "red": (row.contract or "")[-1:] in RED,
            # First names: the sheet has little room beside the players' columns.
            "declarer": first_name(names.get(row.declarer, row.declarer)) if row.declarer else "",
            "partner": first_name(names.get(row.partner, row.partner))
            if row.partner and count == 5
            else "",
            "made": row.made,
            "held": row.held_at_490,
            "cells": [
                {"points": row.points[c["seat"]], "score": row.scores[c["seat"]]} for c in columns
            ],
        }
        for row in reversed(state.sheet)
    ]
    return {
        "fh": {
            "order": order,
            "columns": columns,
            "sides": count == 4,
            "five": count == 5,
            "four": count == 4,
            "sheet": sheet,
            "calls": call_cells(state.rules, count),
            "call_rows": call_rows(state.rules, order),
            "one_round": state.rules.one_round(count),
            "tricks": list(range(femhundra.TRICKS + 1)),
            "deal_number": len(state.sheet) + 1,
            "dealer": names.get(state.dealer, state.dealer),
            # Who could tie at 500 with nobody's contract to decide: then the trick order.
            "ask_trick_order": bool(femhundra.trick_order_may_decide(state)),
            "trick_numbers": list(range(1, femhundra.TRICKS + 1)),
            "target": femhundra.TARGET,
            "winners": [names.get(p, p) for p in state.winners],
        }
    }


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_femhundra(state, rng: random.Random, table: Table) -> dict:
    seats = list(state.players)
    declarer = rng.choice(seats)
    tricks = split(10, len(seats), rng)
    level = max(6, min(10, tricks[seats.index(declarer)] + rng.choice((-1, 0, 1, 2))))
    # The auction: from förhand, those before the declarer pass, he bids, the rest pass.
    start = seats.index(state.forhand)
    turns = seats[start:] + seats[:start]
    bid = f"{level}{rng.choice(('S', 'C', 'D', 'H', 'NT'))}"
    return {
        "type": "deal",
        "auction": [bid if player == declarer else "pass" for player in turns],
        "tricks": dict(zip(seats, tricks, strict=True)),
    }


DEMO = Demo(
    each(_demo_femhundra),
    (Table(evening=2, number=4, players=3, start=2, hours=1),),
)


PAD = Pad(
    "femhundra",
    template="scoring/pads/femhundra.html",
    css="css/pads/femhundra.css",
    context=pad_context,
    calculator="scoring.calculators.femhundra",
    demo=DEMO,
    evening_status=by_field("scores"),
)
register(PAD)
