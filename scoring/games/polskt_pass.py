"""The Polskt pass pad: the club's pot and betar carried into a new evening, and what the pad
shows at each step (the turn-up grid, the bidding order, the trick buttons).

Carrying over: the pot is the ledger account ``pot:polskt_pass`` (the views pass its balance
as ``pot_ore``); each outstanding bet is a ledger bet account ``bet:polskt_pass:<id>`` with a
positive balance (``club.models``: credit positive, so money held by a pot or bet reads
positive). Owners are not in the ledger: they come from the snapshots of the latest
non-voided Polskt pass games, where a bet set that evening names its owners by seat key and a
carried one by name. A new bet takes ``next_bet_id``, one more than any Polskt pass bet
account the club has ever had, so ids are never reused across games.
"""

from __future__ import annotations

import json
import random

import ledger
from engine import polskt_pass as engine
from engine.base import clockwise, left_of, right_of
from ledger import opening
from scoring.demo import Demo, Table, each
from scoring.evening_status import by_money
from scoring.games import Pad, names_of, register, short_names
from scoring.models import Game, GameStatus

_OWNER_SEARCH_DEPTH = 50  # games looked back through for the owners of an old bet


def start_setup(club, table: int | None = None) -> dict:
    """The club's outstanding betar (at evening table ``table``: that table's), with owners by
    name, and the next free bet id."""
    balances = ledger.game_bet_balances(club, engine.KEY, table=table)
    outstanding = sorted(bet_id for bet_id, balance in balances.items() if balance > 0)
    # An opened bet (the paper books, ``ledger.opening``) names who put it in on its account;
    # a game's snapshot, where a bet set or carried there names its owners, wins.
    owners = opening.bet_owners(club, engine.KEY, table) | _owners(club, set(outstanding), table)
    return {
        "betar": [
            {"id": bet_id, "amount_ore": balances[bet_id], "owners": owners.get(bet_id, [])}
            for bet_id in outstanding
        ],
        "next_bet_id": max(balances, default=0) + 1,
    }


def _owners(club, wanted: set[int], table: int | None = None) -> dict[int, list[str]]:
    """Owner names of the wanted bet ids, from the newest non-voided games' snapshots (of the
    same table's betar)."""
    found: dict[int, list[str]] = {}
    if not wanted:
        return found
    games = Game.objects.filter(club=club, game_key=engine.KEY).exclude(status=GameStatus.VOIDED)
    games = games.filter(table__isnull=True) if table is None else games.filter(table__number=table)
    games = games.order_by("-started_at", "-pk").prefetch_related("seats__member")
    for game in games[:_OWNER_SEARCH_DEPTH]:
        names = names_of(game.seats.all())
        for bet in (game.snapshot or {}).get("betar", []):
            bet_id = bet.get("id")
            if bet_id in wanted and bet_id not in found:
                found[bet_id] = [names.get(owner, owner) for owner in bet.get("owners", [])]
        if wanted <= set(found):
            break
    return found


# --- the pad ---------------------------------------------------------------------------------


def _suit(code: str) -> dict:
    return {"code": code, "symbol": engine.SUIT_SYMBOLS[code], "red": code in ("H", "D")}


def _owners_text(owners, names: dict[str, str]) -> str:
    return " & ".join(names.get(owner, owner) for owner in owners)


def _payload(**fields) -> str:
    return json.dumps(fields, ensure_ascii=False)


def pad_context(game, state: engine.State, seats: list) -> dict:
    names = names_of(seats)
    by_key = {seat.key: seat for seat in seats}
    players = state.players
    current = state.current
    betar = state.betar
    if current:
        in_play = current.bet_in_play
    else:
        least = min(betar, key=lambda b: (b.amount_ore, b.id), default=None)
        in_play = least.id if least else None

    dealer = state.dealer or players[0]
    cutter, forhand = right_of(players, dealer), left_of(players, dealer)
    order = clockwise(players, forhand, players)

    pp: dict = {
        "betar": [
            {
                "id": bet.id,
                "amount_ore": bet.amount_ore,
                "owners": _owners_text(bet.owners, names) or "?",
                "in_play": bet.id == in_play and not state.finished,
            }
            for bet in betar
        ],
        "in_play": next((b for b in betar if b.id == in_play), None),
        "finished": state.finished,
        "dealer": names.get(dealer, dealer),
        "cutter": names.get(cutter, cutter),
        "forhand": names.get(forhand, forhand),
        "deal_no": len(state.sheet) + 1,
        "suits": [_suit(code) for code in engine.SUITS],
        "money": [(seat.name, state.money.get(seat.key, 0)) for seat in seats],
        "sheet": [_sheet_row(row, names) for row in reversed(state.sheet)],
    }
    if state.phase == engine.DEAL:
        pp["turn_up"] = _turn_up_grid()
    if current:
        turned = current.turned_suit
        pp["turned"] = _suit(turned)
        pp["trump"] = _suit(current.trump) if current.trump else None
        pp["spelforare"] = _owners_text(current.spelforare, names)
        pp["round"] = current.round
        short = short_names(names)
        pp["bidders"] = [
            {
                "seat": by_key[key],
                "name": short[key],  # first names where they are unique: the row keeps 4 suits
                # All four columns, so the rows line up; the others may not name the turned suit.
                "suits": [
                    {**_suit(code), "allowed": key == current.forhand or code != turned}
                    for code in engine.SUITS
                ],
            }
            for key in order
        ]
        taken = current.trick_winners
        pp["trick_no"] = len(taken) + 1
        pp["tricks_so_far"] = [names.get(w, w) for w in taken]
        pp["la_vola"] = current.la_vola
        if "la_vola" in state.expected:
            pp["la_vola_seat"] = by_key[taken[0]]
    return {"pp": pp}


