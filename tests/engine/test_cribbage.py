"""Cribbage: worked examples from cribbage.sv.txt, the full distributions, pegging, the game,
and discard advice against brute force."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace

import pytest

from engine import cribbage as c
from engine.cards import FULL_DECK, parse_card, parse_cards
from engine.errors import IllegalEvent


def show(hand: str, starter: str, crib: bool = False) -> c.Breakdown:
    return c.score_hand(parse_cards(hand), parse_card(starter), crib=crib)


# --- worked examples -------------------------------------------------------------------------


def test_the_rules_example_5_5_10_k_is_four_fifteens_and_a_pair():
    # "hj5-sp5-kl10-hjK fyra femton … Dessutom är femmorna ett par, så man får totalt 10 poäng"
    breakdown = show("5h 5s 10c kh", "2d")
    assert len(breakdown.of_kind("fifteen")) == 4
    assert len(breakdown.of_kind("pair")) == 1
    assert breakdown.total == 10
    said = c.say(breakdown)
    assert said == "fifteen 2, fifteen 4, fifteen 6, fifteen 8, a pair is 10"
    assert said.params["item"].template == "a pair is {n}"  # each step is translated


def test_three_of_a_kind_is_three_pairs():
    # "En triss (till exempel tre fyror) är värd 6 poäng"
    assert show("4h 4s 4c kd", "9s").total == 6


def test_a_run_is_counted_to_full_length():
    # "En följd på 2-3-4-5 måste räknas som en fyr-följd och ger 4 poäng" (+ 2+3+4+... fifteens?)
    breakdown = show("2h 3s 4c 5d", "ks")
    assert [len(r.cards) for r in breakdown.of_kind("run")] == [4]
    # 2+3+K, 5+K: two fifteens.
    assert breakdown.total == 4 + 4


def test_2_3_4_4_is_two_runs_and_a_pair():
    # "Med 2-3-4-4 har man två tre-följder och ett par"
    breakdown = show("2h 3s 4c 4d", "ks")
    assert [len(r.cards) for r in breakdown.of_kind("run")] == [3, 3]
    assert len(breakdown.of_kind("pair")) == 1
    assert breakdown.total == 3 + 3 + 2 + 2  # 2+3+K = 15


def test_a_triple_run():
    # 3-3-3-4-5: three runs of three, three pairs, fifteens 3+3+4+5? no: 3+3+4+5=15 ×3.
    breakdown = show("3h 3s 3c 4d", "5s")
    assert len(breakdown.of_kind("run")) == 3
    assert breakdown.total == 9 + 6 + 6
    assert c.say(breakdown) == "fifteen 2, fifteen 4, fifteen 6, a triple run of 3 is 21"


def test_queen_king_ace_is_no_run():
    # "essen alltid är lägst; dam-kung-ess är inte en följd"
    assert not show("qh kd ah 7c", "8s").of_kind("run")


def test_ten_and_queen_are_not_a_pair_but_jack_queen_king_is_a_run():
    assert not show("10h qd 2c 7s", "8s").of_kind("pair")
    assert [len(r.cards) for r in show("jh qd kc 2s", "7h").of_kind("run")] == [3]


def test_a_four_card_flush_counts_in_the_hand_but_not_in_the_crib():
    # "Fyra spader i krubban och en hjärter som starter ger alltså inga poäng för flush"
    assert show("2s 4s 6s 8s", "kh").total == 4  # no fifteen among 2, 4, 6, 8, K
    assert show("2s 4s 6s 8s", "kh", crib=True).of_kind("flush") == ()
    assert show("2s 4s 6s 8s", "ks", crib=True).of_kind("flush")[0].points == 5


def test_three_in_the_hand_and_the_starter_are_no_flush():
    # "det räcker inte att tre av handkorten och startern är i samma färg"
    assert not show("2s 4s 6s 8h", "ks").of_kind("flush")


def test_his_nobs_is_the_jack_of_the_starters_suit():
    assert show("jh 2c 4d 7s", "9h").of_kind("nobs")
    assert not show("jh 2c 4d 7s", "9s").of_kind("nobs")


def test_the_best_hand_is_29():
    breakdown = show("5h 5s 5c jd", "5d")
    assert breakdown.total == 29
    assert c.say(breakdown).endswith("double pair royal is 28, his nobs is 29")


def test_a_hand_of_no_points_is_said_nineteen():
    breakdown = show("2h 4s 6c 8d", "kh")
    assert breakdown.total == 0
    assert c.say(breakdown) == "nineteen"
    assert c.KIND_WORDS["nobs"] == "his nobs"


def test_bad_shows_are_refused():
    with pytest.raises(IllegalEvent, match="twice"):
        show("5h 5h 5c jd", "5d")
    with pytest.raises(IllegalEvent, match="four cards"):
        c.score_hand(parse_cards("5h 5s 5c"), parse_card("5d"))


# --- the fast path and the full distribution --------------------------------------------------


def test_the_fast_path_agrees_with_the_breakdown_on_random_shows():
    rng = random.Random(1)
    for _ in range(3000):
        cards = rng.sample(FULL_DECK, 5)
        crib = rng.random() < 0.5
        numbers = [c.card_number(x) for x in cards]
        assert (
            c.hand_points(numbers[:4], numbers[4], crib)
            == c.score_hand(cards[:4], cards[4], crib).total
        )


def test_the_distribution_agrees_with_naive_scoring_on_a_small_deck():
    # Every hand + starter of a 16-card deck (3, 4, 5 and jacks: runs, fifteens, pairs,
    # flushes and his nobs all occur), scored one by one.
    deck = [n for n in range(52) if (n >> 2) + 1 in (3, 4, 5, 11)]
    naive_hands, naive_cribs = Counter(), Counter()
    for hand in itertools.combinations(deck, 4):
        cards = [c.number_card(n) for n in hand]
        for starter in deck:
            if starter not in hand:
                s = c.number_card(starter)
                naive_hands[c.score_hand(cards, s).total] += 1
                naive_cribs[c.score_hand(cards, s, crib=True).total] += 1
    assert c.distribution(deck) == (naive_hands, naive_cribs)


# The published distribution of all 12,994,800 hands (hand + starter), for a check by a source
# outside this code; the cribs are checked against the hands' relation below.
PUBLISHED_HANDS = {
    0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
    7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
    14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 20: 8068, 21: 2496, 22: 444,
    23: 356, 24: 3680, 28: 76, 29: 4,
}  # fmt: skip


@pytest.mark.slow
def test_the_whole_distribution_of_hands_and_cribs():
    hands, cribs = c.distribution()
    assert sum(hands.values()) == sum(cribs.values()) == 12_994_800
    assert dict(hands) == PUBLISHED_HANDS
    for impossible in (19, 25, 26, 27):
        assert hands[impossible] == cribs[impossible] == 0
    assert hands[29] == cribs[29] == 4
    # A crib differs from a hand only by the four-card flush it does not score: the 4·C(13,4)
    # one-suit hands with any of the 39 starters of another suit lose 4 points each.
    four_flush_shows = 4 * 715 * 39
    lost = sum(hands[t] * t for t in hands) - sum(cribs[t] * t for t in cribs)
    assert lost == 4 * four_flush_shows


# --- pegging ---------------------------------------------------------------------------------


def pegs(cards: str) -> list[int]:
    pile, points = [], []
    for card in parse_cards(cards):
        result = c.peg_points(pile, card)
        points.append(result.points)
        pile.append(card)
    return points


def test_pegging_examples_from_the_rules():
    # "förhand spelar en trea och säger totalsumman 28 … given också en trea … 31 och par": 4
    assert c.peg_points(parse_cards("10h 10s 5c 3d"), parse_card("3s")).points == 4
    # "sexa och en femma … en fyra och få 5 poäng: 2 för … 15, 3 för följden 6-5-4"
    assert pegs("6h 5s 4c") == [0, 0, 5]
    # "2, 4, 3 … följd på tre … en femma … en fyr-följd … en tvåa … tre-följd … en fyra: ingen"
    assert pegs("2h 4s 3c") == [0, 0, 3]
    assert c.peg_points(parse_cards("2h 4s 3c"), parse_card("5d")).points == 4
    assert c.peg_points(parse_cards("2h 4s 3c"), parse_card("2d")).points == 3
    assert c.peg_points(parse_cards("2h 4s 3c"), parse_card("4d")).points == 0


def test_pairs_royal_and_double_pair_royal_while_pegging():
    assert pegs("7h 7s 7c 7d") == [0, 2, 6, 12]


def test_a_card_past_31_is_refused():
    with pytest.raises(IllegalEvent, match="past 31"):
        c.peg_points(parse_cards("10h 10s kc"), parse_card("2d"))


def test_a_card_already_on_the_count_is_refused():
    with pytest.raises(IllegalEvent, match="5♥ has already been played"):
        c.peg_points(parse_cards("5h 10s"), parse_card("5h"))


def test_a_card_played_in_an_earlier_count_of_the_deal_is_refused():
    # The first count went 10♠ 10♥ 5♣ 6♦ = 31; the next count starts afresh.
    first = parse_cards("10s 10h 5c 6d")
    assert c.peg_points([], parse_card("10d"), played=first).count == 10
    with pytest.raises(IllegalEvent, match="10♠ has already been played"):
        c.peg_points([], parse_card("10s"), played=first)
    with pytest.raises(IllegalEvent, match="6♦ has already been played"):
        c.peg_points(parse_cards("2h"), parse_card("6d"), played=first)


def test_a_joker_is_refused_in_the_play_and_as_the_starter():
    with pytest.raises(IllegalEvent, match="without jokers"):
        c.peg_points(parse_cards("5h"), parse_card("joker"))
    with pytest.raises(IllegalEvent, match="without jokers"):
        cut("JK")


def test_a_count_that_holds_a_card_twice_is_refused():
    with pytest.raises(IllegalEvent, match="twice"):
        c.peg_points(parse_cards("5h 5h"), parse_card("3c"))
    with pytest.raises(IllegalEvent, match="twice"):
        c.peg_points(parse_cards("5h"), parse_card("3c"), played=parse_cards("5h 10s"))


# --- the game --------------------------------------------------------------------------------


def play(state, *events):
    for event in events:
        state = c.apply(state, event)
    return state


def test_a_deal_counts_non_dealer_then_dealer_then_crib():
    state = c.new_game(["a", "b"])  # a deals first
    state = play(
        state, {"type": "starter", "card": "5D"}, {"type": "peg", "player": "b", "points": 2}
    )
    with pytest.raises(IllegalEvent, match="counts first"):
        c.apply(state, {"type": "show", "player": "a", "points": 4})
    assert state.log == ("b +2",)
    state = c.apply(state, {"type": "show", "player": "b", "cards": ["5H", "5S", "5C", "JD"]})
    (line,) = state.log
    assert line.template == "{player} hand {points}: {said}"
    assert line.params["said"] == c.say(c.score_hand(parse_cards("5h 5s 5c jd"), parse_card("5d")))
    state = play(state, {"type": "show", "player": "a", "points": 8}, {"type": "crib", "points": 4})
    assert state.log == ("a crib 4", "New deal: b deals")
    assert state.scores == {"a": 12, "b": 31}
    assert state.dealer == "b"
    assert state.phase == "starter"
    assert state.back_pegs == {"a": 8, "b": 2}


def test_his_heels_gives_the_dealer_two():
    state = play(c.new_game(["a", "b"]), {"type": "starter", "card": "JS"})
    assert state.scores["a"] == 2


def test_impossible_hand_totals_are_refused():
    state = play(c.new_game(["a", "b"]), {"type": "starter", "card": "5D"})
    for points in (19, 25, 26, 27, 30):
        with pytest.raises(IllegalEvent):
            c.apply(state, {"type": "show", "player": "b", "points": points})


def cut(starter: str):
    """A game between a (dealing) and b with ``starter`` cut: b shows first."""
    return play(c.new_game(["a", "b"]), {"type": "starter", "card": starter})


def at_the_crib(starter: str):
    return play(
        cut(starter),
        {"type": "show", "player": "b", "points": 2},
        {"type": "show", "player": "a", "points": 2},
    )


def test_29_with_a_five_cut_is_accepted():
    # The best hand: three fives and the jack of the starter's suit with a five cut.
    assert show("5s 5c 5d jh", "5h").total == 29
    state = c.apply(cut("5H"), {"type": "show", "player": "b", "points": 29})
    assert state.scores["b"] == 29


def test_29_with_a_king_cut_is_refused_naming_the_starter():
    with pytest.raises(IllegalEvent) as refused:
        c.apply(cut("KD"), {"type": "show", "player": "b", "points": 29})
    assert str(refused.value) == "with K♦ cut, a hand scores at most 28"


def test_28_with_a_king_cut_is_accepted():
    # Four fives and the king: eight fifteens (16) and six pairs (12).
    assert show("5h 5s 5c 5d", "kd").total == 28
    state = c.apply(cut("KD"), {"type": "show", "player": "b", "points": 28})
    assert state.scores["b"] == 28


def test_19_is_refused_as_a_hand_and_as_a_crib_with_any_starter():
    for starter in FULL_DECK:
        with pytest.raises(IllegalEvent, match="no hand or crib can score 19"):
            c.apply(cut(str(starter)), {"type": "show", "player": "b", "points": 19})
        with pytest.raises(IllegalEvent, match="no hand or crib can score 19"):
            c.apply(at_the_crib(str(starter)), {"type": "crib", "points": 19})


def test_a_crib_of_29_is_accepted_only_with_a_five_cut():
    for starter in FULL_DECK:
        state = at_the_crib(str(starter))
        if starter.rank == 5:
            assert c.apply(state, {"type": "crib", "points": 29}).scores["a"] == 2 + 29
        else:
            with pytest.raises(IllegalEvent, match=f"with {starter.pretty} cut, a crib scores"):
                c.apply(state, {"type": "crib", "points": 29})


def test_a_total_below_the_best_that_no_hand_reaches_with_the_starter_is_refused():
    # With a five cut every hand has a fifteen: a ten-card, or two cards that make ten.
    with pytest.raises(IllegalEvent) as refused:
        c.apply(cut("5H"), {"type": "show", "player": "b", "points": 0})
    assert str(refused.value) == "with 5♥ cut, no hand scores 0"
    # With an ace cut a hand makes 17 only with a four-card flush, which a crib does not count.
    assert c.apply(cut("AS"), {"type": "show", "player": "b", "points": 17}).scores["b"] == 17
    with pytest.raises(IllegalEvent) as refused:
        c.apply(at_the_crib("AS"), {"type": "crib", "points": 17})
    assert str(refused.value) == "with A♠ cut, no crib scores 17"


def test_the_table_of_totals_agrees_with_the_published_distribution():
    # Over all starters, the hands reach exactly the totals the published distribution lists.
    reached = set().union(*(c.possible_totals(s) for s in FULL_DECK))
    assert reached == set(PUBLISHED_HANDS)
    # And the totals no starter allows, as a hand or as a crib, are the four always refused.
    every = [totals for pair in c.IMPOSSIBLE_WITH_STARTER.values() for totals in pair]
    assert frozenset.intersection(*every) == c.IMPOSSIBLE_HAND_TOTALS


@pytest.mark.slow
@pytest.mark.parametrize("rank", range(1, 14))
def test_the_table_of_totals_is_what_brute_force_finds(rank):
    # 249,900 hands scored twice per rank: 0.25 s (3 to 10 s for all 13, as the machine is busy).
    assert c.impossible_totals_by_brute_force(rank) == c.IMPOSSIBLE_WITH_STARTER[rank]


def test_the_game_ends_the_instant_someone_reaches_121_and_skunks_count():
    state = c.new_game(["a", "b"], c.Rules(stake_ore=1000))
    state = c.State(**{**state.__dict__, "scores": {"a": 50, "b": 119}})
    state = play(
        state, {"type": "starter", "card": "5D"}, {"type": "peg", "player": "b", "points": 2}
    )
    assert state.finished
    assert state.winner == "b"
    assert state.skunk == 2  # a at 50: below 61, double skunk
    assert state.transfers == (c.Transfer("a", "b", 3000),)
    assert [(s.player, s.placement) for s in state.standings] == [("b", 1), ("a", 2)]
    with pytest.raises(IllegalEvent, match="over"):
        c.apply(state, {"type": "show", "player": "b", "points": 4})


def test_a_game_to_61_skunks_below_31():
    state = c.new_game(["a", "b"], c.Rules(target=61))
    state = c.State(**{**state.__dict__, "scores": {"a": 30, "b": 59}})
    state = play(state, {"type": "starter", "card": "JD"})  # the dealer a takes 2: 32
    state = play(state, {"type": "show", "player": "b", "points": 2})
    assert state.winner == "b"
    assert state.skunk == 0  # a at 32


def test_three_players_count_from_the_dealers_left():
    state = c.new_game(["a", "b", "c"])
    assert c.show_order(state) == ["b", "c", "a"]


# --- discard advice --------------------------------------------------------------------------


def brute_force_advice(six, is_dealer):
    mine = [c.card_number(x) for x in six]
    unseen = [n for n in range(52) if n not in mine]
    results = {}
    for throw in itertools.combinations(mine, 2):
        keep = [n for n in mine if n not in throw]
        hand = sum(c.hand_points(keep, s) for s in unseen) / len(unseen)
        crib_total, count = 0, 0
        for theirs in itertools.combinations(unseen, 2):
            rest = [n for n in unseen if n not in theirs]
            crib = [*throw, *theirs]
            for s in rest:
                crib_total += c.hand_points(crib, s, crib=True)
                count += 1
        crib = crib_total / count
        results[tuple(sorted(throw))] = (hand, crib)
    return results


@pytest.mark.slow
def test_discard_advice_is_exact_against_brute_force():
    six = parse_cards("5h 5s jd kc 4c 9h")
    fast = {
        tuple(sorted(c.card_number(parse_card(t)) for t in d.throw)): d
        for d in c.discard_advice(six, is_dealer=True)
    }
    slow = brute_force_advice(six, True)
    assert set(fast) == set(slow)
    for throw, (hand, crib) in slow.items():
        assert fast[throw].hand == pytest.approx(hand, abs=1e-9)
        assert fast[throw].crib == pytest.approx(crib, abs=1e-9)


def test_discard_advice_ranks_for_the_dealer_and_against_for_the_other():
    six = parse_cards("5h 5s jd kc 4c 9h")
    dealer = c.discard_advice(six, is_dealer=True)
    other = c.discard_advice(six, is_dealer=False)
    assert len(dealer) == 15
    assert dealer[0].total == max(d.hand + d.crib for d in dealer)
    assert other[0].total == max(d.hand - d.crib for d in other)
    # Throwing the pair of fives to your own crib is better than giving them away.
    fives = next(d for d in dealer if set(d.throw) == {"5H", "5S"})
    assert fives.crib > 8
    with pytest.raises(IllegalEvent):
        c.discard_advice(six[:5], is_dealer=True)


@pytest.mark.parametrize("kind", [[], {"starter": 1}, None, 3])
def test_an_event_type_that_is_not_a_name_is_refused_as_unknown(kind):
    with pytest.raises(IllegalEvent, match="records nothing called|needs a type") as refused:
        c.apply(c.new_game(["a", "b"]), {"type": kind, "card": "5D"})
    assert "records the starter, a peg, a play, a go, a show, the crib" in str(refused.value)


@pytest.mark.parametrize("cards", ["5H 5S 5C JD", {"5H": 1}, 5])
def test_a_show_whose_cards_are_not_a_list_is_refused(cards):
    game = c.apply(c.new_game(["a", "b"]), {"type": "starter", "card": "5D"})
    with pytest.raises(IllegalEvent, match="a show: the cards of the hand must be a list of cards"):
        c.apply(game, {"type": "show", "player": "b", "cards": cards})


def test_a_show_needs_points_or_cards_but_not_both():
    game = c.apply(c.new_game(["a", "b"]), {"type": "starter", "card": "5D"})
    with pytest.raises(
        IllegalEvent, match="a show needs the points of the hand or the cards of the hand"
    ):
        c.apply(game, {"type": "show", "player": "b", "cards": None})
    with pytest.raises(IllegalEvent, match="a show takes the points .* or the cards .*, not both"):
        c.apply(game, {"type": "show", "player": "b", "points": 4, "cards": ["2H"] * 4})
    with pytest.raises(IllegalEvent, match="a hand or crib has four cards"):
        c.apply(game, {"type": "show", "player": "b", "cards": ["2H", "3H", "4H"]})


# --- the declared payloads -------------------------------------------------------------------


def test_the_event_types_are_derived_from_the_declared_events():
    assert c.EVENT_TYPES == ("starter", "peg", "play", "go", "show", "crib") == tuple(c.EVENTS)
    assert c.new_game(["a", "b"]).expected == ("starter",)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            {"type": "peg", "player": "b", "point": 2},
            "a peg records nothing called 'point'; it records the player who pegs, the points",
        ),
        ({"type": "peg", "player": "b", "points": 2, "why": "15"}, "nothing called 'why'"),
        ({"type": "play", "player": "b", "cards": "5"}, "a play records nothing called 'cards'"),
        ({"type": "show", "player": "b", "point": 4}, "a show records nothing called 'point'"),
        ({"type": "go"}, "a go needs the player who says go"),
        ({"type": "play", "player": "b"}, "a play needs the card played"),
        ({"type": "peg", "points": 2}, "a peg needs the player who pegs"),
        (
            {"type": "peg", "player": "b", "points": "2"},
            "a peg: the points pegged must be a whole number",
        ),
        ({"type": "peg", "player": "b", "points": 0}, "from 1 to 29, not 0"),
        ({"type": "peg", "player": "x", "points": 2}, "pegs must be a player at the table"),
        (
            {"type": "play", "player": "b", "card": 14},
            "a play: the card played must be a whole number from 1",
        ),
        ({"type": "play", "player": "b", "card": ["5"]}, "a play: the card played must be"),
        ({"type": "show", "player": "b", "points": 30}, "from 0 to 29, not 30"),
        ({"type": "deal", "player": "b"}, "Cribbage records nothing called 'deal'"),
    ],
)
def test_a_payload_that_does_not_match_its_declaration_is_refused_naming_the_key(event, message):
    game = c.apply(c.new_game(["a", "b"]), {"type": "starter", "card": "5D"})
    with pytest.raises(IllegalEvent, match=message):
        c.apply(game, event)


# --- the play by cards -----------------------------------------------------------------------
# Worked by hand from "Spelet av korten" and "Poäng under spelet" (cribbage.sv.txt); a deals,
# so b ("förhand") leads. Ranks only: "suit does not matter" for pegging.


def card(player, rank):
    return {"type": "play", "player": player, "card": rank}


def go(player):
    return {"type": "go", "player": player}


def cut_for_play(starter="KS", players=("a", "b")):
    return c.apply(c.new_game(list(players)), {"type": "starter", "card": starter})


def test_a_played_deal_scores_fifteen_pair_thirty_one_a_run_and_the_last_card():
    state = play(
        cut_for_play(),
        card("b", "5"),  # 5
        card("a", "10"),  # 15: "Femton … ger 2 poäng" → a 2
        card("b", "7"),  # 22
        card("a", "7"),  # 29, a pair → a 2
        go("b"),  # b has nothing under 31
        card("a", "2"),  # 31 → a 2; "Motståndaren till den som spelade … 31" leads next
    )
    assert state.scores == {"a": 6, "b": 0}
    assert state.count_cards == ()
    assert state.to_play == "b"
    state = play(
        state,
        card("b", "3"),  # 3
        card("a", "4"),  # 7
        card("b", "5"),  # 12, the run 3-4-5 → b 3, and the last of the eight cards → b 1
    )
    assert state.scores == {"a": 6, "b": 4}
    assert state.deals[-1].pegging == {"a": 6, "b": 4}
    assert state.to_play is None
    assert state.expected == ("show",)
    assert state.cards_played == {"a": ("10", "7", "2", "4"), "b": ("5", "7", "3", "5")}


def test_a_go_gives_the_last_player_one_and_the_first_to_say_go_leads_next():
    state = play(
        cut_for_play("8C"),
        card("b", "K"),  # 10
        card("a", "Q"),  # 20
        card("b", "9"),  # 29
        go("a"),
        go("b"),  # nobody can play: b laid the last card → 1 for go
    )
    assert state.scores == {"a": 0, "b": 1}
    assert state.count_total == 0
    assert state.to_play == "a"  # "den som passade först spelar ut"
    state = play(
        state,
        card("a", "5"),  # 5
        card("b", "5"),  # 10, a pair → b 2
        card("a", "5"),  # 15 and a pair royal → a 2 + 6
        card("b", "4"),  # 19; b has played his four cards
        card("a", "7"),  # 26, the last card → a 1 (a 2 would contradict a's go at 29)
    )
    assert state.scores == {"a": 9, "b": 3}
    assert state.log == ("a plays 7 (26): last card, 1",)
    state = play(cut_for_play("8C"), card("b", "5"), card("a", "5"), card("b", "5"))
    assert state.log == ("b plays 5 (15): fifteen, pair royal, 8",)
    assert [str(t) for t in state.log[0].params["reasons"].params.values()] == [
        "fifteen",
        "pair royal",
    ]


def test_runs_in_any_order_and_a_player_alone_plays_on_and_leads_the_next_count():
    state = play(
        cut_for_play(),
        card("b", "2"),  # 2
        card("a", "3"),  # 5
        card("b", "4"),  # 9, run of three → b 3
        card("a", "5"),  # 14, run of four → a 4
        card("b", "A"),  # 15, run A-5 → b 5 + 2
        card("a", "6"),  # 21, run of six → a 6
        card("b", "7"),  # 28, run of seven → b 7; b's cards are gone
    )
    assert state.scores == {"a": 10, "b": 17}
    with pytest.raises(IllegalEvent, match="8 would make the count 36, past 31"):
        c.apply(state, card("a", "8"))
    with pytest.raises(IllegalEvent, match="b has played all four cards"):
        c.apply(state, card("b", "2"))
    # b is out of cards, so he says go by himself: a's go ends the count, b laid the last card.
    state = c.apply(state, go("a"))
    assert state.scores == {"a": 10, "b": 18}
    assert state.to_play == "a"
    state = c.apply(state, card("a", "9"))  # a new count, and the last card → a 1
    assert state.scores == {"a": 11, "b": 18}
    assert state.expected == ("show",)


def test_thirty_one_with_the_last_card_gives_two_not_three():
    state = play(
        cut_for_play(),
        card("b", "9"),
        card("a", "9"),  # 18, pair → a 2
        card("b", "8"),  # 26
        card("a", "5"),  # 31 → a 2
        card("b", "7"),  # 7
        card("a", "8"),  # 15 → a 2
        card("b", "6"),  # 21, run 6-7-8 → b 3
        card("a", "K"),  # 31 with the last card → a 2 only
    )
    assert state.scores == {"a": 8, "b": 3}


def test_a_pair_does_not_reach_back_into_the_previous_count():
    # "Om sista kortet i föregående omgång var, säg, en nia, blir det inte ett par"
    state = play(cut_for_play(), card("b", "K"), card("a", "K"), card("b", "J"), go("a"), go("b"))
    assert state.scores == {"a": 2, "b": 1}
    assert c.apply(state, card("a", "J")).scores == {"a": 2, "b": 1}


def test_a_player_may_pair_his_own_card_after_the_other_says_go():
    # "förhand spelar en tvåa och given passar … kan han spela den och bilda par"
    state = play(cut_for_play(), card("b", "K"), card("a", "Q"), card("b", "9"), go("a"))
    assert c.apply(state, card("b", "A")).scores == {"a": 0, "b": 0}
    state = play(cut_for_play(), card("b", "K"), card("a", "K"), card("b", "5"), go("a"))
    assert state.scores == {"a": 2, "b": 0}
    assert c.apply(state, card("b", "5")).scores == {"a": 2, "b": 2}


def test_the_non_dealer_leads_and_the_players_alternate():
    state = cut_for_play()
    assert state.to_play == "b"
    with pytest.raises(IllegalEvent, match="b plays next .or says go., not a"):
        c.apply(state, card("a", "5"))
    state = c.apply(state, card("b", "5"))
    with pytest.raises(IllegalEvent, match="a plays next"):
        c.apply(state, card("b", "6"))
    with pytest.raises(IllegalEvent, match="a plays next"):
        c.apply(state, go("b"))


def test_three_players_play_clockwise_from_the_dealers_left():
    state = cut_for_play(players=("a", "b", "c"))
    assert state.to_play == "b"
    state = play(state, card("b", "5"), card("c", "5"))
    assert state.to_play == "a"
    # 5, 5 (a pair: c 2), 5 (15 and a pair royal: a 2 + 6)
    assert c.apply(state, card("a", "5")).scores == {"a": 8, "b": 0, "c": 2}


def test_a_go_is_refused_while_every_card_still_fits():
    state = play(cut_for_play(), card("b", "K"), card("a", "A"))
    with pytest.raises(IllegalEvent, match="at 11 every card still fits"):
        c.apply(state, go("b"))
    with pytest.raises(IllegalEvent, match="at 0 every card"):
        c.apply(cut_for_play(), go("b"))


def test_a_fifth_card_of_a_rank_is_refused_counting_the_starter():
    state = play(cut_for_play("5H"), card("b", "5"), card("a", "5"), card("b", "5"))
    assert state.scores == {"a": 2, "b": 8}  # the third five: 15 and a pair royal
    with pytest.raises(IllegalEvent, match="no fifth 5: four are already played or cut"):
        c.apply(state, card("a", "5"))


@pytest.mark.parametrize("given", ["5", 5, "5h", "fem", "sp5", "5 spader"])
def test_a_card_is_its_rank_by_number_or_text_and_the_suit_does_not_matter(given):
    state = c.apply(cut_for_play(), card("b", given))
    assert state.count_cards == ("5",)
    assert state.count_total == 5


@pytest.mark.parametrize(
    ("given", "rank"), [(1, "A"), ("A", "A"), ("ess", "A"), (11, "J"), ("kn", "J"), ("K", "K")]
)
def test_aces_and_court_cards_by_number_and_by_name(given, rank):
    assert c.apply(cut_for_play(), card("b", given)).count_cards == (rank,)


@pytest.mark.parametrize(("given", "message"), [("joker", "without jokers"), ("ZZ", "'ZZ'")])
def test_a_card_that_is_not_a_card_of_the_deck_is_refused(given, message):
    with pytest.raises(IllegalEvent, match=message):
        c.apply(cut_for_play(), card("b", given))


def test_points_and_cards_are_not_mixed_in_one_deal():
    by_points = c.apply(cut_for_play(), {"type": "peg", "player": "b", "points": 2})
    assert by_points.expected == ("peg", "show")
    with pytest.raises(IllegalEvent, match="pegging is recorded as points"):
        c.apply(by_points, card("b", "5"))
    by_cards = c.apply(cut_for_play(), card("b", "5"))
    assert by_cards.expected == ("play", "go")
    with pytest.raises(IllegalEvent, match="played card by card"):
        c.apply(by_cards, {"type": "peg", "player": "a", "points": 2})


def test_the_shows_wait_until_the_play_by_cards_is_over():
    state = c.apply(cut_for_play(), card("b", "5"))
    with pytest.raises(IllegalEvent, match="the play is not over: a is to play a card or say go"):
        c.apply(state, {"type": "show", "player": "b", "points": 2})
    assert cut_for_play().expected == ("peg", "play", "show")


def test_no_card_is_played_before_the_starter_or_after_the_shows():
    with pytest.raises(IllegalEvent, match="after the starter"):
        c.apply(c.new_game(["a", "b"]), card("b", "5"))
    shown = c.apply(cut_for_play(), {"type": "show", "player": "b", "points": 2})
    with pytest.raises(IllegalEvent, match="before the shows"):
        c.apply(shown, card("b", "5"))


def test_the_game_ends_the_instant_the_play_reaches_121():
    state = cut_for_play()
    state = replace(state, scores={"a": 119, "b": 100})
    state = play(state, card("b", "5"))
    state = c.apply(state, card("a", "10"))
    assert state.finished
    assert state.winner == "a"
    assert state.scores["a"] == 121
    assert state.to_play is None
    with pytest.raises(IllegalEvent, match="the game is over"):
        c.apply(state, card("b", "5"))


def test_the_next_deal_starts_a_fresh_play():
    state = play(
        cut_for_play(),
        *(card(p, r) for p, r in zip("babababa", "AAA22233", strict=True)),
        # b held A A 2 3, a A 2 2 3: with K♠ cut, 12 and 14 (a hand of A 2 3 has its run).
        {"type": "show", "player": "b", "points": 12},
        {"type": "show", "player": "a", "points": 14},
        {"type": "crib", "points": 2},
    )
    assert state.dealer == "b"
    assert state.cards_played == {"a": (), "b": ()}
    assert state.count_cards == ()
    assert state.to_play is None
    assert c.apply(state, {"type": "starter", "card": "2C"}).to_play == "a"


def test_the_pad_is_told_which_ranks_fit_and_when_a_go_may_be_said():
    state = cut_for_play("5H")
    assert c.playable_ranks(state) == frozenset(range(1, 14))
    assert not c.go_allowed(state)
    state = play(state, card("b", "5"), card("a", "5"), card("b", "5"), card("a", "K"))
    # 25: only A-6 fit, and the fives are all out (three played, one cut).
    assert c.playable_ranks(state) == {1, 2, 3, 4, 6}
    assert c.go_allowed(state)


# --- a peg remembered late ---------------------------------------------------------------------
# At the table a point from the play that nobody pegged (a go, the last card, a pair) is pegged
# when somebody remembers, often while the hands are counted; the rules have no muggins, and
# the game ends the instant someone reaches the target, in the order things are recorded.


def peg(player, points):
    return {"type": "peg", "player": player, "points": points}


def hand(player, points):
    return {"type": "show", "player": player, "points": points}


def test_a_peg_forgotten_in_the_play_is_pegged_during_the_show_and_moves_the_board():
    state = play(cut_for_play("5D"), peg("b", 2), hand("b", 8))
    assert state.phase == "show"
    assert set(state.expected) == {"show", "peg"}
    state = c.apply(state, peg("a", 1))  # a remembers the go
    assert state.log == ("a +1 (pegged late)",)
    assert state.log[0].template == "{player} +{points} (pegged late)"
    assert state.scores == {"a": 1, "b": 10}
    assert state.back_pegs == {"a": 0, "b": 2}
    assert state.deals[-1].pegging == {"a": 1, "b": 2}
    assert state.deals[-1].hands == {"b": 8}
    assert state.to_show == "a"  # the shows go on where they were
    state = play(state, hand("a", 4))
    assert state.phase == "crib"
    assert set(state.expected) == {"crib", "peg"}
    state = play(state, peg("b", 1), {"type": "crib", "points": 2})
    assert state.deals[-2].pegging == {"a": 1, "b": 3}
    assert state.scores == {"a": 7, "b": 11}


def test_a_deal_with_nothing_pegged_in_the_play_takes_a_late_peg_too():
    state = play(cut_for_play("5D"), hand("b", 8), peg("b", 2))
    assert state.scores == {"a": 0, "b": 10}
    assert state.deals[-1].pegging == {"b": 2}


def test_a_late_peg_that_reaches_121_wins_and_nothing_after_it_counts():
    state = replace(cut_for_play("5D"), scores={"a": 119, "b": 100})
    state = play(state, hand("b", 20))  # b 120
    state = c.apply(state, peg("a", 2))  # a's forgotten pair: 121, before a's own hand
    assert state.finished
    assert state.winner == "a"
    assert state.scores == {"a": 121, "b": 120}
    assert state.log == ("a +2 (pegged late)", "a wins")
    with pytest.raises(IllegalEvent, match="the game is over"):
        c.apply(state, hand("a", 4))


def test_a_deal_played_card_by_card_takes_no_peg_during_the_shows():
    state = play(
        cut_for_play(),
        *(card(p, r) for p, r in zip("babababa", "AAA22233", strict=True)),
        hand("b", 12),
    )
    assert state.expected == ("show",)
    with pytest.raises(IllegalEvent, match="played card by card, so the app counts"):
        c.apply(state, peg("a", 1))
    state = c.apply(state, hand("a", 14))
    assert state.expected == ("crib",)
    with pytest.raises(IllegalEvent, match="played card by card, so the app counts"):
        c.apply(state, peg("a", 1))


def test_a_peg_before_the_starter_is_refused_and_after_the_crib_it_waits_for_the_next_cut():
    with pytest.raises(IllegalEvent, match="after the starter"):
        c.apply(c.new_game(["a", "b"]), peg("b", 2))
    counted = play(cut_for_play("5D"), hand("b", 8), hand("a", 4), {"type": "crib", "points": 2})
    assert counted.phase == "starter"
    assert "peg" not in counted.expected
    with pytest.raises(IllegalEvent, match="after the starter"):
        c.apply(counted, peg("b", 2))


# --- what no table can produce (issue 25) --------------------------------------------------------
# Worked by hand from the rules text: a deck has each card once; the four cards a player shows
# are the four he played; a go says no card in hand fitted; the points said are points some four
# cards could make together with everything else the deal shows.


def cards_of(player, *codes):
    return {"type": "show", "player": player, "cards": list(codes)}


def test_a_card_counted_in_one_hand_cannot_be_counted_in_another_or_in_the_crib():
    state = play(cut_for_play("KS"), cards_of("b", "5H", "5S", "10C", "KH"))
    with pytest.raises(IllegalEvent, match="5♥ was already counted in b's hand"):
        c.apply(state, cards_of("a", "5H", "2D", "3D", "4D"))
    state = c.apply(state, cards_of("a", "5D", "2D", "3D", "4D"))
    with pytest.raises(IllegalEvent, match="K♥ was already counted in b's hand"):
        c.apply(state, {"type": "crib", "cards": ["KH", "2C", "3C", "4C"]})
    with pytest.raises(IllegalEvent, match="given twice"):  # the starter
        c.apply(state, {"type": "crib", "cards": ["KS", "2C", "3C", "4C"]})


def test_the_four_cards_shown_are_the_four_cards_played():
    # b laid A A 2 3 and a A 2 2 3 (with K♠ cut): b cannot show a five he never laid.
    state = play(
        cut_for_play("KS"), *(card(p, r) for p, r in zip("babababa", "AAA22233", strict=True))
    )
    with pytest.raises(IllegalEvent, match="b played A A 2 3 but shows A♥ A♦ 2♣ 5♥"):
        c.apply(state, cards_of("b", "AH", "AD", "2C", "5H"))
    state = c.apply(state, cards_of("b", "AH", "AD", "2C", "3H"))  # any suits of those ranks
    assert state.deals[-1].hands == {"b": 12}
    with pytest.raises(IllegalEvent, match="a played A 2 2 3 but shows"):
        c.apply(state, cards_of("a", "AS", "2D", "3C", "3D"))


def test_a_crib_card_cannot_be_a_fifth_card_of_a_rank_played_or_cut():
    # 5♥ cut; b lays 5, a 5, b 5: four fives are out, so no five is left for the crib.
    state = play(
        cut_for_play("5H"),
        *(card(p, r) for p, r in zip("babababa", "555KA234", strict=True)),
        hand("b", 8),  # 5 5 A 3 with 5♥: fifteen 5-5-5 (2), pair royal (6)
        hand("a", 6),  # 5 K 2 4 with 5♥: two fifteens 5-K (4), the fives a pair (2)
    )
    with pytest.raises(IllegalEvent, match="5♣ cannot be in the crib"):
        c.apply(state, {"type": "crib", "cards": ["5C", "9C", "9D", "9H"]})


def test_a_card_laid_after_a_go_that_would_have_fitted_then_is_refused():
    state = play(
        cut_for_play("8C"),
        card("b", "K"),  # 10
        card("a", "Q"),  # 20
        card("b", "9"),  # 29
        go("a"),  # a: nothing under 31, so no ace and no two in a's hand
        go("b"),  # b 1 for go
        card("a", "5"),
        card("b", "5"),
        card("a", "5"),
        card("b", "4"),
    )
    with pytest.raises(IllegalEvent, match="a said go at 29, so he held no card that fitted; 2"):
        c.apply(state, card("a", "2"))
    with pytest.raises(IllegalEvent, match="a said go at 29"):
        c.apply(state, card("a", "A"))
    assert c.apply(state, card("a", "7")).scores == {"a": 9, "b": 3}  # 7 makes 36 at 29
    # A game recorded before this check replays as it did.
    old = c.new_game(["a", "b"], legacy_facts=True)
    old = play(
        c.apply(old, {"type": "starter", "card": "8C"}),
        *(e for e in [card("b", "K"), card("a", "Q"), card("b", "9"), go("a"), go("b")]),
        card("a", "5"),
        card("b", "5"),
        card("a", "5"),
        card("b", "4"),
        card("a", "2"),
    )
    assert old.scores == {"a": 9, "b": 3}


def test_points_must_be_what_the_cards_laid_can_make():
    # b laid A A 2 3 with K♠ cut: fifteens K-3-2 and K-3-A-A (4), the aces a pair (2), the
    # double run A-2-3 (6): 12 whatever the suits (two aces: no flush; no jack: no nobs).
    state = play(
        cut_for_play("KS"), *(card(p, r) for p, r in zip("babababa", "AAA22233", strict=True))
    )
    with pytest.raises(IllegalEvent, match="b cannot count 2: with K♠ cut, no four cards"):
        c.apply(state, hand("b", 2))
    assert c.apply(state, hand("b", 12)).deals[-1].hands == {"b": 12}


def test_points_cannot_need_the_cards_another_show_holds():
    # With 5♥ cut, 28 is three fives and a ten-card (29 with the jack of hearts): once b shows
    # 5♠ 5♦ 5♣ J♥ (29), no five is left, so a cannot count 28 (24 still: 4 4 6 6).
    state = play(cut_for_play("5H"), cards_of("b", "5S", "5D", "5C", "JH"))
    assert state.deals[-1].hands == {"b": 29}
    with pytest.raises(IllegalEvent, match="a cannot count 28: with 5♥ cut"):
        c.apply(state, hand("a", 28))
    state = c.apply(state, hand("a", 24))
    with pytest.raises(IllegalEvent, match="the crib cannot count 28: with 5♥ cut"):
        c.apply(state, {"type": "crib", "points": 28})


def test_two_counts_of_points_cannot_share_the_three_fives():
    # 5♥ cut: b says 28 (5 5 5 and a ten-card); a 28 too would need the same three fives.
    state = play(cut_for_play("5H"), hand("b", 28))
    with pytest.raises(IllegalEvent, match="a cannot count 28"):
        c.apply(state, hand("a", 28))
    # And cards shown after a count may not take what that count needed.
    with pytest.raises(
        IllegalEvent, match="5♠ 10♣ J♦ K♥ cannot be: it leaves no four cards for b's 28"
    ):
        c.apply(state, cards_of("a", "5S", "10C", "JD", "KH"))
    # 4 10 J K with 5♥: three fifteens of the five and a ten-card, 6.
    assert c.apply(state, cards_of("a", "4S", "10C", "JD", "KH")).deals[-1].hands["a"] == 6


def test_a_game_recorded_before_the_checks_replays_its_impossible_counts():
    old = c.apply(c.new_game(["a", "b"], legacy_facts=True), {"type": "starter", "card": "5H"})
    old = play(old, hand("b", 28), hand("a", 28), {"type": "crib", "points": 28})
    assert old.scores == {"a": 56, "b": 28}
    assert old.legacy_facts


def test_a_crib_of_28_with_a_ten_cut_needs_the_five_a_player_laid():
    # With 10♦ cut a crib of 28 is the four fives (eight fifteens and six pairs): b laid a five.
    state = play(
        cut_for_play("10D"),
        *(card(p, r) for p, r in zip("babababa", "5K23A467", strict=True)),
        hand("b", 2),  # 5 2 A 6 with 10♦: one fifteen, 5-10
        cards_of("a", "KC", "3C", "4H", "7S"),
    )
    with pytest.raises(IllegalEvent, match="the crib cannot count 28: with 10♦ cut"):
        c.apply(state, {"type": "crib", "points": 28})
    assert c.apply(state, {"type": "crib", "points": 12}).dealer == "b"
