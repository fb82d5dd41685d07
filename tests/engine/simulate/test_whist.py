"""Whist against real cards (issue 25): simulated legal deals are accepted and scored as the
simulator counted; one recorded fact changed (a trick or an honour moved to another side, a
count bumped) is refused exactly when no deal yields it — decided by an exhaustive search over
who held which honour and which honours shared a trick (``sim.possible``), itself checked
against the engine over every split and every trick vector."""

from __future__ import annotations

import itertools

from engine import whist as w
from engine.errors import IllegalEvent
from tests.engine.simulate import deals, report, rng
from tests.engine.simulate import whist as sim


def _accepts(state: w.State, event: dict) -> bool:
    try:
        w.apply(state, event)
    except IllegalEvent:
        return False
    return True


def test_simulated_deals_are_accepted_and_scored_as_counted():
    total = games = 0
    seed = 0
    while total < deals(200):
        rnd = rng(seed)
        seed += 1
        rules = sim.rules_for(rnd)
        state = w.new_game(sim.PLAYERS, rules, first_dealer=rnd.choice(sim.PLAYERS))
        games += 1
        for _n in range(rnd.randint(1, 12)):
            dealer = sim.PLAYERS.index(state.dealer)
            deal = sim.simulate(rnd, rules.variant, rules.with_honours, dealer)
            state = w.apply(state, deal.event)
            total += 1
            row = state.deals[-1] if state.deals else state.rubbers[-1].deals[-1]
            assert row.tricks == deal.tricks, seed
            if rules.with_honours:
                scoring = tuple(n if w.honour_points(n, rules.variant) else 0 for n in deal.honours)
                assert row.honours == scoring, seed
            else:
                assert row.honours == (0,) * len(deal.tricks), seed
    report("whist", deals=total, games=games)


def _full(tricks, split, partnership):
    keys = [str(s) for s in range(len(tricks))] if partnership else list(sim.PLAYERS)
    event = {"type": "deal", "tricks": dict(zip(keys, tricks, strict=True))}
    if split is not None:
        event["honours"] = "-".join(map(str, split))
    return event


def _mutations(deal: sim.Deal, partnership: bool, with_honours: bool):
    """(name, tricks, split) with one fact changed."""
    tricks, split = list(deal.tricks), list(deal.honours) if with_honours else None
    count = len(tricks)
    for a, b in itertools.permutations(range(count), 2):
        if tricks[a]:
            moved = tricks.copy()
            moved[a] -= 1
            moved[b] += 1
            yield "trick moved", tuple(moved), split and tuple(split)
        if split and split[a]:
            moved = split.copy()
            moved[a] -= 1
            moved[b] += 1
            yield "honour moved", tuple(tricks), tuple(moved)
    for a in range(count):
        bumped = tricks.copy()
        bumped[a] += 1
        yield "tricks bumped", tuple(bumped), split and tuple(split)
        if split:
            bumped = split.copy()
            bumped[a] += 1
            yield "honours bumped", tuple(tricks), tuple(bumped)


def test_a_changed_fact_is_refused_unless_a_deal_yields_it():
    total = mutations = refused = 0
    seed = 10_000
    while total < deals(150):
        rnd = rng(seed)
        seed += 1
        variant = rnd.choice(w.VARIANTS)
        rules = w.Rules(variant=variant)
        partnership = rules.partnership
        state = w.new_game(sim.PLAYERS, rules)
        deal = sim.simulate(rnd, variant, rules.with_honours)
        total += 1
        for name, tricks, split in _mutations(deal, partnership, rules.with_honours):
            mutations += 1
            cards = w.HONOUR_CARDS[variant]
            producible = (
                sum(tricks) == 13
                and max(tricks) <= 13
                and (split is None or sum(split) == cards)
                and (split is None or sim.possible(split, tricks, partnership))
            )
            accepted = _accepts(state, _full(tricks, split, partnership))
            assert accepted == producible, (seed, name, tricks, split)
            refused += not accepted
    report("whist", deals=total, mutations=mutations, refused=refused)


def test_the_search_and_the_engine_agree_on_every_split_and_every_trick_vector():
    cases = 0
    for cards, holders, partnership in ((4, 2, True), (5, 4, False)):
        for split in itertools.product(range(cards + 1), repeat=holders):
            if sum(split) != cards:
                continue
            for tricks in itertools.product(range(14), repeat=holders):
                if sum(tricks) != 13:
                    continue
                cases += 1
                assert sim.possible(split, tricks, partnership) == w.honour_tricks_possible(
                    split, tricks, partnership
                ), (split, tricks)
    report("whist", exhaustive_cases=cases)


def test_what_the_simulator_deals_is_one_deck():
    rnd = rng(7)
    for _n in range(50):
        hands, trump, taken = sim.play(rnd)
        cards = [c for hand in hands.values() for c in hand]
        assert len(cards) == len(set(cards)) == 52
        assert all(len(hand) == 13 for hand in hands.values())
        assert trump in hands[0]
        assert sum(taken) == 13
