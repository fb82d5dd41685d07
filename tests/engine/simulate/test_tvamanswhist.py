"""Tvåmanswhist against real cards (issue 25): simulated deals are accepted and score what the
simulator counted; every record the pad (or a hand-made payload) can send is accepted exactly
when a deal can yield it, and the records the simulated deals produced are among those."""

from __future__ import annotations

import copy
from itertools import product

import pytest

from engine import tvamanswhist as t
from engine.errors import IllegalEvent
from tests.engine.simulate import deals, report, rng
from tests.engine.simulate.tvamanswhist import HALF, play_deal, possible

PLAYERS = ("a", "b")


def simulated(seed: int):
    r = rng(seed)
    counting = t.COUNTINGS[seed % len(t.COUNTINGS)]
    dealer = r.choice(PLAYERS)
    deal = play_deal(r, PLAYERS, dealer, loose=seed % 4 == 3)
    state = t.new_game(PLAYERS, t.Rules(counting, deals_to_win=0), dealer)
    return r, counting, deal, state


def accepted(state, event) -> bool:
    try:
        t.apply(state, event)
    except IllegalEvent:
        return False
    return True


def test_simulated_deals_are_accepted_and_score_as_counted():
    seen = set()
    for seed in range(deals(300)):
        _r, counting, deal, state = simulated(seed)
        row = t.apply(state, deal.event(counting)).sheet[-1]
        assert row.counted == deal.counted(counting), seed
        assert row.winner == deal.winner(counting), seed
        # The fuller record a hand-made payload may carry: both players and the last trick.
        full = {"type": "deal", "last": deal.last}
        if counting == "points":
            full |= {"early": deal.early, "late": deal.late}
        else:
            full["tricks"] = deal.counted(counting)
        assert t.apply(state, full).sheet[-1].winner == deal.winner(counting)
        seen.add((deal.early["a"], deal.late["a"], deal.last))
    # Every (early, late, last) the deals produced is one the judge calls possible.
    for early, late, last in seen:
        record = {"early": {"a": early}, "late": {"a": late}, "last": last}
        assert possible(record, "points", PLAYERS)
    report(
        "tvamanswhist (legal deals)",
        deals=deals(300),
        distinct_early_late_last=len(seen),
        of_possible=14 * 14 * 2 - 2 * 14,
    )


def _records(counting: str):
    """Every record of one deal: each split (one player's number, or both players'), with no
    last trick or either player's."""
    lasts = [None, "a", "b"]
    if counting == "points":
        for early, late, last in product(range(HALF + 1), range(HALF + 1), lasts):
            yield {"type": "deal", "early": {"a": early}, "late": {"a": late}, "last": last}
        return
    total = HALF if counting == "13" else 2 * HALF
    for n, last in product(range(total + 1), lasts):
        yield {"type": "deal", "tricks": {"a": n}, "last": last}
        yield {"type": "deal", "tricks": {"a": n, "b": total - n + 1}, "last": last}


@pytest.mark.parametrize("counting", t.COUNTINGS)
def test_every_record_is_accepted_exactly_when_a_deal_can_yield_it(counting):
    state = t.new_game(PLAYERS, t.Rules(counting))
    ran = refused = 0
    for record in _records(counting):
        event = {k: v for k, v in record.items() if v is not None}
        can = possible(event, counting, PLAYERS)
        assert accepted(state, event) == can, (counting, event, can)
        ran += 1
        refused += not can
    report(f"tvamanswhist (every record, {counting} count)", records=ran, refused=refused)


def test_a_mutated_deal_is_refused_unless_a_deal_can_yield_it():
    ran = refusals = 0
    for seed in range(deals(300)):
        r, counting, deal, state = simulated(seed)
        full = {"type": "deal", "last": deal.last}
        if counting == "points":
            full |= {"early": dict(deal.early), "late": dict(deal.late)}
        else:
            full["tricks"] = deal.counted(counting)
        mutated = copy.deepcopy(full)
        kind = r.choice(["last", "move", "bump"])
        key = r.choice(["early", "late"]) if counting == "points" else "tricks"
        a, b = r.sample(PLAYERS, 2)
        if kind == "last":
            mutated["last"] = b if deal.last == a else a
        elif kind == "move" and mutated[key][a]:
            mutated[key][a] -= 1
            mutated[key][b] += 1
        else:
            mutated[key][a] += 1
        can = possible(mutated, counting, PLAYERS)
        assert accepted(state, mutated) == can, (seed, kind, mutated)
        ran += 1
        refusals += not can
    report("tvamanswhist (mutations)", mutations=ran, refused=refusals)
