"""Kasino against real cards (issue 25): simulated deals are accepted and score what the
simulator counted; one fact of each deal mutated is refused exactly when no deal can yield it
(``tests.engine.simulate.kasino.possible``, the test's own judge)."""

from __future__ import annotations

import copy
import json

import pytest

from engine import kasino as k
from engine.errors import IllegalEvent
from tests.engine.simulate import deals, report, rng
from tests.engine.simulate.kasino import TIE, play_deal, possible

TABLES = [
    (("a", "b"), False),
    (("a", "b", "c"), False),
    (("a", "b", "c", "d"), False),
    (("a", "b", "c", "d"), True),
]


def simulated(seed: int):
    r = rng(seed)
    players, partnership = TABLES[seed % len(TABLES)]
    dealer = r.choice(players)
    deal = play_deal(r, players, dealer, partnership)
    state = k.new_game(players, k.Rules(target=1000, partnership=partnership), dealer)
    return r, deal, state


def accepted(state, event) -> bool:
    try:
        k.apply(state, event)
    except IllegalEvent:
        return False
    return True


def test_simulated_deals_are_accepted_and_score_as_counted():
    counts = {"deals": 0, "tabbar": 0, "most tabbar in a deal": 0, "most-cards ties": 0}
    for seed in range(deals(60)):
        _r, deal, state = simulated(seed)
        assert deal is not None, seed
        row = k.apply(state, deal.pad_event()).sheet[-1]
        assert list(row.points) == deal.points(), (seed, deal.pad_event())
        assert list(k.apply(state, deal.counts_event()).sheet[-1].points) == deal.points()
        counts["deals"] += 1
        counts["tabbar"] += sum(deal.tabbar.values())
        counts["most tabbar in a deal"] = max(
            counts["most tabbar in a deal"], sum(deal.tabbar.values())
        )
        counts["most-cards ties"] += deal.most(len) is None
    report("kasino (legal deals)", **counts)


# --- mutations -----------------------------------------------------------------------------------


def _names(state, pad: bool) -> list[str]:
    return [side[0] for side in state.sides] if pad else list(state.players)


def mutate(r, state, event: dict, pad: bool) -> tuple[str, dict]:
    """One recorded fact changed: an item to someone else, a "most" to another side or a tie, a
    tabbe more or less, two players' takes swapped, or (counts form) a card or a spade moved or
    added."""
    event = copy.deepcopy(event)
    names = _names(state, pad)
    players = list(state.players)
    kinds = ["item", "tabbar+", "tabbar-", "tabbar++", "swap"]
    kinds += ["most"] if pad else ["card", "spade", "card+"]
    kind = r.choice(kinds)
    if kind == "item":
        item = r.choice(["big_casino", "little_casino", "last", "S", "H", "D", "C"])
        where = event["aces"] if item in "SHDC" else event
        where[item] = r.choice([n for n in names if n != where[item]])
    elif kind == "most":
        item = r.choice(["most_cards", "most_spades"])
        event[item] = r.choice([n for n in [*names, TIE] if n != event[item]])
    elif kind.startswith("tabbar"):
        player = r.choice(players)
        step = {"tabbar+": 1, "tabbar-": -1, "tabbar++": r.randint(2, 12)}[kind]
        event["tabbar"][player] = max(0, event["tabbar"][player] + step)
    elif kind == "swap":
        a, b = r.sample(names, 2)
        swap = {a: b, b: a}
        for item in ("big_casino", "little_casino", "last", "most_cards", "most_spades"):
            if item in event:
                event[item] = swap.get(event[item], event[item])
        event["aces"] = {s: swap.get(p, p) for s, p in event["aces"].items()}
        if not pad:
            for key in ("tabbar", "cards", "spades"):
                event[key] = {swap.get(p, p): n for p, n in event[key].items()}
    else:
        key = "spades" if kind == "spade" else "cards"
        a, b = r.sample(players, 2)
        move = 1 if kind != "card" else r.choice([1, 1, 2, 5])
        event[key][a] -= move
        event[key][b] += 0 if kind == "card+" else move
        if kind == "card+":
            event[key][b] += 2 * move
        if event[key][a] < 0:
            event[key][a] += move  # nobody has fewer than none: bump instead
    return kind, event


@pytest.mark.parametrize("form", ["pad", "counts"])
def test_a_mutated_deal_is_refused_unless_a_deal_can_yield_it(form):
    pad = form == "pad"
    ran = refusals = acceptances = witnessed = 0
    kinds: dict[str, list[int]] = {}
    seen = set()
    for seed in range(deals(30)):
        r, deal, state = simulated(seed)
        if not pad and state.rules.partnership:
            continue  # the counts form names players; partnership play is the pad's
        event = deal.pad_event() if pad else deal.counts_event()
        seen.add(json.dumps(event, sort_keys=True))
        for _ in range(3):
            kind, mutated = mutate(r, state, event, pad)
            if mutated == event:
                continue
            can = possible(mutated, state.players, state.dealer, state.sides)
            took = accepted(state, mutated)
            assert took == can, (seed, kind, mutated, "engine accepted" if took else "refused")
            ran += 1
            refusals += not took
            acceptances += took
            witnessed += took and json.dumps(mutated, sort_keys=True) in seen
            kinds.setdefault(kind, [0, 0])[took] += 1
    report(
        f"kasino (mutations, {form} form)",
        mutations=ran,
        refused=refusals,
        accepted_as_possible=acceptances,
        accepted_and_seen_in_a_simulated_deal=witnessed,
        **{f"{kind} refused/accepted": f"{n[0]}/{n[1]}" for kind, n in sorted(kinds.items())},
    )
    assert ran


def test_every_pair_of_tabbar_counts_near_the_limit_with_two_players_exhaustively():
    # Every pair of tabbar counts from 22 to 25 together (the 48 plays hold 24), a taking every
    # scoring card and sistan, or b taking them (b is förhand): the engine accepts exactly the
    # pairs the test's own search of the plays finds a deal for. Fewer tabbar always fit.
    dealer = "a"
    accepted_pairs = records = 0
    for taker in ("a", "b"):
        state = k.new_game(("a", "b"), k.Rules(target=1000), dealer)
        for ta in range(25):
            for tb in range(max(0, 22 - ta), min(25, 26 - ta)):
                records += 1
                event = {
                    "type": "deal",
                    "most_cards": taker,
                    "most_spades": taker,
                    "big_casino": taker,
                    "little_casino": taker,
                    "aces": dict.fromkeys("SHDC", taker),
                    "last": taker,
                    "tabbar": {"a": ta, "b": tb},
                }
                can = possible(event, state.players, dealer, state.sides)
                assert accepted(state, event) == can, (taker, ta, tb, can)
                accepted_pairs += can
    report("kasino (two players, tabbar 22-25)", records=records, possible=accepted_pairs)
