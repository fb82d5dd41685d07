"""Fan tan against real cards (issue 25): simulated legal deals are accepted and scored (places,
chips) as the simulator counted; a changed pass or count is refused unless the turns still go
round."""

from __future__ import annotations

import random

from engine import fantan as f
from engine.errors import IllegalEvent
from tests.engine.simulate import apply_all, deals, report, rng
from tests.engine.simulate import fantan as sim


def _table(rnd: random.Random, chips: bool | None = None) -> f.State:
    players = tuple("abcdefg"[: rnd.randint(3, 7)])
    chips = rnd.random() < 0.6 if chips is None else chips
    rules = f.Rules(
        variant=rnd.choice(f.VARIANTS),
        deals=rnd.randint(1, 3),
        play_on=rnd.random() < 0.6,
        chip_ore=100 if chips else 0,
    )
    return f.new_game(players, rules, first_dealer=rnd.choice(players))


def test_simulated_deals_are_accepted_and_scored_as_counted():
    total = games = 0
    seed = 0
    while total < deals(300):
        rnd = rng(seed)
        seed += 1
        state = _table(rnd)
        games += 1
        while not state.finished and total < deals(300):
            deal = sim.simulate(rnd, state)
            state = apply_all(f, state, deal.events)
            total += 1
            row = state.sheet[-1]
            if state.rules.play_on:  # else ties in cards left share a place in any order
                assert row.order == deal.order, seed
            assert row.points == deal.points, seed
            if state.rules.chip_ore:
                assert row.chips == deal.chips, seed
    report("fantan", deals=total, games=games)


def _events(deal: sim.Deal, passes: dict[str, int], cards: dict[str, int]) -> list[dict]:
    """The deal's events up to the count, with these passes and cards left."""
    winner = deal.order[0]
    events = [{"type": "pass", "player": p} for p, n in passes.items() for _ in range(n)]
    return [*events, {"type": "out", "player": winner}, {"type": "cards_left", "cards": cards}]


def test_a_changed_pass_or_count_is_refused_unless_the_turns_go_round():
    mutations = refused = 0
    wrong = []
    for seed in range(deals(300)):
        rnd = rng(40_000 + seed)
        state = _table(rnd, chips=True)
        deal = sim.simulate(rnd, state)
        winner = deal.order[0]
        others = list(deal.cards_left)
        a, b = rnd.sample(others, 2)
        somebody = rnd.choice(state.players)
        cards, passes = deal.cards_left, deal.passes
        changes = [
            ("one card more", passes, {**cards, a: cards[a] + 1}),
            ("one card fewer", passes, {**cards, a: cards[a] - 1}),
            ("two counts swapped", passes, {**cards, a: cards[b], b: cards[a]}),
            ("a pass more", {**passes, somebody: passes[somebody] + 1}, cards),
            ("a pass fewer", {**passes, somebody: passes[somebody] - 1}, cards),
            ("a pass moved", {**passes, a: passes[a] + 1, b: passes[b] - 1}, cards),
            ("a card and a pass", {**passes, a: passes[a] + 1}, {**cards, a: cards[a] + 1}),
        ]
        for name, p, c in changes:
            if min(p.values()) < 0 or not all(1 <= c[x] <= deal.sizes[x] for x in c):
                continue  # not a record the pad can send (its own refusals are tested apart)
            mutations += 1
            ok = sim.turns_fit(state.rules.variant, winner, p, c, deal.sizes)
            try:
                apply_all(f, state, _events(deal, p, c))
                accepted = True
            except IllegalEvent:
                accepted = False
                refused += 1
            if accepted != ok:
                wrong.append((40_000 + seed, name, p, c))
    report("fantan mutations", deals=deals(300), mutations=mutations, refused=refused)
    assert not wrong, wrong[:5]
