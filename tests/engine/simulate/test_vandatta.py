"""Vändåtta against real cards (issue 25): simulated legal deals are accepted and scored as the
simulator counted; one recorded fact changed is refused unless some deal still yields it."""

from __future__ import annotations

import random

from engine import vandatta as v
from engine.errors import IllegalEvent
from tests.engine.simulate import apply_all, deals, report, rng
from tests.engine.simulate import vandatta as sim

CATEGORIES = v.CATEGORIES


def _table(rnd: random.Random) -> v.State:
    players = tuple("abcdefgh"[: rnd.randint(2, 8)])
    rules = v.Rules(face_value=rnd.random() < 0.4, elimination=rnd.random() < 0.3)
    return v.new_game(players, rules, first_dealer=rnd.choice(players))


def test_simulated_deals_are_accepted_and_scored_as_counted():
    total = games = 0
    seed = 0
    while total < deals(150):
        rnd = rng(seed)
        seed += 1
        state = _table(rnd)
        games += 1
        while not state.finished and total < deals(150):
            deal = sim.simulate(rnd, state)
            state = apply_all(v, state, deal.events)
            total += 1
            row = state.sheet[-1]
            assert row.winner == deal.winner, seed
            assert row.penalties == {deal.winner: 0, **deal.penalties}, seed
    report("vandatta", deals=total, games=games)


def _mutations(rnd: random.Random, winner: str, hands: dict, face: bool):
    """One recorded fact changed at a time: (name, mutated hands)."""
    losers = list(hands)
    a = rnd.choice(losers)
    b = rnd.choice([p for p in losers if p != a] or [a])
    number = rnd.choice(v.NUMBER_RANKS)

    def changed(**per_player):
        out = {p: dict(h) for p, h in hands.items()}
        for player, delta in per_player.items():
            hand = out.setdefault(player, {})
            for key, n in delta.items():
                hand[key] = hand.get(key, 0) + n
        return out

    kind = rnd.choice(CATEGORIES)
    card = {kind: 1} | ({"pips": number} if face and kind == "numbers" else {})
    less = {k: -n for k, n in card.items()}
    yield "move a card to another loser", changed(**{a: less, b: card})
    yield "add a card", changed(**{a: card})
    yield "take a card away", changed(**{a: less})
    yield "give the winner a card", changed(**{winner: card})
    yield (
        "the winner swaps with a loser",
        {
            **{p: h for p, h in hands.items() if p != a},
            winner: dict(hands[a]),
            a: {},
        },
    )
    yield "swap two losers", {**hands, a: dict(hands[b]), b: dict(hands[a])}
    yield "all of a category", changed(**{a: {kind: v.PER_DECK[kind] * 2}})
    if face:
        yield "the worth one off", changed(**{a: {"pips": rnd.choice((-1, 1))}})


def test_a_changed_fact_is_refused_unless_a_deal_yields_it():
    mutations = refused = false_refusals = undecided = 0
    findings: list[str] = []
    for seed in range(deals(100)):
        rnd = rng(10_000 + seed)
        state = _table(rnd)
        deal = sim.simulate(rnd, state)
        face = state.rules.face_value
        hands = {p: sim.counts(cards, face) for p, cards in deal.hands.items()}
        for name, mutated in _mutations(rnd, deal.winner, hands, face):
            if any(n < 0 for hand in mutated.values() for n in hand.values()):
                continue  # not a record a pad can send
            try:
                ok = sim.producible(deal.winner, mutated, state.decks, face)
            except sim.Undecided:
                undecided += 1
                continue
            mutations += 1
            losers = {p: h for p, h in mutated.items() if p != deal.winner}
            if mutated.get(deal.winner) and any(mutated[deal.winner].values()):
                losers = {deal.winner: mutated[deal.winner], **losers}
            events = sim.events_for(rnd, deal.winner, losers, face, partial=False)
            try:
                apply_all(v, state, events)
                accepted = True
            except IllegalEvent:
                accepted = False
                refused += 1
            if accepted != ok:
                false_refusals += not accepted
                findings.append(f"seed {10_000 + seed} {name}: {mutated} accepted={accepted}")
    report(
        "vandatta mutations",
        deals=deals(100),
        mutations=mutations,
        refused=refused,
        false_refusals=false_refusals,
        undecided=undecided,
        wrong=len(findings),
    )
    assert not findings, findings[:5]
