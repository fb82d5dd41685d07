"""Cribbage: worked examples from cribbage.sv.txt, the full distributions, pegging, the game,
and discard advice against brute force."""

from __future__ import annotations

import itertools
import random
from collections import Counter

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
    assert c.say(breakdown) == "femton 2, femton 4, femton 6, femton 8, ett par är 10"
    assert c.say(breakdown, "en") == "fifteen 2, fifteen 4, fifteen 6, fifteen 8, a pair is 10"


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
    assert c.say(breakdown) == "femton 2, femton 4, femton 6, trippel följd om 3 är 21"


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
    assert c.say(breakdown).endswith("dubbel par royal är 28, knekten är 29")


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
    state = play(
        state,
        {"type": "show", "player": "b", "cards": ["5H", "5S", "5C", "JD"]},
        {"type": "show", "player": "a", "points": 8},
        {"type": "crib", "points": 4},
    )
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
    with pytest.raises(IllegalEvent, match="unknown event"):
        c.apply(c.new_game(["a", "b"]), {"type": kind, "card": "5D"})


@pytest.mark.parametrize("cards", [None, "5H 5S 5C JD", {"5H": 1}, 5])
def test_a_show_whose_cards_are_not_a_list_is_refused(cards):
    game = c.apply(c.new_game(["a", "b"]), {"type": "starter", "card": "5D"})
    with pytest.raises(IllegalEvent, match="a list of four cards"):
        c.apply(game, {"type": "show", "player": "b", "cards": cards})
