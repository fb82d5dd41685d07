"""Kille (elimination) against real cards (issue 25): simulated legal deals are accepted and
scored as the simulator counted; one recorded fact changed is refused unless some deal still
yields it."""

from __future__ import annotations

from collections import Counter

from engine import kille_elimination as ke
from engine.cards import KilleRank
from engine.errors import IllegalEvent
from tests.engine.simulate import apply_all, deals, report, rng
from tests.engine.simulate import kille_elimination as sim


def _games(total: int):
    """(rnd, state before the deal, the deal) for ``total`` simulated deals."""
    made = seed = 0
    while made < total:
        rnd = rng(seed)
        seed += 1
        players = tuple("abcdef"[: rnd.randint(2, 6)])
        state = ke.new_game(players, first_dealer=rnd.choice(players))
        while not state.finished and made < total:
            deal = sim.simulate(rnd, state.players, state.dealer, state.players_in)
            yield rnd, state, deal
            state = apply_all(ke, state, deal.events)
            made += 1


def test_simulated_deals_are_accepted_and_scored_as_counted():
    counted = {"deals": 0, "declared": 0, "games_over": 0}
    for _rnd, state, deal in _games(deals(150)):
        after = apply_all(ke, state, deal.events)
        row = after.deals[-1]
        assert row.fourth_trick == deal.fourth_trick
        assert row.points == deal.points
        assert row.cards == {p: c.label for p, c in deal.last.items()}
        counted["deals"] += 1
        counted["declared"] += deal.declarer is not None
        counted["games_over"] += after.finished
    report("kille_elimination", **counted)


def _producible(last) -> bool:
    """Any last cards with at most two of a rank: some deal yields them with any fourth-trick
    winner (the engine module's docstring, item 4)."""
    return all(n <= 2 for n in Counter(last.values()).values())


def test_a_changed_fact_is_refused_unless_some_deal_yields_it():
    counted = {"deals": 0, "mutations": 0, "refused": 0, "still_producible": 0, "undecided": 0}
    for rnd, state, deal in _games(deals(150)):
        counted["deals"] += 1
        mutations = []
        who = rnd.choice(list(deal.last))
        changed = {**deal.last, who: rnd.choice([r for r in KilleRank if r != deal.last[who]])}
        ok = _producible(changed)
        if ok:
            found = sim.fourth_trick_for(
                state.players, state.players_in, changed, deal.fourth_trick
            )
            counted["undecided"] += found is None
            assert found is not False, (changed, deal.fourth_trick)
        mutations.append((changed, deal.fourth_trick, ok))
        other = rnd.choice(list(deal.last))
        # Another fourth-trick winner: a fourth trick he takes is built from the shown cards.
        found = sim.fourth_trick_for(state.players, state.players_in, deal.last, other)
        counted["undecided"] += found is None
        assert found is not False, (deal.last, other)
        mutations.append((deal.last, other, True))
        if state.out:
            gone = rnd.choice(state.out)
            mutations.append(({**deal.last, gone: KilleRank.ONE}, deal.fourth_trick, False))
            mutations.append((deal.last, gone, False))
        for last, fourth, producible in mutations:
            counted["mutations"] += 1
            calls = []
            if fourth in state.players_in:
                order = sim.clockwise(state.players, fourth, state.players_in)
                calls = [{"type": "pass", "player": p} for p in order]
            events = [
                {"type": "fourth_trick", "player": fourth},
                *calls,
                {"type": "reveal", "cards": {p: c.label for p, c in last.items()}},
            ]
            try:
                after = apply_all(ke, state, events)
            except IllegalEvent:
                assert not producible, (last, fourth)
                counted["refused"] += 1
                continue
            assert producible, (last, fourth)
            counted["still_producible"] += 1
            assert after.deals[-1].points == sim.points(last, None)
    report("kille_elimination mutations", **counted)
