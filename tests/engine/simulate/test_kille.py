"""Kungsholmskille against real cards (issue 25): simulated legal deals are accepted and settled
as the simulator counted; one recorded fact changed is refused unless some deal still yields it
(the oracle in ``tests.engine.simulate.kille``)."""

from __future__ import annotations

import random

from engine import kille as k
from engine.cards import KilleRank
from tests.engine.simulate import accepted as sim_accepted
from tests.engine.simulate import apply_all, deals, report, rng
from tests.engine.simulate import kille as sim


def _table(rnd: random.Random) -> k.State:
    players = tuple("abcdef"[: rnd.randint(2, 6)])
    pot = rnd.choice((0, 0, 600, 1200))
    return k.new_game(players, first_dealer=rnd.choice(players), pot_ore=pot)


def _evenings(total: int):
    """(state before the deal, the deal) for ``total`` simulated deals, evening after evening."""
    made = seed = 0
    while made < total:
        rnd = rng(seed)
        seed += 1
        state = _table(rnd)
        for _deal in range(rnd.randint(1, 4)):
            if made >= total:
                return
            deal = sim.simulate(rnd, state)
            yield rnd, state, deal
            state = apply_all(k, state, deal.events)
            made += 1


def test_simulated_deals_are_accepted_and_settled_as_counted():
    counted = {"deals": 0, "showings": 0, "card_by_card": 0, "tapped_after_three": 0}
    for _rnd, state, deal in _evenings(deals(200)):
        after = apply_all(k, state, deal.events)
        counted["deals"] += 1
        if deal.outcome == "showing" or (deal.outcome == "budrunda" and deal.tricks):
            counted["card_by_card"] += deal.recorded_tricks == sim.TRICKS
            counted["tapped_after_three"] += deal.recorded_tricks == sim.TRICKS - 1
        row = after.deals[-1]
        assert row.outcome == deal.outcome
        assert after.pot_ore >= 0
        if deal.outcome == "showing":
            counted["showings"] += 1
            assert row.fourth_trick == deal.fourth_trick
            assert row.first_shower == deal.first_shower
            assert row.winner == deal.winner
            assert row.cards == {p: c.label for p, c in deal.last.items()}
        if deal.outcome == "walkover":
            assert row.winner == deal.winner
    report("kille", **counted)


def _mutations(rnd: random.Random, players, deal: sim.Deal):
    """(what, events of the deal from its tricks on, producible?) for one showing deal."""
    head = deal.events[: deal.before_tricks]
    ranks = list(KilleRank)
    last = dict(deal.last)
    who = rnd.choice(list(last))

    def reveal(cards, fourth):
        first = fourth
        return [
            *([{"type": "trick", "cards": {p: c.label for p, c in t}} for t in tricks]),
            *([{"type": "fourth_trick", "player": fourth}] if tapped else []),
            {"type": "show", "player": first},
            {"type": "reveal", "cards": {p: c.label for p, c in cards.items()}},
        ]

    tricks = [list(t) for t in deal.tricks[: deal.recorded_tricks]]
    tapped = deal.tapped
    # A last card changed.
    changed = {**last, who: rnd.choice([r for r in ranks if r != last[who]])}
    if deal.recorded_tricks == sim.TRICKS:
        yield (
            "last card",
            head + reveal(changed, deal.fourth_trick),
            sim.producible(tricks, changed),
        )
        # One card of one trick changed: the winners (and so the showing) follow the cards.
        j = rnd.randrange(sim.TRICKS)
        i = rnd.randrange(len(tricks[j]))
        p, c = tricks[j][i]
        tricks[j][i] = (p, rnd.choice([r for r in ranks if r != c]))
        played = sim.in_play_order(tricks, players, deal.forhand)
        ok = sim.producible(played, last)
        yield "trick card", head + reveal(last, sim.trick_winner(played[-1])), ok
        tricks[j][i] = (p, c)
        # Two players' last cards swapped.
        a, b = rnd.sample(list(last), 2)
        swapped = {**last, a: last[b], b: last[a]}
        yield "swap", head + reveal(swapped, deal.fourth_trick), sim.producible(tricks, swapped)
    elif deal.recorded_tricks == sim.TRICKS - 1:
        ok = sim.fourth_trick_possible(tricks, changed, deal.fourth_trick)
        yield "last card", head + reveal(changed, deal.fourth_trick), ok
        other = rnd.choice(list(last))
        ok = sim.fourth_trick_possible(tricks, last, other)
        yield "fourth trick", head + reveal(last, other), ok
    else:
        # Only the tap: the first three tricks are open, so any player still in may take the
        # fourth trick with any last cards the deck allows (two of each).
        yield (
            "last card",
            head + reveal(changed, deal.fourth_trick),
            sim.copies_ok(changed.values()),
        )
    folded = [p for p in players if p not in last]
    if folded:
        extra = {**last, rnd.choice(folded): rnd.choice(ranks)}
        yield "folded shows", head + reveal(extra, deal.fourth_trick), False


def test_a_changed_fact_is_refused_unless_some_deal_yields_it():
    counted = {"deals": 0, "mutations": 0, "refused": 0, "still_producible": 0}
    for rnd, state, deal in _evenings(deals(200)):
        counted["deals"] += 1
        if deal.outcome != "showing":
            continue
        for what, events, producible in _mutations(rnd, state.players, deal):
            counted["mutations"] += 1
            accepted = sim_accepted(k, state, events) is not None
            assert accepted == producible, (what, events, deal.tricks, deal.last)
            counted["refused" if not accepted else "still_producible"] += 1
    report("kille mutations", **counted)


def test_the_engine_and_the_oracle_agree_on_the_fourth_trick_after_three_tricks():
    # Exhaustively: every player still in as the tapped winner, on simulated three-trick deals.
    checked = 0
    for _rnd, _state, deal in _evenings(deals(200)):
        if deal.outcome != "showing" or deal.recorded_tricks != sim.TRICKS - 1:
            continue
        three = deal.tricks[:3]
        engine = k.fourth_trick_winners(three, deal.last)
        oracle = {p for p in deal.last if sim.fourth_trick_possible(three, deal.last, p)}
        assert deal.fourth_trick in oracle
        assert engine == oracle, (three, deal.last)
        checked += 1
    report("kille fourth trick", deals=checked)
