"""President / Trouduc against real cards (issue 25): simulated deals are accepted and scored as
the simulator counted; every order of going out is producible and accepted, and an order no deal
yields (a player twice, one missing) is refused."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import president as pr
from engine.errors import IllegalEvent
from tests.engine.simulate import apply_all, deals, report, rng
from tests.engine.simulate import president as sim


def _table(rnd: random.Random) -> pr.State:
    players = tuple("abcdef"[: rnd.randint(3, 6)])
    rules = pr.Rules(target=rnd.choice(pr.TARGETS), trouduc=rnd.random() < 0.4)
    return pr.new_game(players, rules, first_dealer=rnd.choice(players))


def test_simulated_deals_are_accepted_and_scored_as_counted():
    total = games = 0
    seed = 0
    orders = set()
    while total < deals(300):
        rnd = rng(seed)
        seed += 1
        state = _table(rnd)
        games += 1
        while not state.finished and total < deals(300):
            deal = sim.simulate(rnd, state)
            state = apply_all(pr, state, deal.events)
            total += 1
            assert state.sheet[-1].order == deal.order, seed
            assert state.sheet[-1].points == deal.points, seed
            if len(state.players) == 3:
                orders.add(deal.order)
    report("president", deals=total, games=games, three_player_orders=len(orders))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_order_of_going_out_is_accepted_and_nothing_else(n):
    # The whole space: every permutation, tapped in and as a whole deal, in a first deal and
    # after one (the exchange changes the cards, not what can happen).
    players = tuple("abcdef"[:n])
    fresh = pr.new_game(players)
    later = pr.apply(fresh, {"type": "deal", "order": list(reversed(players))})
    accepted = refused = 0
    for state in (fresh, later):
        for order in itertools.permutations(players):
            for events in (
                [{"type": "out", "player": p} for p in order[:-1]],
                [{"type": "deal", "order": list(order)}],
            ):
                assert apply_all(pr, state, events).sheet[-1].order == order
                accepted += 1
        # Orders no deal yields: a player twice, or one missing besides the last.
        for order in itertools.product(players, repeat=n - 1):
            if len(set(order)) == n - 1:
                continue
            with pytest.raises(IllegalEvent):
                apply_all(pr, state, [{"type": "deal", "order": list(order)}])
            refused += 1
        for order in itertools.permutations(players, n - 2):
            with pytest.raises(IllegalEvent):
                apply_all(pr, state, [{"type": "deal", "order": list(order)}])
            refused += 1
    report(f"president {n} players", accepted=accepted, refused=refused)


def test_a_changed_order_is_refused_unless_a_deal_yields_it():
    mutations = refused = 0
    for seed in range(deals(300)):
        rnd = rng(50_000 + seed)
        state = _table(rnd)
        order = list(sim.simulate(rnd, state).order)
        i, j = rnd.sample(range(len(order)), 2)
        swapped = list(order)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        twice = list(order)
        twice[j] = order[i]
        for name, changed, ok in (
            ("two places swapped", swapped, True),
            ("a player twice", twice, False),
            ("a player left out", [p for p in order if p != order[i]][: len(order) - 2], False),
            ("a stranger", [*order[:-1], "x"], False),
        ):
            mutations += 1
            try:
                apply_all(pr, state, [{"type": "deal", "order": changed}])
                accepted = True
            except IllegalEvent:
                accepted = False
                refused += 1
            assert accepted == ok, (50_000 + seed, name, changed)
    report("president mutations", deals=deals(300), mutations=mutations, refused=refused)
