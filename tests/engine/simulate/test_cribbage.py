"""Cribbage with real cards (issue 25): simulated legal deals are accepted and scored as the
simulator counted them; a record with one fact changed is refused unless one shuffled deck could
still have produced it."""

from __future__ import annotations

import copy

from engine import cribbage as c
from engine.cards import FULL_DECK, parse_card
from engine.errors import IllegalEvent
from tests.engine.simulate import deals, report, rng
from tests.engine.simulate.cribbage import (
    Deal,
    facts_of,
    lay_points,
    producible,
    show_points,
    simulate_deal,
    value,
)

SEATS = ("a", "b", "c")


def test_the_simulators_own_counting_agrees_with_the_rules_examples():
    # "hj5-sp5-kl10-hjK är fyra femton … totalt 10 poäng" (the starter one of the five).
    hand = [parse_card(t) for t in ("5H", "5S", "10C", "KH")]
    assert show_points(hand[:3] + [parse_card("2D")], hand[3]) == 10
    # "förhand spelar en tvåa … given … fyra … förhand … trea … följd på tre" and the rest.
    assert lay_points([2, 4], 3) == 3
    assert lay_points([2, 4, 3], 5) == 4
    assert lay_points([4, 3], 4) == 0
    assert lay_points([6, 5], 4) == 5  # 15 and the run 6-5-4
    assert lay_points([10, 10, 5, 3], 3) == 4  # 31 and a pair
    assert value(13) == 10


def _play_game(seed: int, budget: int) -> int:
    """One game of simulated deals, the board followed event by event; the deals played."""
    r = rng(seed)
    players = SEATS[: r.choice((2, 2, 2, 3))]
    target = r.choice((121, 121, 61))
    state = c.new_game(players, c.Rules(target=target), first_dealer=r.choice(players))
    scores = dict.fromkeys(players, 0)
    played = 0
    while not state.finished and played < budget:
        deal = simulate_deal(r, players, state.dealer)
        played += 1
        for event, gains in zip(deal.events, deal.gains, strict=True):
            try:
                state = c.apply(state, event)
            except IllegalEvent as error:
                raise AssertionError(f"seed {seed}: {event} refused: {error}") from None
            for player, points in gains.items():
                scores[player] = min(scores[player] + points, target)
            assert state.scores == scores, (seed, event)
            if state.finished:
                break
        else:
            row = state.deals[-2]
            assert row.pegging == {p: n for p, n in deal.pegging.items() if n}, seed
            assert row.hands == deal.shows, seed
            assert row.crib == deal.crib_points, seed
            assert row.starter == str(deal.starter)
    return played


def test_simulated_deals_are_accepted_and_score_what_the_simulator_counted():
    total = deals(150)
    played, seed = 0, 0
    while played < total:
        played += _play_game(seed, total - played)
        seed += 1
    report("cribbage games", deals=played, games=seed)


# --- one fact changed ----------------------------------------------------------------------------


def _replay(deal: Deal, events: list[dict]) -> IllegalEvent | None:
    state = c.new_game(deal.players, first_dealer=deal.dealer)
    try:
        for event in events:
            state = c.apply(state, event)
    except IllegalEvent as error:
        return error
    assert not state.finished  # one deal from nothing cannot reach 121
    return None


def _recorded(events: list[dict]) -> set[str]:
    codes = set()
    for e in events:
        if e["type"] == "starter":
            codes.add(str(parse_card(e["card"])))
        codes.update(str(parse_card(x)) for x in e.get("cards") or ())
    return codes


