"""Polskt pass against real cards (issue 25): simulated legal deals are accepted and settled as
the simulator counted; one recorded fact changed is refused unless some deal still yields it."""

from __future__ import annotations

from engine import polskt_pass as pp
from tests.engine.simulate import accepted, apply_all, deals, report, rng
from tests.engine.simulate import polskt_pass as sim


def _evenings(total: int):
    made = seed = 0
    while made < total:
        rnd = rng(seed)
        seed += 1
        players = tuple("abcde"[: rnd.randint(3, 5)])
        rules = pp.Rules(
            bet_size=rnd.choice(pp.BET_SIZES), merge_betar=rnd.random() < 0.3, stake_ore=100
        )
        state = pp.new_game(players, rules, first_dealer=rnd.choice(players))
        for _deal in range(rnd.randint(1, 6)):
            if made >= total:
                return
            deal = sim.simulate(rnd, state.players, state.dealer)
            yield rnd, state, deal
            state = apply_all(pp, state, deal.events)
            made += 1


def test_simulated_deals_are_accepted_and_settled_as_counted():
    counted = {"deals": 0, "passed": 0, "two_spelforare": 0, "la_vola": 0, "no_winner": 0}
    for _rnd, state, deal in _evenings(deals(300)):
        after = apply_all(pp, state, deal.events)
        row = after.sheet[-1]
        counted["deals"] += 1
        assert row.outcome == deal.outcome
        counted["passed"] += deal.outcome == "passed"
        if deal.outcome == "passed":
            continue
        assert row.spelforare == deal.spelforare
        assert row.trump == deal.trump
        assert row.winner == deal.winner
        counted["two_spelforare"] += len(deal.spelforare) == 2
        counted["la_vola"] += deal.la_vola is not None
        counted["no_winner"] += deal.outcome == "no_winner"
    report("polskt_pass", **counted)


def _head(deal: sim.Deal) -> list[dict]:
    return [e for e in deal.events if e["type"] in ("deal", "bid", "all_pass")]


def test_a_changed_fact_is_refused_unless_some_deal_yields_it():
    counted = {"deals": 0, "mutations": 0, "refused": 0, "still_producible": 0}

    def check(state, events, producible, winner=...):
        counted["mutations"] += 1
        after = accepted(pp, state, events)
        assert (after is not None) == producible, events
        counted["still_producible" if producible else "refused"] += 1
        if after is not None and winner is not ...:
            assert after.sheet[-1].winner == winner

    for rnd, state, deal in _evenings(deals(300)):
        counted["deals"] += 1
        players = state.players
        head = _head(deal)
        first = dict(head[0])
        # The turn-up: an eight at fewer than five players; a forced take refused; a take of a
        # card that stays.
        if len(players) < 5:
            check(state, [{**first, "rank": "8"}], False)
        if first["rank"] == "J" or first.get("cutter_jack"):
            check(state, [{**first, "dealer_takes": False}], False)
        elif first["rank"] not in ("A",):
            check(state, [{**first, "dealer_takes": True}], False)
        if deal.outcome == "passed":
            continue
        taken = deal.taken
        if deal.la_vola is None:
            # One trick moved to another player, the order kept: still five tricks, and any
            # sequence of winners is reachable; the winner is the text's.
            i = rnd.randrange(sim.TRICKS)
            other = rnd.choice([p for p in players if p != taken[i]])
            moved = [*taken[:i], other, *taken[i + 1 :]]
            check(
                state,
                [*head, {"type": "tricks", "winners": moved}],
                True,
                sim.winner_of(moved, players),
            )
            counts = {p: moved.count(p) for p in players}
            twos = [p for p, n in counts.items() if n == 2]
            event = {"type": "tricks", "counts": counts}
            if len(twos) == 2:
                event["first_two"] = sim.first_to_two(moved)
            check(state, [*head, event], True, sim.winner_of(moved, players))
            # One count bumped: six tricks.
            bumped = {p: taken.count(p) for p in players}
            bumped[other] += 1
            check(state, [*head, {"type": "tricks", "counts": bumped}], False)
            # Who reached two first named with fewer than two tricks.
            few = [p for p in players if counts[p] < 2]
            if few:
                event = {"type": "tricks", "counts": counts, "first_two": rnd.choice(few)}
                check(state, [*head, event], False)
            # La vola by someone who did not take the first two tricks.
            if taken[0] != taken[1] or rnd.random() < 0.5:
                said = rnd.choice(players)
                # Producible only if he took the first two and play went on to his first loss
                # (or to the end): the first trick he lost must be the last one listed.
                lost = next((j for j, p in enumerate(taken) if p != said), None)
                ok = taken[:2] == [said, said] and (lost is None or lost == len(taken) - 1)
                event = {"type": "tricks", "winners": list(taken), "la_vola": said}
                check(state, [*head, event], ok)
        else:
            # After la vola the others took one trick at most: a second trick of theirs.
            others = [p for p in players if p != deal.la_vola]
            counts = {p: taken.count(p) for p in players}
            counts[rnd.choice(others)] += 1
            if sum(counts.values()) <= sim.TRICKS:
                event = {"type": "tricks", "counts": counts, "la_vola": deal.la_vola}
                check(state, [*head, event], False)
    report("polskt_pass mutations", **counted)
