"""The Kille pad: what the table looks like now, and which buttons each player has.

The pad asks one question at a time ("what just happened?"). Everything here is read from the
engine's State: the seats in order with dealer, förhand, knocker, stayers and folders marked, the
pot, each player's net tonight, and for the current step the actions each player may take (the
engine refuses anything else with a message, so these are a convenience, not the rules). In the
fold round only the player whose turn it is gets buttons, "stay" and "fold".
"""

from __future__ import annotations

import random

from engine.base import clockwise
from engine.cards import KILLE_DECK, KilleRank, parse_kille_card
from engine.kille import State
from scoring.demo import Demo, Generator, Table
from scoring.evening_status import by_money
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


# --- the demo club's evenings (scoring.demo) -----------------------------------------------------


class DemoPlay(Generator):
    """Declarations, knocks, stays and folds at random, tricks played by the rule (overtake or equal
    if you can, else your lowest) in every other deal, the showing from the cards left."""

    def __init__(self, table: Table, rng: random.Random):
        self.table = table
        self.rng = rng
        self.deal_no = 0
        self.hands: dict[str, list] = {}
        self.talon: list = []

    def _deal(self, state) -> None:
        if self.deal_no == state.deal_no:
            return
        deck = list(KILLE_DECK)
        self.rng.shuffle(deck)
        self.hands = {p: [deck.pop() for _ in range(5)] for p in state.players}
        self.talon = deck
        self.deal_no = state.deal_no

    def propose(self, state) -> dict:
        rng = self.rng
        if state.phase == "ante":
            return {"type": "ante"}
        if state.phase == "declare" and not state.calls and state.deal_no > self.table.length:
            return {"type": "end_evening"}
        self._deal(state)
        if state.phase == "fold":  # in turn, from the knocker's left
            return {"type": "fold" if rng.random() < 0.3 else "stay", "player": state.to_act}
        if "exchange" in state.expected and state.phase == "declare2" and rng.random() < 0.3:
            counts = {p: rng.choice((0, 0, 1, 2)) for p in state.active}
            return {"type": "exchange", "counts": counts}
        if state.phase == "tricks":
            if state.deal_no % 2:
                return {"type": "trick", "cards": self._trick(state)}
            return {"type": "fourth_trick", "player": rng.choice(state.active)}
        if state.phase == "showing":
            return {"type": "bud" if rng.random() < 0.4 else "show", "player": state.to_act}
        if state.phase == "reveal":
            return {"type": "reveal", "cards": {p: self._last(p) for p in state.active}}
        return {"type": "bud" if rng.random() < 0.6 else "knock", "player": state.to_act}

    def _trick(self, state) -> dict:
        highest, cards = None, {}
        for player in clockwise(state.players, state.leader, state.active):
            hand = self.hands[player]
            over = [c for c in hand if highest is not None and c >= highest]
            allowed = hand if highest is None else over or [min(hand)]
            card = self.rng.choice(allowed)
            cards[player] = card.label
            highest = card if highest is None else max(highest, card)
        return cards

    def _last(self, player: str) -> str:
        hand = self.hands[player]
        return (hand[0] if len(hand) == 1 else self.rng.choice(hand)).label

    def accepted(self, event: dict, state) -> None:
        if event["type"] == "exchange":
            for player, count in event["counts"].items():
                hand = self.hands[player]
                for _ in range(count):
                    hand.remove(self.rng.choice(hand))
                    hand.append(self.talon.pop())
        elif event["type"] == "trick":
            for player, label in event["cards"].items():
                self.hands[player].remove(parse_kille_card(label))


DEMO = Demo(
    DemoPlay,
    (
        Table(evening=0, number=1, players=5, start=0, hours=2.5, length=12, host=True),
        Table(evening=1, number=1, players=5, start=0, hours=2.5, length=13, host=True),
        Table(evening=2, number=1, players=5, start=0, hours=2.5, length=11, host=True),
    ),
)


PAD = Pad(
    "kille",
    template="scoring/pads/kille.html",
    css="css/pads/kille.css",
    context=pad_context,
    calculator="scoring.calculators.kille",
    demo=DEMO,
    evening_status=by_money,
)
register(PAD)
