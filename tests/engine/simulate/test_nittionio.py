"""Nittionio against real cards (issue 25): simulated legal deals are accepted and scored as the
simulator counted (a point a trick, the bonus by how many made their bids, the premium); one
recorded fact changed is refused unless some deal still yields it: a trick moved to another
player is accepted (any split goes with any bids), a trick bumped, a bid card laid twice or
taken from the table (the turn-up), a card outside the deck, the joker laid when it was turned
up, a bid beyond nine and the premium bidder's bid made "missed" are refused."""

from __future__ import annotations

import itertools

from engine import nittionio as n
from engine.cards import JOKER, Card
from engine.errors import IllegalEvent
from tests.engine.simulate import deals, report, rng
from tests.engine.simulate import nittionio as sim

PLAYERS = ("a", "b", "c")


def _accepts(state: n.State, event: dict) -> bool:
    try:
        n.apply(state, event)
    except IllegalEvent:
        return False
    return True


def _new(rnd) -> n.State:
    rules = n.Rules(variant=rnd.choice(n.VARIANTS))
    return n.new_game(PLAYERS, rules, first_dealer=rnd.choice(PLAYERS))


def _points(deal: sim.Deal, recorded: dict) -> dict[str, int]:
    """The simulator's own count: a point a trick; 30 / 20 / 10 to those who made their bids by
    how many did; the premium to its bidder if he made it, else to each opponent (N1)."""
    made = {p: deal.bids[p] == deal.tricks[p] for p in PLAYERS}
    bonus = {1: 30, 2: 20, 3: 10}.get(sum(made.values()), 0)
    points = {p: deal.tricks[p] + (bonus if made[p] else 0) for p in PLAYERS}
    if deal.premium:
        bidder, kind = deal.premium
        value = 30 if kind == "declare" else 60
        for p in PLAYERS:
            if (p == bidder) == made[bidder]:
                points[p] += value
    return points


def test_simulated_deals_are_accepted_and_scored_as_counted():
    total = games = 0
    seed = 0
    while total < deals(200):
        rnd = rng(seed)
        seed += 1
        state = _new(rnd)
        games += 1
        while not state.finished and total < deals(200):
            deal = sim.simulate(rnd, state)
            state = n.apply(state, deal.event)
            total += 1
            row = state.sheet[-1]
            assert row.tricks == tuple(deal.tricks[p] for p in PLAYERS), seed
            want = _points(deal, deal.event)
            assert row.points == tuple(want[p] for p in PLAYERS), seed
    report("nittionio", deals=total, games=games)


def _with_bid(event: dict, player: str, bid) -> dict:
    return {**event, "bids": {**event["bids"], player: bid}}


def _mutations(rnd, deal: sim.Deal, state: n.State):
    """(name, event, producible) — producible None: the engine may refuse or accept."""
    event = deal.event
    tricks = deal.tricks
    for a, b in itertools.permutations(PLAYERS, 2):
        if tricks[a]:
            moved = {**tricks, a: tricks[a] - 1, b: tricks[b] + 1}
            yield "trick moved", {**event, "tricks": moved}, True
    for a in PLAYERS:
        if tricks[a] < 9:
            yield "trick bumped", {**event, "tricks": {**tricks, a: tricks[a] + 1}}, False
        yield "bid beyond nine", _with_bid(event, a, 10), False
    if deal.premium:
        yield "premium bid missed", _with_bid(event, deal.premium[0], None), False
    joker = state.rules.joker
    laid = {p: [str(c) for c in deal.laid[p]] for p in PLAYERS}
    turn_up = {"turn_up": str(deal.turn_up)} if joker else {}
    cards = dict(event, **turn_up)
    a, b = rnd.sample(PLAYERS, 2)
    # The bid cards as cards, with the turn-up: what the API may record.
    base = {**cards, "bids": {**event["bids"], a: laid[a], b: laid[b]}}
    yield "as laid", base, True
    taken = laid[b][0]
    yield "a card laid twice", _with_bid(base, a, [taken, *laid[a][1:]]), False
    yield "a card not in the deck", _with_bid(base, a, ["5H", *laid[a][1:]]), False
    if joker:
        yield "the turn-up laid", _with_bid(base, a, [str(deal.turn_up), *laid[a][1:]]), False
        if deal.turn_up.rank != JOKER:
            yield "the turn-up is a laid card", {**base, "turn_up": laid[a][0]}, False
        else:
            yield "the turned-up joker laid", _with_bid(base, a, ["JK", *laid[a][1:]]), False
    recorded = [c for bid in base["bids"].values() if isinstance(bid, list) for c in bid]
    used = {*recorded, *([str(deal.turn_up)] if joker else [])}
    fresh = [str(c) for c in _deck(joker) if str(c) not in used]
    card = rnd.choice(fresh)
    producible = card != "JK" or (joker and deal.turn_up.rank != JOKER)
    yield "another card of a hand laid", _with_bid(base, a, [card, *laid[a][1:]]), producible


def _deck(joker: bool) -> tuple[Card, ...]:
    return n._deck(joker)


def test_a_changed_fact_is_refused_unless_a_deal_yields_it():
    total = mutations = refused = 0
    seed = 70_000
    while total < deals(200):
        rnd = rng(seed)
        seed += 1
        state = _new(rnd)
        deal = sim.simulate(rnd, state)
        total += 1
        for name, event, producible in _mutations(rnd, deal, state):
            mutations += 1
            accepted = _accepts(state, event)
            assert accepted == producible, (seed, name, event)
            refused += not accepted
    report("nittionio", deals=total, mutations=mutations, refused=refused)


def test_what_the_simulator_deals_is_one_deck():
    rnd = rng(5)
    for variant in n.VARIANTS:
        state = n.new_game(PLAYERS, n.Rules(variant=variant))
        for _n in range(10):
            deal = sim.simulate(rnd, state)
            cards = [c for hand in deal.hands.values() for c in hand]
            if deal.turn_up is not None:
                cards.append(deal.turn_up)
            assert len(set(cards)) == len(cards) == (37 if state.rules.joker else 36)
            assert sum(deal.tricks.values()) == 9