def _turn_up_grid() -> list[dict]:
    """One button per (kind of turn-up, suit): a jack (the dealer must take it), an ace taken or
    left, or any other card. Each button carries its whole ``deal`` payload."""
    rows = []
    for kind, rank, takes in (
        ("jack", "J", None),
        ("ace_taken", "A", True),
        ("ace_left", "A", False),
        ("other", engine.OTHER, None),
    ):
        buttons = []
        for code in engine.SUITS:
            fields = {"suit": code, "rank": rank}
            if takes is not None:
                fields["dealer_takes"] = takes
            buttons.append({**_suit(code), "payload": _payload(**fields)})
        rows.append({"kind": kind, "buttons": buttons})
    return rows


def _sheet_row(row: engine.DealRow, names: dict[str, str]) -> dict:
    return {
        "number": row.number,
        "dealer": names.get(row.dealer, row.dealer),
        "turned": row.turned,
        "trump": engine.SUIT_SYMBOLS.get(row.trump or "", ""),
        "red": row.trump in ("H", "D"),
        "spelforare": _owners_text(row.spelforare, names),
        "outcome": row.outcome,
        "winner": names.get(row.winner or "", ""),
        "la_vola": names.get(row.la_vola or "", ""),
        "tricks": " · ".join(
            f"{names.get(p, p)} {n}" for p, n in sorted(row.tricks.items(), key=lambda i: -i[1])
        ),
        "amount_ore": row.amount_ore,
        "betar_set": [
            {"id": b.id, "amount_ore": b.amount_ore, "owners": _owners_text(b.owners, names)}
            for b in row.betar_set
        ],
    }


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


def _demo_polskt_pass(state, rng: random.Random, table: Table) -> dict:
    """Turn-ups as they come, the spelförare taking a trick a bit more often than the others;
    la vola now and then; the evening ends after ``table.length`` deals."""
    if state.phase == engine.DEAL:
        # The evening ends after its deals once a bet is left to carry over (or the pot, or
        # nothing, when it gets late).
        played = len(state.sheet)
        late = played - table.length
        if late >= 0 and (state.betar or (state.pot_ore and late >= 3) or late >= 6):
            return {"type": "end"}
        ranks = engine.FIVE_PLAYER_RANKS if len(state.players) == 5 else engine.RANKS
        rank = rng.choice([*ranks, engine.OTHER, engine.OTHER])
        event = {
            "type": "deal",
            "suit": rng.choice(engine.SUITS),
            "rank": rank,
            "cutter_jack": rng.random() < 0.05,
        }
        if rank == "A" and not event["cutter_jack"]:
            event["dealer_takes"] = rng.random() < 0.5
        return event
    current = state.current
    if state.phase == engine.BIDDING:
        if rng.random() < 0.45:
            return {"type": "all_pass"}
        player = rng.choice(state.players)
        if current.round == 1:
            return {"type": "bid", "player": player}
        turned = current.turned_suit
        suits = [s for s in engine.SUITS if player == current.forhand or s != turned]
        return {"type": "bid", "player": player, "suit": rng.choice(suits)}
    if engine.la_vola_possible(state) and rng.random() < 0.3:
        return {"type": "la_vola", "player": current.trick_winners[0]}
    spelforare = list(current.spelforare)
    weights = [2 if p in spelforare else 1 for p in state.players]
    return {"type": "trick", "winner": rng.choices(state.players, weights)[0]}


DEMO = Demo(
    each(_demo_polskt_pass),
    (
        Table(evening=1, number=2, players=4, start=0, hours=2.5, length=10),
        Table(evening=2, number=2, players=4, start=0, hours=2.5, length=10),
    ),
)


PAD = Pad(
    "polskt_pass",
    template="scoring/pads/polskt_pass.html",
    css="css/pads/polskt_pass.css",
    context=pad_context,
    start_setup=start_setup,
    calculator="scoring.calculators.polskt_pass",
    demo=DEMO,
    evening_status=by_money,
)
register(PAD)
