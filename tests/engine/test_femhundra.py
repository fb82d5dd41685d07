"""Femhundra: worked examples from the rules text (populara_kortspel.sv.txt, "Femhundra regler")
and NOTES.md FH1–FH7, bad input, and hypothesis invariants of the score sheet."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import femhundra as fh
from engine.errors import IllegalEvent

THREE = ("a", "b", "c")
FOUR = ("a", "b", "c", "d")  # sides a & c against b & d
FIVE = ("a", "b", "c", "d", "e")


def deal(tricks, declarer=None, contract=None, players=THREE, **extra):
    """A deal as stored before the auction was recorded: the declarer and contract typed."""
    event = {"type": "deal", "tricks": dict(zip(players, tricks, strict=True)), **extra}
    if declarer is not None:
        event["declarer"] = declarer
        event["contract"] = contract
    return event


def bid(tricks, *calls, players=THREE, **extra):
    """A deal with its auction: the calls in order from förhand."""
    tricks = dict(zip(players, tricks, strict=True))
    return {"type": "deal", "auction": list(calls), "tricks": tricks, **extra}


def play(*events, players=THREE, rules=None):
    """A game of these deals; one that starts with a deal in the old form (declarer and contract
    typed) is a game stored before auctions were recorded (``legacy_deals``)."""
    legacy = bool(events) and "auction" not in events[0]
    state = fh.new_game(players, rules or fh.Rules(), legacy_deals=legacy)
    for event in events:
        state = fh.apply(state, event)
    return state


MISERE = fh.Rules(misere=True)


# --- the bid table (FH1) ---------------------------------------------------------------------


def test_the_bid_table_is_the_avondale_schedule():
    # FH1: 6♠ 40, 6♣ 60, 6♦ 80, 6♥ 100, 6NT 120, each further trick +100, up to 10NT 520.
    assert [fh.BID_VALUES[c] for c in ("6S", "6C", "6D", "6H", "6NT")] == [40, 60, 80, 100, 120]
    assert fh.BID_VALUES["10NT"] == 520
    assert len(fh.BID_VALUES) == 25
    for i, trump in enumerate(("S", "C", "D", "H", "NT")):
        for tricks in range(6, 11):
            assert fh.BID_VALUES[f"{tricks}{trump}"] == 40 + 20 * i + 100 * (tricks - 6)


def test_the_misere_bids_are_worth_250_and_520_or_500_with_four():
    # Anglosaxiska varianten: misär 250, öppen misär 520; the four-player "Undervariant" 500.
    assert fh.bid_value("misere") == 250
    assert fh.bid_value("open_misere") == 520
    assert fh.bid_value("open_misere", players=4) == 500


def test_misere_ranks_after_seven_no_trump_or_by_its_value():
    # FH3: the seed ranks misère between 7NT and 8♠; by value it lies between 8♠ and 8♣.
    order = fh.bid_order(MISERE)
    assert order[order.index("misere") - 1 : order.index("misere") + 2] == ("7NT", "misere", "8S")
    assert order[-1] == "open_misere"
    by_value = fh.bid_order(fh.Rules(misere=True, misere_rank="value"))
    i = by_value.index("misere")
    assert by_value[i - 1 : i + 2] == ("8S", "misere", "8C")
    assert "misere" not in fh.bid_order()


def test_the_help_page_table_shows_every_value():
    # The table is data; its words are English templates the page translates (issue 25: it was
    # Swedish text built outside gettext).
    table = fh.render_bid_table()
    assert table.trumps == ("♠", "♣", "♦", "♥", "NT")
    assert table.rows[0] == (6, (40, 60, 80, 100, 120))
    assert table.rows[-1] == (10, (440, 460, 480, 500, 520))
    assert table.notes == ()
    text = table.text()
    for value in (40, 120, 140, 240, 520):
        assert str(value) in text
    misere = fh.render_bid_table(MISERE)
    assert [line.template for line in misere.notes] == [
        "Misère {value} (ranks between 7NT and 8♠)",
        "Open misère {value} (the highest bid)",
    ]
    assert misere.notes[0] == "Misère 250 (ranks between 7NT and 8♠)"
    assert fh.render_bid_table(MISERE, players=4).notes[1].params == {"value": 500}
    assert "Misère 250" in misere.text()
    assert fh.bid_table(MISERE)[0] == ("6S", "6♠", 40)
    assert ("open_misere", "öppen misär", 520) in fh.bid_table(MISERE)


@pytest.mark.parametrize(
    ("text", "contract"),
    [
        ("8H", "8H"),
        ("8♥", "8H"),
        ("7 sang", "7NT"),
        ("7nt", "7NT"),
        ("6 spader", "6S"),
        ("10 klöver", "10C"),
        ("misär", "misere"),
        ("öppen misär", "open_misere"),
        ("Open Misere", "open_misere"),
        ("open_misere", "open_misere"),
    ],
)
def test_contracts_are_read_as_people_write_them(text, contract):
    assert fh.parse_contract(text) == contract


@pytest.mark.parametrize("text", ["5H", "11NT", "8X", "", "ace"])
def test_a_bid_not_in_the_table_is_refused(text):
    with pytest.raises(IllegalEvent, match="bid"):
        fh.parse_contract(text)


# --- one deal for three ----------------------------------------------------------------------


def test_a_made_contract_scores_its_value_and_the_opponents_ten_a_trick():
    # Poängräkning: "får han lika många poäng som budets värde … Motspelarna får i bägge
    # fallen vardera 10 poäng per stick."
    state = play(deal([8, 1, 1], "a", "8H"))
    assert state.scores == (300, 10, 10)
    assert state.sheet[0].made
    assert state.sheet[0].value == 300


def test_overtricks_score_nothing():
    assert fh.score_deal([9, 1, 0], 0, "8H") == (300, 10, 0)


def test_a_failed_contract_loses_its_value_and_may_go_below_nought():
    assert play(deal([7, 2, 1], "a", "8H")).scores == (-300, 20, 10)


def test_ten_tricks_on_a_bid_worth_less_than_250_score_250():
    # "om hans bud var värt mindre än 250 poäng, får han ändå 250 poäng om han lyckas ta alla
    # tio sticken": 7♠ (140) and 8♠ (240) → 250; 8♣ (260) stays 260.
    assert fh.score_deal([10, 0, 0], 0, "7S") == (250, 0, 0)
    assert fh.score_deal([10, 0, 0], 0, "8S") == (250, 0, 0)
    assert fh.score_deal([10, 0, 0], 0, "8C") == (260, 0, 0)


def test_multi_round_bidding_has_no_250_for_ten_tricks():
    # Budgivningsvariant / FH7.
    rules = fh.Rules(bidding="multi_round")
    assert fh.score_deal([10, 0, 0], 0, "7S", rules=rules) == (140, 0, 0)


def test_with_no_bid_everybody_scores_ten_a_trick():
    # "Om ingen blev spelförare, får alla spelarna helt enkelt 10 poäng per vunnet stick."
    state = play(deal([4, 3, 3]))
    assert state.scores == (40, 30, 30)
    assert state.sheet[0].declarer is None
    assert state.sheet[0].made is None


def test_a_made_misere_scores_250_and_the_opponents_their_tricks():
    # FH5: the general rule when misère is made.
    assert play(deal([0, 6, 4], "a", "misere"), rules=MISERE).scores == (250, 60, 40)


def test_a_failed_misere_pays_the_opponents_for_the_declarers_tricks():
    # "får motspelarna 10 poäng vardera för varje stick som spelföraren tar"
    assert play(deal([2, 5, 3], "a", "misär"), rules=MISERE).scores == (-250, 20, 20)


def test_misere_is_refused_unless_the_table_plays_it():
    with pytest.raises(IllegalEvent, match="misère"):
        play(deal([0, 6, 4], "a", "misere"))


def test_the_deal_passes_clockwise():
    state = fh.new_game(THREE, legacy_deals=True)
    assert (state.dealer, state.forhand) == ("a", "b")
    state = fh.apply(state, deal([4, 3, 3]))
    assert (state.dealer, state.forhand) == ("b", "c")


# --- winning and losing ------------------------------------------------------------------------


def _to_470_480():
    # Rundpass deals: 11 x (40, 40, 20), then (30, 40, 30): a 470, b 480, c 250.
    return [deal([4, 4, 2])] * 11 + [deal([3, 4, 3])]


def test_reaching_500_wins():
    # "Vinnare är den som först uppnår eller överskrider 500 poäng." Open misère: 520.
    state = play(deal([0, 5, 5], "a", "open_misere"), rules=MISERE)
    assert state.scores == (520, 50, 50)
    assert state.finished
    assert state.winners == ("a",)
    assert state.log[0] == "a plays open misère: made"
    assert state.log[-1] == "Winner: a (520)"
    assert state.expected == ()
    with pytest.raises(IllegalEvent, match="over"):
        fh.apply(state, deal([4, 3, 3]))


def test_several_over_500_with_different_totals_the_highest_wins():
    # FH4: a (declarer) 470 + 40 = 510, b 480 + 40 = 520.
    state = play(*_to_470_480(), deal([6, 4, 0], "a", "6S"))
    assert state.scores == (510, 520, 250)
    assert state.winners == ("b",)
    assert [(s.player, s.placement) for s in state.standings] == [("b", 1), ("a", 2), ("c", 3)]


def test_a_club_may_let_the_declarer_win_whenever_he_is_over_500():
    # FH4, the alternative.
    rules = fh.Rules(several_over_500="declarer")
    state = play(*_to_470_480(), deal([6, 4, 0], "a", "6S"), rules=rules)
    assert state.winners == ("a",)


def test_equal_totals_over_500_go_to_the_declarer():
    # "Skulle två … komma upp i 500 eller mer i samma giv, och ha lika många poäng, vinner den
    # som var spelförare i den given." a 510, b 510.
    state = play(*_to_470_480(), deal([6, 3, 1], "a", "6S"))
    assert state.scores == (510, 510, 260)
    assert state.winners == ("a",)
    assert [(s.player, s.placement) for s in state.standings] == [("a", 1), ("b", 2), ("c", 3)]


def test_equal_totals_go_to_the_declarer_wherever_he_sits():
    # a and b at 470; b makes 6♠ (40) while a takes four tricks (40): both 510.
    build = [deal([4, 4, 2])] * 11 + [deal([3, 3, 4])]
    state = play(*build, deal([4, 6, 0], "b", "6S"))
    assert state.scores == (510, 510, 260)
    assert state.winners == ("b",)


ALL_PASS = ("pass", "pass", "pass")


def _to_470_480_bid():
    # The same as _to_470_480, each deal a rundpass auction: a 470, b 480, c 250; a deals next.
    return [bid(e["tricks"].values(), *ALL_PASS) for e in _to_470_480()]


def test_equal_totals_without_a_declarer_go_to_the_first_to_500_in_trick_order():
    # "Var ingen spelförare, vinner den som först nådde upp till 500 poäng i den ordning som
    # sticken spelades." Rundpass, a (470) takes 4 tricks and b (480) 3: both 510. a needs
    # three tricks to reach 500, b two; the engine walks the tricks in the order played.
    build = _to_470_480_bid()
    b_first = ["b", "b", "a", "a", "a", "c", "c", "c", "a", "b"]  # b's 2nd trick: trick 2
    state = play(*build, bid([4, 3, 3], *ALL_PASS, trick_order=b_first))
    assert state.scores == (510, 510, 280)
    assert state.winners == ("b",)
    a_first = ["a", "a", "a", "c", "b", "b", "c", "c", "b", "a"]  # a's 3rd trick: trick 3
    state = play(*build, bid([4, 3, 3], *ALL_PASS, trick_order=a_first))
    assert state.winners == ("a",)
    assert [(s.player, s.placement) for s in state.standings][0] == ("a", 1)


def test_without_the_trick_order_a_tie_at_500_asks_for_it():
    with pytest.raises(IllegalEvent, match="give who took each trick, in the order they were"):
        play(*_to_470_480_bid(), bid([4, 3, 3], *ALL_PASS))


def test_the_trick_order_must_agree_with_the_tricks():
    order = ["a", "a", "a", "a", "a", "c", "c", "c", "b", "b"]  # a 5, b 2
    with pytest.raises(IllegalEvent, match=r"\ba\b.*5.*4"):
        play(bid([4, 3, 3], *ALL_PASS, trick_order=order))


def test_equal_totals_of_two_defenders_also_go_to_the_first_to_500():
    # c declares 6♠ and fails; a (470 + 40) and b (480 + 30) both reach 510: c is not one of
    # them, so the rule for "ingen spelförare" decides: each defender earns his ten as he
    # takes a trick. a deals, so b, c, a call.
    order = ["c", "a", "a", "a", "b", "b", "c", "c", "b", "a"]  # a 500 at trick 4, b at 6
    state = play(*_to_470_480_bid(), bid([4, 3, 3], "pass", "6S", "pass", trick_order=order))
    assert state.scores == (510, 510, 210)
    assert state.winners == ("a",)


def test_two_defenders_reaching_500_on_the_same_trick_of_a_failed_misere_share_the_win():
    # "… får motspelarna 10 poäng vardera för varje stick som spelföraren tar": a and b at 470
    # each earn ten on each of c's tricks at once; after his third both have 500. Nothing in
    # the text tells them apart: a tie.
    build = [bid([4, 4, 2], *ALL_PASS)] * 11 + [bid([3, 3, 4], *ALL_PASS)]
    order = ["a", "c", "b", "a", "c", "c", "a", "b", "a", "b"]
    last = bid([4, 3, 3], "pass", "misere", "pass", trick_order=order)
    state = play(*build, last, rules=MISERE)
    assert state.scores == (500, 500, 10)
    assert state.finished
    assert state.tie
    assert state.log[1] == "c plays misère: set"
    assert state.log[-1] == "a and b reach 500 on the same trick – a draw"
    assert state.winners == ()
    assert [(s.player, s.placement) for s in state.standings] == [("a", 1), ("b", 1), ("c", 3)]


def test_the_pad_is_told_when_the_trick_order_may_decide():
    # Opponents gain at most 100 a deal, so two players at 400 or more may tie at 500.
    assert fh.trick_order_may_decide(play(*_to_470_480_bid())) == ("a", "b")
    assert fh.trick_order_may_decide(play(bid([4, 3, 3], *ALL_PASS))) == ()


# --- deals stored before the auction was recorded (issue 14) -------------------------------


def test_an_old_deal_replays_with_its_typed_first_to_500():
    # Before issue 14 the scorer typed who reached 500 first; stored games replay so, but the
    # name must be one of those tied (a non-player such as "ZZ" is refused now).
    with pytest.raises(IllegalEvent, match="give who took each trick, in the order they were"):
        play(*_to_470_480(), deal([4, 3, 3]))
    with pytest.raises(IllegalEvent, match=r"\bc\b"):
        play(*_to_470_480(), deal([4, 3, 3], first_to_500="c"))
    with pytest.raises(IllegalEvent, match="who reached 500 first must be a player.*ZZ"):
        play(*_to_470_480(), deal([4, 3, 3], first_to_500="ZZ"))
    state = play(*_to_470_480(), deal([4, 3, 3], first_to_500="b"))
    assert state.scores == (510, 510, 280)
    assert state.winners == ("b",)


def test_first_to_500_is_not_typed_beside_an_auction():
    with pytest.raises(IllegalEvent, match="who reached 500 first is not typed with an auction"):
        play(*_to_470_480_bid(), bid([4, 3, 3], *ALL_PASS, first_to_500="b"))


def test_after_an_auction_a_game_takes_no_deal_without_one():
    with pytest.raises(IllegalEvent, match="auction"):
        play(bid([4, 3, 3], *ALL_PASS), deal([8, 1, 1], "a", "8H"))
    # An old game may go on with auctions.
    state = play(deal([8, 1, 1], "a", "8H"), bid([4, 3, 3], *ALL_PASS))
    assert [row.auction is None for row in state.sheet] == [True, False]


def test_falling_to_minus_500_ends_the_game_and_the_best_wins_by_the_back_door():
    # "Spelet är också slut om någon … kommer ned i minus 500 poäng, varvid den som just då
    # ligger bäst till i protokollet vinner."
    state = play(deal([1, 0, 9], "c", "10NT"))
    assert state.scores == (10, 0, -520)
    assert state.finished
    assert state.back_door
    assert state.winners == ("a",)


def test_a_tie_for_the_back_door_is_reported():
    # FH6
    state = play(deal([1, 1, 8], "c", "10NT"))
    assert state.finished
    assert state.tie
    assert state.winners == ()
    assert [(s.player, s.placement) for s in state.standings] == [("a", 1), ("b", 1), ("c", 3)]


# --- four players ----------------------------------------------------------------------------


def test_four_players_score_by_sides():
    # "Poäng ges som ovan till spelförarens sida resp. motspelarsidan."
    state = play(deal([5, 1, 4, 0], "a", "8H", players=FOUR), players=FOUR)
    assert state.scores == (300, 10, 300, 10)
    assert state.sheet[0].partner == "c"
    state = play(deal([4, 2, 3, 1], "a", "8H", players=FOUR), players=FOUR)
    assert state.scores == (-300, 30, -300, 30)


def _b_and_d_to_470():
    return [deal([0, 5, 0, 5], players=FOUR)] * 4 + [deal([3, 4, 0, 3], players=FOUR)]


def test_a_side_cannot_reach_500_on_tricks_when_the_other_side_fails():
    # "det är inte tillåtet att uppnå 500 poäng genom stickpoäng när motståndarsidan går bet i
    # ett kontrakt … står den sidan kvar på 490 poäng"
    state = play(*_b_and_d_to_470(), players=FOUR)
    assert state.scores == (30, 470, 30, 470)
    state = fh.apply(state, deal([4, 2, 2, 2], "a", "8H", players=FOUR))
    assert state.scores == (-270, 490, -270, 490)
    assert state.sheet[-1].points == (-300, 20, -300, 20)
    assert state.sheet[-1].held_at_490
    assert not state.finished


def test_the_defenders_may_reach_500_when_the_contract_is_made():
    state = play(*_b_and_d_to_470(), deal([5, 2, 1, 2], "a", "6S", players=FOUR), players=FOUR)
    assert state.scores == (70, 510, 70, 510)
    assert state.winners == ("b", "d")
    assert {s.player: s.placement for s in state.standings} == {"b": 1, "d": 1, "a": 3, "c": 3}


def test_four_players_have_no_250_for_ten_tricks_unless_the_club_bids_one_round():
    event = deal([6, 0, 4, 0], "a", "7S", players=FOUR)
    assert play(event, players=FOUR).scores == (140, 0, 140, 0)
    one_round = fh.Rules(bidding="one_round")
    assert play(event, players=FOUR, rules=one_round).scores == (250, 0, 250, 0)


def test_the_misere_declarers_partner_sits_out_and_open_misere_is_worth_500():
    # Undervariant: "öppen misär är värt 500 poäng … ska spelförarens partner lägga undan sina
    # kort"
    state = play(deal([0, 5, 0, 5], "a", "misere", players=FOUR), players=FOUR, rules=MISERE)
    assert state.scores == (250, 100, 250, 100)
    with pytest.raises(IllegalEvent, match="aside"):
        play(deal([0, 5, 1, 4], "a", "misere", players=FOUR), players=FOUR, rules=MISERE)
    state = play(deal([0, 5, 0, 5], "a", "open_misere", players=FOUR), players=FOUR, rules=MISERE)
    assert state.scores == (500, 100, 500, 100)
    assert state.winners == ("a", "c")


def test_four_players_are_two_teams_for_the_league_and_other_counts_none():
    # "De som sitter mittemot varandra spelar ihop"; the five-player partner changes per deal.
    assert fh.new_game(FOUR).teams == {"a": 0, "b": 1, "c": 0, "d": 1}
    assert fh.new_game(THREE).teams == {}
    assert fh.new_game(FIVE).teams == {}
    state = play(*_b_and_d_to_470(), deal([5, 2, 1, 2], "a", "6S", players=FOUR), players=FOUR)
    assert state.finished
    assert {state.teams[w] for w in state.winners} == {1}


def test_four_players_cannot_call_a_partner():
    with pytest.raises(IllegalEvent, match="five-player"):
        play(deal([5, 1, 4, 0], "a", "8H", players=FOUR, partner="c"), players=FOUR)


# --- five and two players ----------------------------------------------------------------------


def test_five_players_the_called_partner_wins_or_loses_the_value_too():
    # "Om de går hem tillsammans, får de vardera budets värde som pluspoäng … Skulle de inte gå
    # hem, får de motsvarande minuspoäng"
    made = deal([5, 1, 3, 1, 0], "a", "8H", players=FIVE, partner="c")
    assert play(made, players=FIVE).scores == (300, 10, 300, 10, 0)
    failed = deal([4, 1, 3, 1, 1], "a", "8H", players=FIVE, partner="c")
    assert play(failed, players=FIVE).scores == (-300, 10, -300, 10, 10)
    solo = deal([6, 1, 1, 1, 1], "a", "6NT", players=FIVE)
    assert play(solo, players=FIVE).scores == (120, 10, 10, 10, 10)


def test_five_players_no_partner_on_a_misere_and_not_oneself():
    # "Om man spelar med misärbuden enligt ovan får spelföraren däremot inte utse någon till
    # partner."
    with pytest.raises(IllegalEvent, match="misère"):
        play(
            deal([0, 3, 3, 2, 2], "a", "misere", players=FIVE, partner="c"),
            players=FIVE,
            rules=MISERE,
        )
    with pytest.raises(IllegalEvent, match="himself"):
        play(deal([5, 1, 3, 1, 0], "a", "8H", players=FIVE, partner="a"), players=FIVE)


def test_two_players_play_as_three():
    assert play(deal([6, 4], "a", "6S", players=("a", "b")), players=("a", "b")).scores == (
        40,
        40,
    )


# --- the auction -------------------------------------------------------------------------------


def test_each_player_has_one_chance_clockwise_from_forhand():
    # "Med början på förhand och i medsols ordning … Varje spelare får endast en chans." a
    # deals: b, c, a call; c's 7♠ is the highest bid, so c declares it.
    state = play(bid([1, 1, 8], "pass", "7S", "pass"))
    row = state.sheet[0]
    assert (row.declarer, row.contract) == ("c", "7S")
    assert row.auction == (("b", "pass"), ("c", "7S"), ("a", "pass"))
    assert state.scores == (10, 10, 140)
    assert state.log == (
        "Bidding: b pass, c 7♠, a pass",
        "c plays 7♠: made",
        "a: tricks 1, +10 = 10",
        "b: tricks 1, +10 = 10",
        "c: tricks 8, +140 = 140",
    )
    assert state.log[1].template == "{player} plays {contract}: made"


def test_the_calls_may_come_numbered_as_the_pad_rows_send_them():
    numbered = {"1": "pass", "2": "7S", "3": "pass"}
    order = {str(n): p for n, p in enumerate(["c"] * 8 + ["a", "b"], start=1)}
    state = play(bid([1, 1, 8], trick_order=order) | {"auction": numbered})
    assert state.sheet[0].auction == (("b", "pass"), ("c", "7S"), ("a", "pass"))
    with pytest.raises(IllegalEvent, match="the auction must be"):
        play(bid([1, 1, 8]) | {"auction": {"1": "pass", "3": "7S"}})


def test_the_highest_bid_is_the_contract():
    # "Den som avger det högsta budet (kontraktet) blir spelförare."
    state = play(bid([8, 1, 1], "6S", "6H", "8D"))
    assert (state.sheet[0].declarer, state.sheet[0].contract) == ("a", "8D")


def test_a_bid_must_be_higher_than_the_one_before():
    # "Har en föregående spelare avgett ett bud måste man avge ett högre bud eller passa."
    with pytest.raises(IllegalEvent, match="call 2: c bids 6♦, but 6♥ is already bid"):
        play(bid([8, 1, 1], "6H", "6D", "pass"))
    with pytest.raises(IllegalEvent, match="call 3: a bids 7♠, but 7♠ is already bid"):
        play(bid([8, 1, 1], "pass", "7S", "7S"))


def test_after_one_chance_each_the_auction_is_over():
    with pytest.raises(IllegalEvent, match="over after 3 calls; call 4"):
        play(bid([8, 1, 1], "pass", "7S", "pass", "8S"))


def test_an_auction_that_is_not_over_is_refused():
    with pytest.raises(IllegalEvent, match=r"\ba has still to call"):
        play(bid([8, 1, 1], "pass", "7S"))


def test_when_everybody_passes_it_is_rundpass():
    # "Skulle det bli rundpass, dvs, att ingen avger något bud, finns ingen spelförare":
    # everybody scores ten a trick.
    state = play(bid([5, 3, 2], *ALL_PASS))
    assert state.sheet[0].declarer is None
    assert state.scores == (50, 30, 20)


def test_a_call_must_be_a_bid_or_pass():
    with pytest.raises(IllegalEvent, match="11NT"):
        play(bid([8, 1, 1], "pass", "11NT", "pass"))
    with pytest.raises(IllegalEvent, match="misère is not bid at this table"):
        play(bid([8, 1, 1], "pass", "misere", "pass"))


def test_four_players_bid_round_until_three_passes_and_a_pass_stays_out():
    # "Budgivningen går bordet runt, flera varv om så behövs, tills ett bud följs av tre
    # pass. Så snart en spelare passar får han därefter inte komma tillbaka." a deals: b, c,
    # d, a. c passes, so after b's 8♥ it is d's turn, not c's.
    calls = ("6S", "pass", "7S", "pass", "8H", "pass")
    state = play(bid([3, 5, 0, 2], *calls, players=FOUR), players=FOUR)
    row = state.sheet[0]
    assert (row.declarer, row.partner, row.contract) == ("b", "d", "8H")
    assert row.auction[4:] == (("b", "8H"), ("d", "pass"))
    with pytest.raises(IllegalEvent, match=r"\bd has still to call"):
        play(bid([3, 5, 0, 2], *calls[:5], players=FOUR), players=FOUR)
    with pytest.raises(IllegalEvent, match="over after 6 calls"):
        play(bid([3, 5, 0, 2], *calls, "pass", players=FOUR), players=FOUR)


def test_four_players_a_bid_followed_by_three_passes_ends_it():
    state = play(bid([3, 7, 0, 0], "7S", "pass", "pass", "pass", players=FOUR), players=FOUR)
    assert (state.sheet[0].declarer, state.sheet[0].contract) == ("b", "7S")
    state = play(bid([3, 3, 2, 2], *["pass"] * 4, players=FOUR), players=FOUR)
    assert state.sheet[0].declarer is None


def test_four_players_bid_no_misere_before_someone_bid_seven_spades():
    # "Undervariant: … inget misärbud får avges förrän någon spelare bjudit minst sju spader."
    early = "call 2: c bids misère, but in the four-player game no misère"
    with pytest.raises(IllegalEvent, match=early):
        play(bid([5, 0, 3, 2], "6NT", "misere", players=FOUR), players=FOUR, rules=MISERE)
    with pytest.raises(IllegalEvent, match="call 1: b bids open misère"):
        play(bid([5, 0, 3, 2], "open_misere", players=FOUR), players=FOUR, rules=MISERE)
    # After 7♠ it may: c bids misère over b's 7♠, and d, a and b pass; c's partner a lays his
    # cards aside.
    calls = ("7S", "misere", "pass", "pass", "pass")
    state = play(bid([0, 5, 0, 5], *calls, players=FOUR), players=FOUR, rules=MISERE)
    assert (state.sheet[0].declarer, state.sheet[0].contract) == ("c", "misere")


def test_three_players_may_open_with_misere():
    state = play(bid([5, 5, 0], "pass", "misere", "pass"), rules=MISERE)
    assert state.sheet[0].contract == "misere"


def test_five_players_the_auction_winner_calls_a_partner():
    calls = ("pass", "7H", "pass", "pass", "pass")
    state = play(bid([1, 1, 5, 1, 2], *calls, players=FIVE, partner="e"), players=FIVE)
    row = state.sheet[0]
    assert (row.declarer, row.partner, row.contract) == ("c", "e", "7H")
    assert state.scores == (10, 10, 200, 10, 200)
    with pytest.raises(IllegalEvent, match="declarer"):
        play(bid([3, 4, 2, 1, 0], *["pass"] * 5, players=FIVE, partner="e"), players=FIVE)


def test_a_declarer_or_contract_given_beside_the_auction_must_agree():
    calls = ("pass", "7S", "pass")
    state = play(bid([1, 1, 8], *calls, declarer="c", contract="7♠"))
    assert state.sheet[0].declarer == "c"
    with pytest.raises(IllegalEvent, match="makes c the declarer, not a"):
        play(bid([1, 1, 8], *calls, declarer="a"))
    with pytest.raises(IllegalEvent, match="contract is 7♠, not 8S"):
        play(bid([1, 1, 8], *calls, contract="8S"))
    with pytest.raises(IllegalEvent, match="makes nobody"):
        play(bid([1, 1, 8], *ALL_PASS, declarer="a"))


# --- the payload (issue 14) --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            bid([4, 3, 3], *ALL_PASS, auctoin=["pass"]),
            "a deal records nothing called 'auctoin'; it records the auction, the called partner",
        ),
        ({"type": "deal", "auction": list(ALL_PASS)}, "a deal needs the tricks taken"),
        (
            bid([4, 3, 3], *ALL_PASS) | {"auction": "pass"},
            "a deal: the auction must be a list of calls",
        ),
        (bid([4, 3, 3], *ALL_PASS) | {"auction": []}, "the auction must be a list of calls"),
        (bid([4, 3, 3], *ALL_PASS, trick_order=["a"] * 9), "the order of the tricks must be"),
        (
            bid([4, 3, 3], *ALL_PASS, trick_order=["a"] * 4 + ["z"] * 6),
            "the order of the tricks must be",
        ),
        (bid([4, 3, 3], *ALL_PASS, partner="zz"), "the called partner must be a player"),
        ({"type": "bid"}, "Five Hundred records nothing called 'bid'; it records a deal"),
        ("deal", "mapping"),
    ],
)
def test_a_payload_off_the_declaration_is_refused_naming_the_key(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


def test_the_event_types_come_from_the_table():
    assert fh.EVENT_TYPES == ("deal",)
    assert fh.new_game(THREE).expected == ("deal",)


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (deal([8, 1, 1], "a", "5H"), "5H"),
        (deal([8, 1, 1], "a", "11NT"), "11NT"),
        (deal([8, 1, 0], "a", "8H"), "9"),
        (deal([11, -1, 0], "a", "8H"), r"\ba\b.*11"),
        (deal([8, 1, 1], "x", "8H"), r"\bx\b"),
        (deal([8, 1, 1], "a", None), "contract"),
        ({"type": "deal", "contract": "8H", "tricks": {"a": 8, "b": 1, "c": 1}}, "declarer"),
        ({"type": "deal", "tricks": {"a": 8, "b": 2}}, r"\bc\b"),
        ({"type": "deal", "tricks": {"a": 8, "b": 1, "c": 1, "z": 0}}, r"\bz\b"),
        ({"type": "deal", "tricks": {"a": 8, "b": 1, "c": "1"}}, r"\bc\b"),
        ({"type": "deal"}, "tricks"),
        (deal([8, 1, 1], "a", "8H", partner="b"), "five-player"),
        ({"type": "bid"}, "bid"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


def test_the_rules_refuse_unknown_options():
    with pytest.raises(ValueError, match="bidding"):
        fh.Rules(bidding="twice")


def test_a_game_needs_two_to_five_players():
    with pytest.raises(IllegalEvent, match="2–5"):
        fh.new_game(["a"])
    with pytest.raises(IllegalEvent, match="2–5"):
        fh.new_game(list("abcdef"))


def test_apply_never_changes_the_state_it_was_given_and_the_state_is_json():
    state = fh.new_game(THREE)
    after = fh.apply(state, bid([1, 8, 1], "8H", "pass", "pass"))
    assert state.scores == (0, 0, 0)
    assert state.sheet == ()
    json.dumps(dataclasses.asdict(after))


# --- invariants --------------------------------------------------------------------------------

CONTRACTS = (*fh.BID_VALUES, "misere", "open_misere")


@st.composite
def games(draw):
    players = tuple("abcde"[: draw(st.integers(2, 5))])
    events = []
    for _ in range(draw(st.integers(1, 25))):
        cuts = sorted(
            draw(st.lists(st.integers(0, 10), min_size=len(players) - 1, max_size=len(players) - 1))
        )
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 10], strict=True)]
        declarer = draw(st.sampled_from([None, *range(len(players))]))
        event = deal(tricks, players=players)
        if declarer is not None:
            contract = draw(st.sampled_from(CONTRACTS))
            misere = contract in ("misere", "open_misere")
            if len(players) == 4 and misere:
                partner = (declarer + 2) % 4
                tricks[(declarer + 1) % 4] += tricks[partner]
                tricks[partner] = 0
                event = deal(tricks, players=players)
            event["declarer"] = players[declarer]
            event["contract"] = contract
            if len(players) == 5 and not misere and draw(st.booleans()):
                event["partner"] = players[(declarer + draw(st.integers(1, 4))) % 5]
        events.append(event)
    return players, events


def _with_auction(state, event):
    """The generated deal with an auction that makes its declarer and contract: those before
    him pass, he bids, the rest pass (four players and a misère: somebody bids 7♠ first)."""
    declarer, contract = event.pop("declarer", None), event.pop("contract", None)
    turns = fh.clockwise(state.players, state.forhand, state.players)
    # The trick order is any with the right counts: the engine needs it only for a tie at 500.
    order = [p for p in state.players for _ in range(event["tricks"][p])]
    if declarer is None:
        return {**event, "auction": ["pass"] * len(turns), "trick_order": order}
    i = turns.index(declarer)
    if len(turns) == 4 and contract in ("misere", "open_misere"):
        if i == 0:
            calls = ["6S", "7S", "pass", "pass", contract, "pass"]
        else:
            calls = ["7S", *["pass"] * (i - 1), contract, *["pass"] * (3 - i), "pass"]
    else:
        calls = [*["pass"] * i, contract, *["pass"] * (len(turns) - 1 - i)]
    return {**event, "auction": calls, "trick_order": order}


@settings(max_examples=200, deadline=None)
@given(games())
def test_the_score_sheet_keeps_its_invariants(game):
    players, events = game
    state = fh.new_game(players, MISERE)
    for event in events:
        if state.finished:
            break
        before = state.scores
        state = fh.apply(state, _with_auction(state, dict(event)))
        row = state.sheet[-1]
        assert state.scores == tuple(b + p for b, p in zip(before, row.points, strict=True))
        declaring = {row.declarer, row.partner} - {None}
        for player, points, took in zip(players, row.points, row.tricks, strict=True):
            if player in declaring:
                # The declaring side wins or loses the bid's value (or 250 for ten tricks).
                assert abs(points) in (row.value, 250)
            else:
                # Everybody else earns trick points: ten a trick, never more than 100.
                assert points % 10 == 0
                assert 0 <= points <= 100
                if row.declarer is None and len(players) != 4:
                    assert points == 10 * took
        if len(players) == 4:
            assert state.scores[0] == state.scores[2]
            assert state.scores[1] == state.scores[3]
            if row.made is False:
                defenders = 1 - players.index(row.declarer) % 2
                assert state.scores[defenders] < 500 or before[defenders] >= 500
        finished = max(state.scores) >= 500 or min(state.scores) <= -500
        assert state.finished == finished
    columns = tuple(sum(r.points[i] for r in state.sheet) for i in range(len(players)))
    assert columns == state.scores
    if state.finished and not state.tie:
        best = max(state.scores[players.index(w)] for w in state.winners)
        assert best >= 500 or state.back_door


def test_a_new_game_records_the_auction_and_refuses_a_deal_without_one():
    state = fh.new_game(THREE)
    with pytest.raises(IllegalEvent, match="this game records the auction"):
        fh.apply(state, deal((6, 2, 2), "a", "6S"))
    with pytest.raises(IllegalEvent, match="this game records the auction"):
        fh.apply(state, deal((4, 3, 3)))  # no auction is not a rundpass either
    assert fh.apply(state, bid((6, 2, 2), "6S", "pass", "pass")).sheet[0].declarer == "b"


# --- what no table can produce (issue 25) ------------------------------------------------------


@pytest.mark.parametrize(
    ("tricks", "players"),
    [
        ([4, 3, 2], THREE),  # nine tricks: a card of every hand is missing
        ([5, 4, 2], THREE),  # eleven: one more card than the ten hands hold
        ([0, 11, 0, 0], FOUR),  # eleven for one player: he holds ten cards
    ],
)
def test_the_tricks_of_a_deal_are_ten(tricks, players):
    # Ten cards to each player, one card from each hand to every trick: ten tricks.
    calls = ["pass"] * len(players)
    with pytest.raises(IllegalEvent):
        play(bid(tricks, *calls, players=players), players=players)


def test_the_order_of_the_tricks_names_the_players_as_often_as_their_tricks():
    # a took four tricks, but the order gives him five: one fact of the deal contradicts another.
    order = ["a", "b", "a", "a", "c", "a", "b", "a", "c", "b"]
    with pytest.raises(IllegalEvent) as info:
        play(bid([4, 3, 3], *ALL_PASS, trick_order=order))
    assert (
        str(info.value)
        == "the order of the tricks gives a 5 tricks, but his tricks are recorded as 4"
    )
    assert "trick_order" not in str(info.value)
    good = ["a", "b", "a", "c", "c", "a", "b", "a", "c", "b"]
    assert play(bid([4, 3, 3], *ALL_PASS, trick_order=good)).scores == (40, 30, 30)


def test_the_four_player_misere_partner_takes_no_trick_and_has_none_in_the_order():
    # a bids misère after b's 7♠ (four players: no misère before 7♠); c lays his cards aside.
    calls = ["pass", "7S", "pass", "misere", "pass"]  # förhand b, then c, d, a, b
    made = bid([0, 5, 0, 5], *calls, players=FOUR)
    assert play(made, players=FOUR, rules=MISERE).scores == (250, 100, 250, 100)  # sides
    with pytest.raises(IllegalEvent, match="aside"):
        play(bid([0, 4, 1, 5], *calls, players=FOUR), players=FOUR, rules=MISERE)
    order = ["b", "d", "c", "b", "d", "b", "d", "b", "d", "b"]
    with pytest.raises(IllegalEvent):
        play(bid([0, 5, 0, 5], *calls, players=FOUR, trick_order=order), players=FOUR, rules=MISERE)


def test_legacy_facts_is_taken_and_changes_nothing():
    state = fh.new_game(THREE, legacy_facts=True)
    assert state.legacy_facts
    assert fh.apply(state, bid([4, 3, 3], *ALL_PASS)).scores == (40, 30, 30)
