"""Stopp against real cards (issue 25): simulated legal deals are accepted and paid as the
simulator counted; a changed count is refused unless some deal yields it — and the whole count
space of a small table is enumerated."""

from __future__ import annotations

import itertools
import random

from engine import stopp as s
from engine.errors import IllegalEvent
from tests.engine.simulate import deals, report, rng
from tests.engine.simulate import stopp as sim


def _table(rnd: random.Random) -> s.State:
    players = tuple("abcdef"[: rnd.randint(3, 6)])
    rules = s.Rules(capital=rnd.randint(1, 12), real_money=rnd.random() < 0.5)
    return s.new_game(players, rules, first_dealer=rnd.choice(players))


def test_simulated_deals_are_accepted_and_paid_as_counted():
    total = games = 0
    seed = 0
    while total < deals(300):
        rnd = rng(seed)
        seed += 1
        state = _table(rnd)
        games += 1
        while not state.finished and total < deals(300):
            deal = sim.simulate(rnd, state)
            state = s.apply(state, deal.event)
            total += 1
            assert state.sheet[-1].paid == deal.paid, seed
    report("stopp", deals=total, games=games)


def _mutations(rnd: random.Random, cards: dict[str, int], eldest: str):
    players = list(cards)
    a, b = rnd.sample(players, 2)
    yield "one card more", {**cards, a: cards[a] + 1}
    yield "one card fewer", {**cards, a: cards[a] - 1}
    yield "two players swapped", {**cards, a: cards[b], b: cards[a]}
    yield "eldest hand kept six", {**cards, eldest: s.HAND}
    yield "nobody went out", {p: max(n, 1) for p, n in cards.items()}
    yield "a player missing", {p: n for p, n in cards.items() if p != a}


def test_a_changed_count_is_refused_unless_a_deal_yields_it():
    mutations = refused = 0
    wrong = []
    for seed in range(deals(300)):
        rnd = rng(20_000 + seed)
        state = _table(rnd)
        deal = sim.simulate(rnd, state)
        eldest = s.eldest_hand(state)
        for name, cards in _mutations(rnd, deal.cards, eldest):
            if any(n < 0 for n in cards.values()):
                continue
            mutations += 1
            try:
                s.apply(state, {"type": "deal", "cards": cards})
                accepted = True
            except IllegalEvent:
                accepted = False
                refused += 1
            if accepted != sim.producible(cards, state.active, eldest):
                wrong.append((20_000 + seed, name, cards))
    report("stopp mutations", deals=deals(300), mutations=mutations, refused=refused)
    assert not wrong, wrong[:5]


def test_every_count_of_a_three_player_deal_is_decided_like_the_rules():
    # The whole space: three players, 0–7 cards each, every dealer. The engine accepts exactly
    # the counts the rules allow; the simulator's deals fall inside them (and reach most).
    players = ("a", "b", "c")
    allowed = 0
    for dealer in players:
        state = s.new_game(players, first_dealer=dealer)
        eldest = s.eldest_hand(state)
        for counts in itertools.product(range(8), repeat=3):
            cards = dict(zip(players, counts, strict=True))
            ok = sim.producible(cards, players, eldest)
            try:
                s.apply(state, {"type": "deal", "cards": cards})
                accepted = True
            except IllegalEvent:
                accepted = False
            assert accepted == ok, (dealer, cards)
            allowed += ok
    reached = set()
    rnd = rng(30_000)
    for _ in range(deals(300) * 5):
        state = s.new_game(players, first_dealer="c")  # a is eldest hand
        reached.add(tuple(sim.simulate(rnd, state).cards.values()))
    seen = len(reached)
    assert all(sim.producible(dict(zip(players, r, strict=True)), players, "a") for r in reached)
    report("stopp three players", allowed=allowed, reached_by_simulator=seen, of=allowed // 3)