def _mutants(r, deal: Deal):
    """(kind, events, expected): ``expected`` True (still producible), False (no deck gives it)
    or None (decided by ``producible``)."""
    events = deal.events
    shows = [i for i, e in enumerate(events) if e.get("cards") is not None]
    points = [i for i, e in enumerate(events) if e["type"] in ("show", "crib") and "points" in e]
    recorded = _recorded(events)
    unseen = [str(card) for card in FULL_DECK if str(card) not in recorded]
    held = [
        str(card)
        for i in points
        for card in (deal.crib if events[i]["type"] == "crib" else deal.hands[events[i]["player"]])
    ]
    out = []
    if shows:
        # A card counted twice: the starter, or a card shown elsewhere, put into a show.
        i = r.choice(shows)
        others = [x for k in shows if k != i for x in events[k]["cards"]]
        mutated = copy.deepcopy(events)
        mutated[i]["cards"][r.randrange(4)] = r.choice([events[0]["card"], *others])
        out.append(("a card twice", mutated, False))
        # A card moved in from the pack, or from a hand that was counted as points.
        i = r.choice(shows)
        mutated = copy.deepcopy(events)
        pool = held if held and r.random() < 0.5 else unseen
        mutated[i]["cards"][r.randrange(4)] = r.choice(pool)
        out.append(("a card moved in", mutated, None))
    if len(shows) >= 2:
        # Who held what: a card of one show swapped with a card of another.
        i, k = r.sample(shows, 2)
        mutated = copy.deepcopy(events)
        x, y = r.randrange(4), r.randrange(4)
        mutated[i]["cards"][x], mutated[k]["cards"][y] = (
            events[k]["cards"][y],
            events[i]["cards"][x],
        )
        out.append(("a card swapped", mutated, None))
    if points:
        i = r.choice(points)
        mutated = copy.deepcopy(events)
        old = events[i]["points"]
        new = old + r.choice((-3, -2, -1, 1, 2, 3)) if r.random() < 0.7 else r.randrange(30)
        mutated[i]["points"] = max(0, min(29, new)) if new != old else (old + 1) % 30
        if mutated[i]["points"] != old:
            out.append(("a count bumped", mutated, None))
    # Another starter from the pack.
    mutated = copy.deepcopy(events)
    mutated[0]["card"] = r.choice(unseen)
    out.append(("another starter", mutated, None))
    # A card laid after its player said go that would have fitted then.
    for n, (player, count) in enumerate(deal.gone):
        later = [
            i
            for i, e in enumerate(events)
            if e["type"] == "play" and e["player"] == player and i > _nth_go(events, player, n)
        ]
        fitting = [rank for rank in range(1, 14) if count + value(rank) <= 31]
        if later and fitting:
            i = r.choice(later)
            rank = r.choice([x for x in fitting if x != events[i]["card"]] or fitting)
            if rank != events[i]["card"]:
                mutated = copy.deepcopy(events)
                mutated[i]["card"] = rank
                out.append(("a go contradicted", mutated, False))
                break
    return out


def _nth_go(events: list[dict], player: str, n: int) -> int:
    """The index of the ``n``-th go of the deal, which ``player`` said."""
    gos = [i for i, e in enumerate(events) if e["type"] == "go"]
    assert events[gos[n]]["player"] == player
    return gos[n]


def test_a_record_with_one_fact_changed_is_refused_unless_a_deck_can_give_it():
    total = deals(40)
    found: dict[str, int] = {}
    refused = accepted = undecided = 0
    for seed in range(total):
        r = rng(10_000 + seed)
        players = SEATS[: r.choice((2, 2, 2, 3))]
        deal = simulate_deal(r, players, r.choice(players), cards_shown=0.6)
        assert _replay(deal, deal.events) is None, seed
        for kind, events, expected in _mutants(r, deal):
            if expected is None:
                expected = producible(facts_of(deal, events))
            if expected is None:
                undecided += 1
                continue
            error = _replay(deal, events)
            found[kind] = found.get(kind, 0) + 1
            if expected:
                assert error is None, f"seed {seed}, {kind}: a possible deal refused: {error}"
                accepted += 1
            else:
                assert error is not None, f"seed {seed}, {kind}: an impossible deal accepted"
                refused += 1
    report(
        "cribbage mutations",
        deals=total,
        mutations=refused + accepted,
        refused=refused,
        still_possible=accepted,
        undecided=undecided,
        **{kind.replace(" ", "_"): n for kind, n in found.items()},
    )
