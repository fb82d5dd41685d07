"""Polskt pass: worked examples derived by hand from polskt_pass.sv.txt and NOTES.md P1–P12,
bad input, and hypothesis invariants of the money (nets + pot + betar = 0, nothing negative).

Seats are clockwise in the order given: the dealer's left-hand neighbour (the next seat) is
förhand and deals next, his right-hand neighbour (the previous seat) cuts (P10).
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import polskt_pass as pp
from engine.base import net_by_account
from engine.errors import IllegalEvent

FOUR = ("a", "b", "c", "d")
FIVE = ("a", "b", "c", "d", "e")
TEN_KR = pp.Rules(stake_ore=1000)


def deal(suit="H", rank="9", cutter_jack=False, dealer_takes=None):
    event = {"type": "deal", "suit": suit, "rank": rank, "cutter_jack": cutter_jack}
    if dealer_takes is not None:
        event["dealer_takes"] = dealer_takes
    return event


def bid(player, suit=None):
    event = {"type": "bid", "player": player}
    if suit is not None:
        event["suit"] = suit
    return event


ALL_PASS = {"type": "all_pass"}
END = {"type": "end"}


def trick(winner):
    return {"type": "trick", "winner": winner}


def counts(first_two=None, la_vola=None, **taken):
    event = {"type": "tricks", "counts": taken}
    if first_two:
        event["first_two"] = first_two
    if la_vola:
        event["la_vola"] = la_vola
    return event


def winners(*players, la_vola=None):
    event = {"type": "tricks", "winners": list(players)}
    if la_vola:
        event["la_vola"] = la_vola
    return event


def la_vola(player):
    return {"type": "la_vola", "player": player}


class Table:
    """Applies events and keeps every transfer, as the recording layer does."""

    def __init__(self, players=FOUR, rules=TEN_KR, **setup):
        self.state = pp.new_game(players, rules, **setup)
        self.transfers = list(self.state.transfers)

    def __call__(self, *events):
        for event in events:
            self.state = pp.apply(self.state, event)
            self.transfers.extend(self.state.transfers)
        return self.state

    @property
    def nets(self):
        return net_by_account(self.transfers)

    @property
    def betar(self):
        return [(b.id, b.amount_ore, b.owners) for b in self.state.betar]

    def money(self, **expected_kr):
        """Each player's net in kronor this evening (absent = 0), from the engine and from
        the transfers."""
        players = self.state.players
        wanted = {p: expected_kr.get(p, 0) * 100 for p in players}
        assert dict(self.state.money) == wanted
        assert {p: self.nets.get(p, 0) for p in players} == wanted


# --- the amount played for -----------------------------------------------------------------


def test_the_amount_played_for_is_the_whole_pot_plus_the_least_valuable_bet():
    # P1: "Innehållet i potten plus en eventuell … bet"; "Om det finns två eller fler betar …
    # spelar man om den minst värdefulla av dem". P3: of two equal ones, the oldest.
    betar = (pp.Bet(4, 3000, ("x",)), pp.Bet(5, 2000, ("y",)), pp.Bet(6, 2000, ("z",)))
    assert pp.bet_in_play(betar).id == 5
    assert pp.played_for(1500, betar) == 3500
    assert pp.played_for(1500, ()) == 1500
    assert pp.bet_in_play(()) is None


# --- one evening, deal by deal -------------------------------------------------------------


def test_an_evening_of_four_with_pot_and_betar_deal_by_deal():
    # Stake 10 kr, single betar (P2 default). a deals first; the cutter is d, förhand b.
    table = Table()
    assert (table.state.dealer, table.state.phase) == ("a", "deal")

    # Deal 1: nobody takes a card; c plays in hearts in the first round and takes three
    # tricks. Pot 10 → c. ("En spelare som vinner en vanlig giv … tar hela beloppet.")
    state = table(deal("H", "9"))
    assert (state.phase, state.pot_ore, state.current.amount_ore) == ("bidding", 1000, 1000)
    assert state.current.cutter == "d"
    assert state.current.forhand == "b"
    state = table(bid("c"), counts(c=3, b=1, d=1))
    assert (state.pot_ore, table.betar, state.dealer) == (0, [], "b")
    table.money(a=-10, c=10)

    # Deal 2: b deals. All pass on spades; in the wieder round d plays in diamonds. Trick
    # winners a d a d a: a reaches two first but d could still reach three; a takes the
    # fifth and wins. a takes the pot (10); d has failed and sets a bet of 10 (P2 single).
    state = table(deal("S", "K"), ALL_PASS, bid("d", "D"))
    assert (state.current.spelforare, state.current.trump) == (("d",), "D")
    state = table(trick("a"), trick("d"), trick("a"), trick("d"))
    assert state.phase == "play"  # not decided: d could still take three
    state = table(trick("a"))
    assert state.pot_ore == 0
    assert table.betar == [(1, 1000, ("d",))]
    table.money(a=0, b=-10, c=10, d=-10)

    # Deal 3: c deals; the cutter b took a jack from the bottom, so c must take the turn-up
    # (10♣) and both play alone, trump clubs. Played for: pot 10 + bet 1 (10) = 20. d takes two
    # tricks, the others one each: d wins 20; c and b each set a bet of 20 (P5).
    state = table(deal("C", "10", cutter_jack=True))
    assert state.log == (
        "Deal 3: c deals and puts 10 kr in the pot (10 kr)",
        "b took a jack from the bottom",
        "Turned up 10♣: c takes it; c and b play",
        "Played for 20 kr",
    )
    assert state.log[0].params["stake"] == 1000
    assert state.phase == "play"
    assert (state.current.spelforare, state.current.trump) == (("c", "b"), "C")
    assert (state.current.amount_ore, state.current.bet_in_play) == (2000, 1)
    state = table(counts(d=2, a=1, b=1, c=1))
    assert state.log == (
        "Tricks: a 1, b 1, c 1, d 2",
        "d wins 20 kr: the pot (10 kr) and bet 1 (10 kr)",
        "c places bet 2: 20 kr",
        "b places bet 3: 20 kr",
        "New deal: d deals",
    )
    assert state.pot_ore == 0
    assert table.betar == [(2, 2000, ("c",)), (3, 2000, ("b",))]
    table.money(a=0, b=-30, c=-20, d=10)

    # Deal 4: d deals and chooses to take the turned ace of diamonds: d plays alone, no
    # bidding. Played for: pot 10 + the oldest of the two 20 betar (P3: bet 2) = 30. d takes
    # the first two tricks, says la vola and takes all five: 30 from the pot and bet 2, and
    # 30 from each other player (P7); no bet.
    state = table(deal("D", "A", dealer_takes=True))
    assert (state.current.amount_ore, state.current.bet_in_play) == (3000, 2)
    state = table(trick("d"), trick("d"))
    assert "la_vola" in state.expected
    state = table(la_vola("d"), trick("d"), trick("d"), trick("d"))
    assert state.log[2] == "La vola: each of the others pays d 30 kr"
    assert state.pot_ore == 0
    assert table.betar == [(3, 2000, ("b",))]
    table.money(a=-30, b=-60, c=-50, d=120)

    # Deal 5: a deals a jack (J♠): a must take it and plays alone for pot 10 + bet 3 (20).
    # a takes two tricks, says la vola and loses the third: a passed deal, no payment (P6).
    state = table(deal("S", "J"), trick("a"), trick("a"), la_vola("a"), trick("b"))
    assert state.phase == "deal"
    assert state.sheet[-1].outcome == "la_vola_lost"
    assert (state.pot_ore, table.betar) == (1000, [(3, 2000, ("b",))])
    table.money(a=-40, b=-60, c=-50, d=120)

    # Deal 6: b deals; everybody passes twice. The stake stays in the pot: 20.
    state = table(deal("H", "Q"), ALL_PASS, ALL_PASS)
    assert state.sheet[-1].outcome == "passed"
    assert (state.pot_ore, state.dealer) == (2000, "c")
    table.money(a=-40, b=-70, c=-50, d=120)

    # Deal 7: c deals (pot 30); a plays in clubs in the first round. Played for: 30 + bet 3
    # (20) = 50. a and b take two tricks each, b reaching two first: b wins 50 and a sets 50.
    state = table(deal("C", "9"), bid("a"), counts(first_two="b", a=2, b=2, c=1))
    assert state.pot_ore == 0
    assert table.betar == [(4, 5000, ("a",))]
    table.money(a=-90, b=-20, c=-60, d=120)
    assert table.nets["pot"] == 0
    assert table.nets["bet:4"] == 5000

    # The evening ends; standings by net money. Pot and bet 4 stay for the next evening.
    state = table(END)
    assert state.log == ("The evening is over. The pot of 0 kr, bet 4 (50 kr) stay for next time",)
    assert state.finished
    assert state.expected == ()
    assert [(s.player, s.placement, s.score) for s in state.standings] == [
        ("d", 1, 12000),
        ("b", 2, -2000),
        ("c", 3, -6000),
        ("a", 4, -9000),
    ]
    assert table.betar == [(4, 5000, ("a",))]


def test_the_snapshot_is_json_and_lists_betar_with_owners():
    table = Table()
    state = table(deal("S", "K"), bid("b"), counts(a=3, b=1, c=1))
    data = json.loads(json.dumps(dataclasses.asdict(state)))
    assert data["betar"] == [{"id": 1, "amount_ore": 1000, "owners": ["b"], "deal": 1}]
    assert data["pot_ore"] == 0
    assert data["played_for_ore"] == 2000  # the next deal: stake 10 + bet 1
    assert data["sheet"][0]["winner"] == "a"


# --- who is spelförare ---------------------------------------------------------------------


def test_the_dealer_who_takes_alone_is_the_only_spelforare_and_wins_with_three():
    # "Om bara givaren tog ett kort, är hen ensam spelförare." a deals and takes J♥ (forced).
    table = Table()
    state = table(deal("H", "J"))
    assert (state.current.spelforare, state.current.trump, state.phase) == (("a",), "H", "play")
    assert "bid" not in state.expected
    table(trick("a"), trick("b"), trick("a"), trick("a"))  # decided after four: a has three
    assert table.state.phase == "deal"
    assert table.betar == []
    table.money()  # a paid the stake and took it back


def test_after_the_cutters_jack_the_dealer_takes_any_turn_up_and_both_play():
    # P10: the dealer must take the turn-up whatever it is; both are spelförare.
    state = pp.apply(pp.new_game(FOUR, TEN_KR), deal("S", "Q", cutter_jack=True))
    assert state.current.spelforare == ("a", "d")
    assert state.current.dealer_took


def test_of_two_spelforare_the_one_who_wins_takes_the_amount_and_the_other_sets_a_bet():
    # "Minst en av dem kommer att misslyckas": d (the cutter) wins with three, a sets 10.
    table = Table()
    table(deal("H", "A", cutter_jack=True), counts(d=3, a=1, b=1))
    assert table.betar == [(1, 1000, ("a",))]
    table.money(a=-20, d=10)


def test_an_ace_left_on_the_table_leads_to_bidding():
    table = Table()
    state = table(deal("C", "A", dealer_takes=False))
    assert state.phase == "bidding"
    assert state.current.round == 1
    assert state.expected == ("bid", "all_pass")


def test_in_the_wieder_round_forhand_may_name_the_turned_suit():
    # "Förhand får ange vilken färg som helst – inklusive den uppslagna färgen"
    table = Table()
    state = table(deal("H", "K"), ALL_PASS, bid("b", "H"))
    assert (state.current.spelforare, state.current.trump) == (("b",), "H")


def test_three_players_follow_the_four_player_rules():
    # P11. a deals, c cuts, b is förhand. b plays in spades; tricks b b c c a: b reached two
    # first and nobody took three, so b wins the pot.
    table = Table(players=("a", "b", "c"))
    state = table(deal("S", "10"))
    assert (state.current.cutter, state.current.forhand) == ("c", "b")
    table(bid("b"), winners("b", "b", "c", "c", "a"))
    assert table.state.sheet[-1].winner == "b"
    table.money(a=-10, b=10)


# --- the winner ----------------------------------------------------------------------------


def test_three_tricks_beat_the_player_who_reached_two_first():
    # P9: a takes the first two, b the last three: b wins.
    assert pp.winner_of(["a", "a", "b", "b", "b"], FOUR) == "b"
    table = Table()
    table(deal("H", "9"), bid("a"), trick("a"), trick("a"), trick("b"), trick("b"))
    assert table.state.phase == "play"
    table(trick("b"))
    assert table.state.sheet[-1].winner == "b"
    assert table.betar == [(1, 1000, ("a",))]


def test_the_first_to_two_wins_once_nobody_else_can_reach_three():
    # a b a c: a has two, the others one each with one trick left: a has won.
    assert not pp.decided(["a", "b", "a"], FOUR)
    assert pp.decided(["a", "b", "a", "c"], FOUR)
    assert pp.winner_of(["a", "b", "a", "c"], FOUR) == "a"
    table = Table()
    table(deal("H", "9"), bid("b"), trick("a"), trick("b"), trick("a"), trick("c"))
    assert table.state.phase == "deal"
    assert table.state.sheet[-1].winner == "a"
    assert table.state.sheet[-1].tricks == {"a": 2, "b": 1, "c": 1}


def test_counts_with_two_players_at_two_need_to_say_who_got_there_first():
    table = Table()
    table(deal("H", "9"), bid("b"))
    with pytest.raises(IllegalEvent, match="first"):
        table(counts(a=2, b=2, c=1))
    with pytest.raises(IllegalEvent, match="c took 1 trick"):
        table(counts(first_two="c", a=2, b=2, c=1))
    table(counts(first_two="a", a=2, b=2, c=1))
    assert table.state.sheet[-1].winner == "a"


def test_the_winner_order_gives_who_reached_two_first():
    table = Table()
    table(deal("H", "9"), bid("b"), winners("b", "a", "a", "c", "b"))
    assert table.state.sheet[-1].winner == "a"
    assert table.state.sheet[-1].tricks == {"a": 2, "b": 2, "c": 1}


# --- la vola -------------------------------------------------------------------------------


def test_a_won_la_vola_in_one_entry_by_counts():
    # P7: the amount played for from the pot, and the same from each of the three others.
    table = Table()
    table(deal("H", "9"), bid("c"), counts(la_vola="c", c=5))
    assert table.state.sheet[-1].outcome == "la_vola_won"
    table.money(a=-20, b=-10, c=40, d=-10)


def test_a_won_la_vola_by_counts_has_five_tricks_not_six():
    # Five tricks to the la vola player leave none for anyone else.
    table = Table()
    table(deal("H", "9"), bid("c"))
    with pytest.raises(IllegalEvent, match="add up to 6, but a deal has 5"):
        table(counts(la_vola="c", c=5, a=1))
    assert table.state.sheet == ()  # nothing was recorded


def test_a_la_vola_by_someone_other_than_the_spelforare_lapses_his_commitment():
    # "Om en spelare anger la vola, gäller inte åtagandet för spelföraren": b plays, a wins
    # la vola: no bet from b.
    table = Table()
    table(deal("H", "9"), bid("b"), winners("a", "a", "a", "a", "a", la_vola="a"))
    assert table.betar == []
    table.money(a=30, b=-10, c=-10, d=-10)
    assert table.state.pot_ore == 0


def test_a_lost_la_vola_by_counts_is_the_la_vola_players_tricks_and_the_one_he_lost():
    # P6: rundpass — no bet even from the spelförare who would otherwise have won.
    table = Table()
    table(deal("H", "9"), bid("c"), counts(la_vola="c", c=3, a=1))
    assert table.state.sheet[-1].outcome == "la_vola_lost"
    assert (table.state.pot_ore, table.betar) == (1000, [])
    table.money(a=-10)


def test_a_lost_la_vola_leaves_the_pot_and_betar_and_the_next_dealer_adds_a_stake():
    table = Table(pot_ore=500, betar=[{"id": 7, "amount_ore": 2000, "owners": ["Anna"]}])
    table(deal("H", "9"), bid("b"), winners("b", "b", "b", "a", la_vola="b"))
    assert table.state.pot_ore == 1500
    assert table.betar == [(7, 2000, ("Anna",))]
    table(deal("H", "9"))
    assert table.state.pot_ore == 2500
    assert table.state.current.amount_ore == 4500


def test_la_vola_is_announced_only_by_the_player_who_took_the_first_two_tricks():
    table = Table()
    table(deal("H", "9"), bid("b"), trick("a"), trick("b"))
    assert "la_vola" not in table.state.expected
    with pytest.raises(IllegalEvent, match="first two tricks"):
        table(la_vola("a"))
    with pytest.raises(IllegalEvent, match="first two tricks"):
        Table()(deal("H", "9"), bid("b"), winners("a", "b", "a", "a", "a", la_vola="a"))
    with pytest.raises(IllegalEvent, match="first two tricks"):
        Table()(deal("H", "9"), bid("b"), counts(la_vola="a", a=1, b=1))


def test_la_vola_is_said_at_the_lead_to_the_third_trick_not_later():
    table = Table()
    table(deal("H", "9"), bid("b"), trick("a"), trick("a"))
    with pytest.raises(IllegalEvent, match="may say la vola, not b"):
        table(la_vola("b"))
    table(trick("b"))
    with pytest.raises(IllegalEvent, match="third trick"):
        table(la_vola("a"))


def test_play_stops_at_the_trick_the_la_vola_player_loses():
    with pytest.raises(IllegalEvent, match="stops"):
        Table()(deal("H", "9"), bid("b"), winners("a", "a", "b", "a", "a", la_vola="a"))
    with pytest.raises(IllegalEvent, match="stops"):
        Table()(deal("H", "9"), bid("b"), counts(la_vola="a", a=2, b=2, c=1))


# --- options: double betar, merged betar ---------------------------------------------------


def test_a_club_may_make_the_bet_twice_the_amount_played_for():
    # P2: "antingen är lika stor som det belopp man spelar om eller dubbelt så stor"
    table = Table(rules=pp.Rules(stake_ore=1000, bet_size="double"))
    table(deal("S", "K"), ALL_PASS, bid("d", "D"), counts(a=3, d=2))
    assert table.betar == [(1, 2000, ("d",))]
    table.money(d=-20)


def test_two_failing_spelforare_may_merge_their_betar_into_one_of_double_size():
    # P4: "slå ihop de två betarna som sätts till en enda dubbelt så stor bet", owned by both,
    # each paying his own share. a deals, d cut a jack; b wins.
    table = Table(rules=pp.Rules(stake_ore=1000, merge_betar=True))
    table(deal("C", "9", cutter_jack=True), counts(b=3, a=1, d=1))
    assert table.betar == [(1, 2000, ("a", "d"))]
    assert table.state.log[2] == "a and d place bet 1: 20 kr"
    table.money(a=-20, b=10, d=-10)
    assert [(t.payer, t.payee, t.amount_ore) for t in table.state.transfers] == [
        ("pot", "b", 1000),
        ("a", "bet:1", 1000),
        ("d", "bet:1", 1000),
    ]


def test_merged_double_betar_add_up():
    rules = pp.Rules(stake_ore=1000, bet_size="double", merge_betar=True)
    table = Table(rules=rules)
    table(deal("C", "9", cutter_jack=True), counts(b=3, a=1, d=1))
    assert table.betar == [(1, 4000, ("a", "d"))]


def test_the_rules_refuse_nonsense_options():
    with pytest.raises(ValueError, match="stake"):
        pp.Rules(stake_ore=0)
    with pytest.raises(ValueError, match="bet_size"):
        pp.Rules(bet_size="triple")


# --- five players --------------------------------------------------------------------------


def test_five_players_one_trick_each_no_winner_and_the_bet_counts_the_bet_in_play():
    # "Om varje spelare tar ett stick vid spel på fem, har spelföraren förlorat och måste sätta
    # bet. Det finns dock i detta fall ingen vinnare, så pottens innehåll står kvar … och
    # befintliga betar förblir orörda." P8: the bet is on pot + bet in play.
    table = Table(players=FIVE)
    # Deal 1: a deals (e cuts, b förhand); an eight is in the five-player deck.
    table(deal("H", "8"), bid("b"), counts(a=1, b=1, c=1, d=1, e=1))
    assert table.state.sheet[-1].outcome == "no_winner"
    assert (table.state.pot_ore, table.betar) == (1000, [(1, 1000, ("b",))])
    table.money(a=-10, b=-10)

    # Deal 2: b deals (pot 20); played for 20 + bet 1 (10) = 30. c plays; one trick each
    # again: c sets 30; pot 20 and bet 1 untouched.
    table(deal("C", "A", dealer_takes=False), bid("c"))
    assert table.state.current.amount_ore == 3000
    table(trick("c"), trick("d"), trick("e"), trick("a"))
    assert table.state.phase == "play"
    table(trick("b"))
    assert (table.state.pot_ore, table.betar) == (2000, [(1, 1000, ("b",)), (2, 3000, ("c",))])
    table.money(a=-10, b=-20, c=-30)

    # Deal 3: c deals (pot 30); played for 30 + bet 1 (the least, 10) = 40. All pass on
    # spades; e plays in hearts and takes three: e takes 40; bet 2 waits.
    table(deal("S", "9"), ALL_PASS, bid("e", "H"), counts(e=3, a=1, b=1))
    assert table.state.sheet[-1].winner == "e"
    assert (table.state.pot_ore, table.betar) == (0, [(2, 3000, ("c",))])
    table.money(a=-10, b=-20, c=-40, e=40)


def test_a_won_la_vola_among_five_is_paid_by_each_of_the_four_others():
    table = Table(players=FIVE)
    table(deal("H", "J"), winners("a", "a", "a", "a", "a", la_vola="a"))
    table.money(a=40, b=-10, c=-10, d=-10, e=-10)


# --- carrying over from an earlier evening -------------------------------------------------


def test_a_new_evening_starts_with_the_clubs_pot_and_betar_and_never_reuses_a_bet_id():
    betar = [
        {"id": 3, "amount_ore": 800, "owner": "Anna Berg"},
        {"id": 4, "amount_ore": 500, "owners": ["Bo", "Cia"]},
    ]
    table = Table(pot_ore=2500, betar=betar, next_bet_id=9)
    assert table.betar == [(3, 800, ("Anna Berg",)), (4, 500, ("Bo", "Cia"))]
    assert table.state.played_for_ore == 2500 + 1000 + 500
    table(deal("H", "9"), bid("b"), counts(a=3, b=2))
    # a takes pot 35 and bet 4 (5); b sets a bet of 40 as bet 9.
    assert table.betar == [(3, 800, ("Anna Berg",)), (9, 4000, ("b",))]
    table.money(a=30, b=-40)
    assert table.nets["bet:4"] == -500
    assert table.nets["pot"] == -2500


def test_the_next_bet_id_follows_the_carried_ones_when_not_given():
    table = Table(betar=[{"id": 12, "amount_ore": 100, "owners": ["X"]}])
    assert table.state.next_bet_id == 13


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"pot_ore": -1}, "pot"),
        ({"betar": [{"id": 1, "amount_ore": 0, "owners": ["X"]}]}, "amount"),
        ({"betar": [{"id": 1, "amount_ore": 5}, {"id": 1, "amount_ore": 6}]}, "twice"),
        ({"betar": [{"id": 4, "amount_ore": 5}], "next_bet_id": 3}, "next_bet_id"),
        ({"betar": [{"amount_ore": 5}]}, "id"),
    ],
)
def test_bad_carried_money_is_refused(setup, message):
    with pytest.raises(IllegalEvent, match=message):
        pp.new_game(FOUR, TEN_KR, **setup)


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([deal("H", "J", dealer_takes=False)], "must take"),
        ([deal("H", "9", cutter_jack=True, dealer_takes=False)], "must take"),
        ([deal("H", "K", dealer_takes=True)], "only"),
        ([deal("H", "A")], "ace"),
        ([deal("H", "8")], "8"),
        ([deal("X", "9")], "suit"),
        ([deal("H", "7")], "rank"),
        ([bid("a")], "deal"),
        ([deal(), trick("a")], "bidding"),
        ([deal(), bid("x")], "'x'"),
        ([deal("H", "9"), bid("b", "S")], "first round"),
        ([deal("H", "9"), ALL_PASS, bid("c", "H")], "förhand"),
        ([deal("H", "9"), ALL_PASS, bid("c")], "suit"),
        ([deal(), bid("b"), counts(a=3, b=1)], "5"),
        ([deal(), bid("b"), counts(a=3, b=1, c=2)], "5"),
        ([deal(), bid("b"), counts(a=6)], "6"),
        ([deal(), bid("b"), {"type": "tricks", "counts": {"a": 5}, "winners": ["a"]}], "either"),
        ([deal(), bid("b"), winners("a", "b", "c")], "decided"),
        ([deal(), bid("b"), winners("a", "a", "a", "b", "b", "c")], "five"),
        ([deal(), bid("b"), trick("a"), counts(a=5)], "one by one"),
        ([deal(), bid("b"), trick("z")], "'z'"),
        ([deal(), END], "deal"),
        ([END], "no deal"),
        ([{"type": "shuffle"}], "shuffle"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(events, message):
    table = Table()
    *before, last = events
    table(*before)
    with pytest.raises(IllegalEvent, match=message):
        table(last)


@pytest.mark.parametrize(
    ("events", "message"),
    [
        (
            [{**deal(), "cutter": True}],
            "a deal records nothing called 'cutter'; it records the suit of the turn-up, the rank "
            "of the turn-up, whether the cutter took a bottom jack",
        ),
        ([deal(), {**bid("b"), "trump": "H"}], "a bid records nothing called 'trump'"),
        (
            [deal(), ALL_PASS, {"type": "all_pass", "who": "c"}],
            "a round in which everyone passes records nothing called 'who'; it records only that "
            "it happened",
        ),
        ([{"type": "deal", "rank": "9"}], "a deal needs the suit of the turn-up"),
        ([deal(), {"type": "bid"}], "a bid needs the player who bids"),
        ([deal(), bid("b"), {"type": "trick"}], "a trick needs who took the trick"),
        (
            [{**deal(), "cutter_jack": "yes"}],
            "a deal: whether the cutter took a bottom jack must be true or false",
        ),
        ([{**deal(), "suit": ["H"]}], "a deal: the suit of the turn-up must be a suit"),
        (
            [deal(), bid("b"), {"type": "tricks", "counts": [3, 2]}],
            "a summary of the tricks: the tricks each player took must be",
        ),
        (
            [deal(), bid("b"), {"type": "tricks", "winners": "abc"}],
            "a summary of the tricks: the trick winners must be",
        ),
        (
            [deal(), bid("b"), counts(first_two=2, b=3, a=2)],
            "a summary of the tricks: who took two tricks first must be a player",
        ),
        (
            [{"type": "shuffle"}],
            "Polish pass records nothing called 'shuffle'; it records a deal, a bid, a round in "
            "which everyone passes, a la vola, a trick, a summary of the tricks, the end of the "
            "evening",
        ),
    ],
)
def test_the_payload_is_checked_against_its_declaration(events, message):
    table = Table()
    *before, last = events
    table(*before)
    with pytest.raises(IllegalEvent, match=message):
        table(last)


def test_the_payload_is_checked_before_the_phase():
    # A typo is named even when the event would also be out of turn.
    with pytest.raises(IllegalEvent, match="a bid records nothing called 'players'"):
        Table()({"type": "bid", "players": "b"})
    assert tuple(pp.EVENTS) == pp.EVENT_TYPES
    assert pp.EVENT_TYPES == ("deal", "bid", "all_pass", "la_vola", "trick", "tricks", "end")


def test_a_flag_may_still_be_written_one_or_zero_as_old_games_have_it():
    state = Table()({**deal("H", "A"), "dealer_takes": 1})
    assert state.current.dealer_took


def test_nothing_is_accepted_once_the_evening_is_over():
    table = Table()
    table(deal(), ALL_PASS, ALL_PASS, END)
    with pytest.raises(IllegalEvent, match="over"):
        table(deal())


def test_a_game_is_for_three_to_five_players_with_distinct_keys():
    with pytest.raises(IllegalEvent, match="3–5"):
        pp.new_game(("a", "b"))
    with pytest.raises(IllegalEvent, match="twice"):
        pp.new_game(("a", "b", "a"))


def test_the_scorer_may_pick_the_first_dealer():
    # G2
    state = pp.new_game(FOUR, first_dealer="c")
    state = pp.apply(state, deal())
    assert (state.current.dealer, state.current.cutter, state.current.forhand) == ("c", "b", "d")


# --- the settlement calculator -------------------------------------------------------------


def test_settle_says_who_pays_what_for_one_deal():
    # The calculator's question: pot 30, betar 20 and 50; four players; the spelförare s
    # loses to w. Played for 30 + 20 = 50; w takes it; s sets 50 (single).
    betar = (pp.Bet(1, 2000, ("x",)), pp.Bet(2, 5000, ("y",)))
    result = pp.settle(
        pot_ore=3000,
        betar=betar,
        next_bet_id=3,
        players=("s", "w", "o", "p"),
        spelforare=("s",),
        winner="w",
        rules=pp.Rules(),
    )
    assert [(t.payer, t.payee, t.amount_ore) for t in result.transfers] == [
        ("pot", "w", 3000),
        ("bet:1", "w", 2000),
        ("s", "bet:3", 5000),
    ]
    assert result.pot_ore == 0
    assert [(b.id, b.amount_ore) for b in result.betar] == [(2, 5000), (3, 5000)]


# --- invariants ----------------------------------------------------------------------------

SUITS = ("C", "S", "H", "D")


def _legal_event(data, state):
    """A random event the rules allow now (the evening ends now and then)."""
    phase = state.phase
    if phase == "deal":
        if state.sheet and data.draw(st.integers(0, 12)) == 0:
            return END
        ranks = ("9", "10", "J", "Q", "K", "A") + (("8",) if len(state.players) == 5 else ())
        rank = data.draw(st.sampled_from(ranks))
        cutter_jack = data.draw(st.booleans())
        takes = None
        if rank == "A" and not cutter_jack:
            takes = data.draw(st.booleans())
        return deal(data.draw(st.sampled_from(SUITS)), rank, cutter_jack, takes)
    current = state.current
    if phase == "bidding":
        if data.draw(st.integers(0, 3)) == 0:
            return ALL_PASS
        player = data.draw(st.sampled_from(state.players))
        if current.round == 1:
            return bid(player)
        allowed = [s for s in SUITS if player == current.forhand or s != current.turned_suit]
        return bid(player, data.draw(st.sampled_from(allowed)))
    if not current.trick_winners and data.draw(st.booleans()):
        taken = data.draw(st.lists(st.sampled_from(state.players), min_size=5, max_size=5))
        if data.draw(st.booleans()):
            return winners(*taken)
        tally = {p: taken.count(p) for p in set(taken)}
        first_two = pp.first_to_two(taken)
        return counts(first_two=first_two, **tally)
    if pp.la_vola_possible(state) and data.draw(st.booleans()):
        return la_vola(current.trick_winners[0])
    return trick(data.draw(st.sampled_from(state.players)))


carried = st.lists(st.integers(1, 5000), max_size=3).map(
    lambda amounts: [
        {"id": i + 1, "amount_ore": amount, "owners": [f"M{i}"]} for i, amount in enumerate(amounts)
    ]
)


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    players=st.sampled_from([("a", "b", "c"), FOUR, FIVE]),
    stake=st.integers(1, 2000),
    bet_size=st.sampled_from(pp.BET_SIZES),
    merge=st.booleans(),
    pot=st.integers(0, 10_000),
    betar=carried,
)
def test_random_evenings_conserve_money_and_never_go_negative(
    data, players, stake, bet_size, merge, pot, betar
):
    rules = pp.Rules(stake_ore=stake, bet_size=bet_size, merge_betar=merge)
    table = Table(players, rules, pot_ore=pot, betar=betar)
    start_betar = {f"bet:{b['id']}": b["amount_ore"] for b in betar}
    for _ in range(60):
        if table.state.finished:
            break
        table(_legal_event(data, table.state))
        state = table.state
        nets = table.nets
        assert state.pot_ore >= 0
        assert all(b.amount_ore > 0 for b in state.betar)
        assert len({b.id for b in state.betar}) == len(state.betar)
        # nets + pot + betar = 0: what the players won is what the pot and betar lost.
        player_total = sum(nets.get(p, 0) for p in players)
        betar_now = {f"bet:{b.id}": b.amount_ore for b in state.betar}
        assert nets.get("pot", 0) == state.pot_ore - pot
        for account in set(betar_now) | set(start_betar):
            assert nets.get(account, 0) == betar_now.get(account, 0) - start_betar.get(account, 0)
        assert (
            player_total
            + (state.pot_ore - pot)
            + sum(betar_now.values())
            - sum(start_betar.values())
            == 0
        )
        assert dict(state.money) == {p: nets.get(p, 0) for p in players}
        assert state.expected or state.finished
        assert all(b.id < state.next_bet_id for b in state.betar)


@settings(max_examples=100, deadline=None)
@given(
    taken=st.lists(st.sampled_from(FOUR), min_size=5, max_size=5),
    pot=st.integers(0, 5000),
)
def test_counts_and_trick_by_trick_give_the_same_money(taken, pot):
    by_counts = Table(pot_ore=pot)
    tally = {p: taken.count(p) for p in set(taken)}
    by_counts(deal(), bid("b"), counts(first_two=pp.first_to_two(taken), **tally))
    one_by_one = Table(pot_ore=pot)
    one_by_one(deal(), bid("b"))
    for winner in taken:
        if one_by_one.state.phase != "play":
            break
        one_by_one(trick(winner))
    assert one_by_one.state.phase == "deal"
    assert by_counts.nets == one_by_one.nets
    assert by_counts.betar == one_by_one.betar
    assert by_counts.state.sheet[-1].winner == pp.winner_of(taken, FOUR)


# --- what no table can produce (issue 25) ------------------------------------------------------


def test_an_eight_is_turned_up_only_at_five():
    # Four players use 24 cards, nine to ace; five take the eights in (28 cards).
    with pytest.raises(IllegalEvent, match="no 8s"):
        Table()(deal(rank="8"))
    assert Table(FIVE)(deal(rank="8")).phase == pp.BIDDING


def test_the_turn_up_is_taken_as_the_card_says():
    with pytest.raises(IllegalEvent, match="jack"):
        Table()(deal(rank="J", dealer_takes=False))
    with pytest.raises(IllegalEvent, match="cutter took a jack"):
        Table()(deal(rank="Q", cutter_jack=True, dealer_takes=False))
    with pytest.raises(IllegalEvent, match="only if"):
        Table()(deal(rank="K", dealer_takes=True))
    # An ace: the dealer (a) chooses, and a bidding follows only if he leaves it.
    assert Table()(deal(rank="A", dealer_takes=True)).current.spelforare == ("a",)
    assert Table()(deal(rank="A", dealer_takes=False)).phase == pp.BIDDING


def test_five_tricks_a_deal_however_they_are_entered():
    # Five cards each, one to each trick: b 3 + c 3 is six tricks.
    table = Table()
    table(deal(), bid("b"))
    with pytest.raises(IllegalEvent, match="add up to 6"):
        table(counts(b=3, c=3))
    with pytest.raises(IllegalEvent, match="five tricks, not 6"):
        table(winners("b", "c", "b", "c", "d", "b"))
    # Trick by trick, b's third trick decides the deal: no sixth trick can follow.
    table(trick("b"), trick("b"), trick("c"), trick("b"))
    assert table.state.phase == pp.DEAL


def test_who_reached_two_first_has_two_tricks():
    # b 2, c 2, d 1: d cannot have been first to two.
    table = Table()
    table(deal(), bid("b"))
    with pytest.raises(IllegalEvent, match="cannot have been the first to take two"):
        table(counts(first_two="d", b=2, c=2, d=1))
    table(counts(first_two="c", b=2, c=2, d=1))
    assert table.state.sheet[-1].winner == "c"


def test_la_vola_agrees_with_the_tricks():
    # c did not take the first two tricks (b took the first): he cannot have said la vola; after
    # b's la vola the others took one trick, the one he lost, not two.
    table = Table()
    table(deal(), bid("b"))
    with pytest.raises(IllegalEvent, match="did not take the first two"):
        table(winners("b", "c", "c", "c", "c", la_vola="c"))
    with pytest.raises(IllegalEvent, match="play stops"):
        table(counts(la_vola="b", b=2, c=1, d=1))
    table(counts(la_vola="b", b=3, c=1))
    assert table.state.sheet[-1].outcome == "la_vola_lost"


def test_legacy_facts_is_taken_and_changes_nothing():
    table = Table(legacy_facts=True)
    assert table.state.legacy_facts
    table(deal(), bid("b"), counts(b=3, c=2))
    assert table.state.sheet[-1].winner == "b"
