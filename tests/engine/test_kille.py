"""Kungsholmskille: worked examples from kungsholmskille.sv.txt and NOTES.md K1–K11, each with the
pot and every player's net after the step; bad input; the settlement calculator; and hypothesis
invariants over random legal evenings (money conserved, the pot never negative)."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import kille as k
from engine.base import POT, net_by_account
from engine.cards import KILLE_DECK, KilleRank
from engine.errors import IllegalEvent, Ore

P4 = ("a", "b", "c", "d")  # seat order = clockwise; a deals first, so b is förhand


class Table:
    """One evening: apply events, keep every transfer, read the pot and each player's net."""

    def __init__(self, players=P4, pot_ore=0, rules=None, first_dealer=None):
        self.state = k.new_game(
            players, rules or k.Rules(), first_dealer=first_dealer, pot_ore=pot_ore
        )
        self.start_pot = pot_ore
        self.transfers = list(self.state.transfers)

    def __call__(self, type_, player=None, **payload):
        event = {"type": type_, **payload}
        if player is not None:
            event["player"] = player
        self.state = k.apply(self.state, event)
        self.transfers.extend(self.state.transfers)
        return self

    def calls(self, *pairs):
        """``calls("b bud", "c knock")``: several one-player events in a row."""
        for pair in pairs:
            player, kind = pair.split()
            self(kind, player)
        return self

    @property
    def pot(self):
        return self.state.pot_ore

    @property
    def nets(self):
        nets = net_by_account(self.transfers)
        return {p: nets.get(p, 0) for p in self.state.players}

    def refused(self, type_, player=None, **payload):
        before = self.state
        with pytest.raises(IllegalEvent) as info:
            self(type_, player, **payload)
        assert self.state is before
        return str(info.value)


def kr(n):
    return n * 100


def started(players=P4, **kwargs):
    table = Table(players, **kwargs)
    if "ante" in table.state.expected:
        table("ante")
    return table


# --- stakes (Insats; K1, K2) ----------------------------------------------------------------


def test_an_empty_pot_opens_with_the_base_stake_from_everyone():
    # "Före första given, sätter varje spelare en insats på två kronor i potten."
    table = Table()
    assert table.state.phase == "ante"
    assert table.state.expected == ("ante", "end_evening")
    table("ante")
    assert table.pot == kr(8)
    assert table.nets == {"a": -kr(2), "b": -kr(2), "c": -kr(2), "d": -kr(2)}
    assert table.state.phase == "declare"
    assert table.state.to_act == "b"  # förhand, left of the dealer a


def test_a_continued_pot_starts_without_an_opening_stake():
    # K2: the club's pot already holds the stakes for the next deal.
    table = Table(pot_ore=kr(14))
    assert table.state.phase == "declare"
    assert "ante" not in table.state.expected
    assert table.refused("ante").startswith("no opening stake")
    assert table.pot == kr(14)


def test_the_club_can_take_an_opening_stake_every_evening():
    # K2, club option "opening stake each evening".
    table = Table(pot_ore=kr(14), rules=k.Rules(opening_stake_each_evening=True))
    table("ante")
    assert table.pot == kr(22)
    assert table.nets["c"] == -kr(2)


def test_stakes_are_club_options():
    # "Insatsernas storlek kan naturligtvis anpassas".
    rules = k.Rules(base_stake_ore=500, small_stake_ore=250)
    table = Table(("a", "b", "c"), rules=rules)("ante")
    assert table.pot == 1500
    table.calls("b bud", "c bud", "a bud")
    assert table.pot == 1500 + 750
    assert table.nets == {"a": -750, "b": -750, "c": -750}


# --- the first declaration and the budrunda ---------------------------------------------------


def test_a_budrunda_costs_everyone_the_small_stake_and_passes_the_deal():
    # "Om alla spelarna säger bud … Turen att ge går vidare medsols. Insatsen i den nya given är
    # bara en krona per spelare … läggs alltid till den befintliga potten."
    table = started()
    table.calls("b bud", "c bud", "d bud")
    assert table.pot == kr(8)
    assert table.state.dealer == "a"
    table("bud", "a")
    assert table.pot == kr(12)
    assert table.nets == dict.fromkeys(P4, -kr(3))
    assert table.state.dealer == "b"
    assert table.state.forhand == "c"
    assert table.state.to_act == "c"
    assert table.state.deals[-1].outcome == "budrunda"
    assert table.state.log[0] == "a bids (bud)"
    assert table.state.log[1].template == "Round of bids (budrunda): everyone pays {amount}"
    assert table.state.log[1].params == {"amount": kr(1)}
    assert table.state.log[2] == "New deal: b deals"


def test_the_first_declaration_goes_clockwise_from_forhand():
    # "Förhand börjar agera, och turen fortsätter medsols."
    table = started()
    assert "b" in table.refused("bud", "c")
    table("bud", "b")
    assert "c" in table.refused("knock", "d")
    assert "'x'" in table.refused("bud", "x")


def test_folding_before_anyone_knocked_is_refused():
    table = started()
    assert "knock" in table.refused("fold", "c")


# --- folding (Lägga sig; K3, K6, K9) -----------------------------------------------------------


def test_after_a_knock_everyone_but_the_knocker_may_fold_from_his_left():
    # K3: from the player left of the knocker round to the one on his right, including players
    # who said bud before the knock.
    table = started().calls("b bud", "c knock")
    assert table.state.phase == "fold"
    assert table.state.knocker == "c"
    assert table.state.may_fold == ("d", "a", "b")
    assert "knocked" in table.refused("fold", "c")


def test_the_fold_round_goes_once_round_from_the_knockers_left_each_staying_or_folding():
    # "Spelaren till vänster om den som knackade står först på tur att agera, och turen går
    # sedan vidare medsols fram till spelaren till höger om den som begärde spel."
    # c knocks: d (his left) speaks first, then a, then b (his right); then the round is over.
    table = started().calls("b bud", "c knock")
    assert table.state.to_act == "d"
    assert table.state.expected == ("stay", "fold")
    table("stay", "d")
    assert (table.state.stayed, table.state.may_fold, table.state.to_act) == (
        ("d",),
        ("a", "b"),
        "a",
    )
    assert table.state.log == ("d stays",)
    table("fold", "a")
    assert table.state.phase == "fold"
    table("stay", "b")
    assert table.state.phase == "declare2"
    assert table.state.stayed == ("d", "b")
    assert table.state.folded == ("a",)
    assert table.state.to_act == "b"  # förhand opens the second declaration


def test_staying_or_folding_out_of_turn_is_refused():
    # c knocks: it is d's turn, so a and b may not speak yet, neither to stay nor to fold.
    table = started().calls("b bud", "c knock")
    message = table.refused("fold", "a")
    assert "d's turn" in message
    assert "knocker's left" in message
    assert "d's turn" in table.refused("stay", "b")
    table("stay", "d")
    assert "a's turn" in table.refused("fold", "b")


def test_a_player_who_stayed_cannot_fold_later():
    # The fold round runs once: d stayed, and may not change his mind when a or b folds, nor
    # after the round.
    table = started().calls("b bud", "c knock", "d stay")
    assert "d stayed and cannot fold later" in table.refused("fold", "d")
    assert "already stayed" in table.refused("stay", "d")
    table.calls("a fold")
    assert "a has folded" in table.refused("stay", "a")
    table.calls("b stay")
    assert "d stayed and cannot fold later" in table.refused("fold", "d")


def test_the_knocker_neither_stays_nor_folds_and_nobody_stays_before_a_knock():
    table = started()
    assert "knock" in table.refused("stay", "b")
    table.calls("b bud", "c knock")
    assert "knocked" in table.refused("stay", "c")
    table.calls("d stay", "a stay", "b stay")
    assert "over" in table.refused("stay", "a")


def test_the_calls_and_the_exchange_wait_for_the_fold_round():
    # "När alla spelare som vill lägga sig har kastat in korten, får övriga spelare … byta":
    # the exchange and the second declaration come once everyone in the fold round has spoken.
    table = started().calls("b bud", "c knock", "d stay")
    assert "a's turn to stay or fold" in table.refused("exchange", counts={"b": 1})
    assert "a's turn to stay or fold" in table.refused("bud", "b")
    assert "a's turn to stay or fold" in table.refused("knock", "b")


def test_a_game_recorded_before_staying_was_an_event_still_replays():
    # Before, only folds were tapped: a fold skipped the players before it (they stayed), and the
    # exchange or the second declaration closed the round. Such a stream replays with
    # implied_stays, and the one who stayed still cannot fold.
    table = Table(players=P4)
    table.state = k.new_game(P4, implied_stays=True)
    table("ante").calls("b bud", "c knock", "a fold")
    assert table.state.may_fold == ("b",)  # d had his chance and stayed
    assert table.state.stayed == ("d",)
    assert table.state.active == ("b", "c", "d")
    assert "d stayed" in table.refused("fold", "d")
    assert "a has folded" in table.refused("fold", "a")
    table("exchange", counts={"b": 1})  # b stays without a word
    assert table.state.phase == "declare2"
    assert table.state.stayed == ("d", "b")
    table.calls("b knock")
    assert table.state.phase == "tricks"


def test_when_all_but_one_fold_the_knocker_takes_the_pot_and_everyone_pays_a_krona():
    # "Om alla spelare utom en lägger sig före bytet, avbryts given och den spelare som är kvar i
    # spelet tar hela potten utan spel … alla spelarna sätter en krona var i potten." (K6)
    table = started().calls("b bud", "c knock", "d fold", "a fold")
    assert table.pot == kr(8)
    table("fold", "b")
    assert table.pot == kr(4)
    assert table.nets == {"a": -kr(3), "b": -kr(3), "c": kr(5), "d": -kr(3)}
    assert table.state.pots_won == {"a": 0, "b": 0, "c": 1, "d": 0}
    assert table.state.deals[-1].outcome == "walkover"
    assert table.state.deals[-1].winner == "c"
    assert table.state.dealer == "b"  # the deal passes one seat


def test_when_forhand_folds_the_role_passes_to_the_nearest_player_on_his_left():
    # "Om förhand ändå lägger sig, tas rollen som förhand … över av närmaste kvarvarande spelare
    # i riktning åt vänster." (K9)
    table = started().calls("b bud", "c bud", "d knock", "a stay", "b fold", "c stay")
    assert table.state.forhand == "c"
    assert "c" in table.refused("bud", "d")  # the second declaration starts with c now
    table.calls("c bud", "d knock")
    assert table.state.phase == "tricks"
    assert table.state.leader == "c"  # "Förhand spelar ut till det första sticket."


def test_when_forhand_and_his_neighbour_fold_the_role_skips_both():
    table = started().calls("b bud", "c bud", "d knock", "a stay", "b fold", "c fold")
    assert table.state.forhand == "d"
    assert table.state.active == ("a", "d")


# --- the exchange and the second declaration (K4) ---------------------------------------------


def test_the_exchange_records_up_to_two_cards_for_each_player_still_in():
    table = started().calls("b knock", "c stay", "d fold", "a stay")
    table("exchange", counts={"b": 2, "c": 0, "a": 1})
    assert table.state.exchanged == {"b": 2, "c": 0, "a": 1}
    assert table.state.phase == "declare2"
    assert table.state.log == ("Exchange: b 2, c 0, a 1",)
    assert table.state.log[0].template == "Exchange: {counts}"
    assert table.pot == kr(8)

    again = started().calls("b knock", "c stay", "d fold", "a stay")
    assert "0 to 2" in again.refused("exchange", counts={"b": 3})
    assert "folded" in again.refused("exchange", counts={"d": 1})
    assert "'z' is not a player" in again.refused("exchange", counts={"z": 1})
    again("exchange", counts={"b": 1})
    assert "already" in again.refused("exchange", counts={"b": 1})


def test_a_second_round_budrunda_costs_only_the_folders():
    # "Om minst en spelare lade sig före bytet, måste alla spelare som lagt sig betala en insats
    # på en krona var medan övriga spelare spelar gratis." (K4, read literally)
    table = started().calls("b knock", "c fold", "d stay", "a stay", "b bud", "d bud")
    assert table.pot == kr(8)
    table("bud", "a")
    assert table.pot == kr(9)
    assert table.nets == {"a": -kr(2), "b": -kr(2), "c": -kr(3), "d": -kr(2)}
    assert table.state.deals[-1].outcome == "budrunda"
    assert table.state.dealer == "b"


def test_a_second_round_budrunda_without_folders_costs_everyone():
    # "Om alla spelare fortfarande är kvar, måste alla spelare betala en insats på en krona var."
    table = started().calls("b knock", "c stay", "d stay", "a stay")
    table.calls("b bud", "c bud", "d bud", "a bud")
    assert table.pot == kr(12)
    assert table.nets == dict.fromkeys(P4, -kr(3))


def test_folding_is_refused_once_the_second_declaration_has_begun():
    # "Kom ihåg att det inte längre är tillåtet att lägga sig."
    table = started().calls("b bud", "c knock", "d fold", "a stay", "b stay", "b bud")
    assert "stayed" in table.refused("fold", "a")
    assert "no longer" in table.refused("fold", "c")  # the knocker
    table("knock", "c")
    assert "stayed" in table.refused("fold", "a")
    assert "no longer" in table.refused("fold", "d")


def test_the_second_declaration_goes_clockwise_from_forhand_among_players_still_in():
    table = started().calls("b bud", "c knock", "d fold")
    assert table.state.may_fold == ("a", "b")
    table.calls("a stay", "b stay")
    assert "b" in table.refused("bud", "c")
    table.calls("b bud")
    assert table.state.to_act == "c"
    table.calls("c bud")
    assert table.state.to_act == "a"  # d folded


# --- the tricks --------------------------------------------------------------------------------

# Three players, a deals, b is förhand; the hands after the exchange:
#   b: värdshus 10 6 2 blaren   c: kille 9 8 5 1   a: gök 12 7 4 kransen
TRICKS_3 = (
    {"b": "10", "c": "kille", "a": "kransen"},  # c must overtake with kille; a cannot: lowest
    {"c": "9", "a": "12", "b": "värdshus"},  # c leads; a overtakes; b must overtake with värdshus
    {"b": "6", "c": "8", "a": "gök"},
    {"a": "7", "b": "blaren", "c": "1"},  # nobody can overtake 7: each plays his lowest
)


def three_players_to_the_tricks():
    table = Table(("a", "b", "c"), pot_ore=kr(6))
    return table.calls("b knock", "c stay", "a stay", "b knock")


def test_tricks_are_won_by_the_highest_card_and_the_winner_leads_the_next():
    # "Sticket vinns av den som spelade den högsta valören … Vinnaren av ett stick spelar ut till
    # nästa."
    table = three_players_to_the_tricks()
    assert table.state.leader == "b"
    table("trick", cards=TRICKS_3[0])
    trick = table.state.tricks[0]
    assert trick.plays == (("b", "10"), ("c", "kille"), ("a", "kransen"))
    assert trick.winner == "c"
    assert table.state.leader == "c"
    for cards in TRICKS_3[1:]:
        table("trick", cards=cards)
    assert [t.winner for t in table.state.tricks] == ["c", "b", "a", "a"]
    # The showing round starts with the winner of the fourth trick.
    assert table.state.phase == "showing"
    assert table.state.fourth_trick == "a"
    assert table.state.to_act == "a"
    assert table.pot == kr(6)


def test_of_two_equal_highest_cards_the_later_wins_the_trick():
    # "… om den högsta valören spelats av två spelare – den som sist spelade den högsta valören."
    table = three_players_to_the_tricks()
    table("trick", cards={"b": "7", "c": "9", "a": "9"})
    assert table.state.tricks[0].winner == "a"


def test_a_player_who_could_overtake_must():
    # "Om spelaren på tur har ett eller flera kort av minst lika hög valör som den dittills högsta
    # … måste hen sticka över med något av dessa kort." c plays 1 under b's 10 in the first trick
    # and leads kille in the second: he held it, so the second trick gives him away.
    table = three_players_to_the_tricks()
    table("trick", cards={"b": "10", "c": "1", "a": "kransen"})
    message = table.refused("trick", cards={"b": "värdshus", "c": "kille", "a": "12"})
    assert "c played 1 in trick 1" in message
    assert "kille" in message


def test_a_player_who_cannot_overtake_must_play_his_lowest_card():
    # "Om spelaren inte kan sticka över, måste hen spela sin lägsta valör på handen." a plays 4
    # under c's kille though he holds kransen, which shows in the fourth trick.
    table = three_players_to_the_tricks()
    table("trick", cards={"b": "10", "c": "kille", "a": "4"})
    table("trick", cards={"c": "9", "a": "12", "b": "värdshus"})
    table("trick", cards={"b": "6", "c": "8", "a": "gök"})
    message = table.refused("trick", cards={"a": "kransen", "b": "blaren", "c": "1"})
    assert "a played 4 in trick 1" in message
    assert "lowest" in message


def test_the_shown_cards_are_checked_against_the_tricks():
    # b's last card is 2; had b shown kille he would have had to play it on a's 7 in trick 4.
    table = three_players_to_the_tricks()
    for cards in TRICKS_3:
        table("trick", cards=cards)
    table.calls("a bud", "b show")
    message = table.refused("reveal", cards={"a": "4", "b": "husar", "c": "5"})
    assert "b played blaren in trick 4" in message


def test_a_trick_names_every_player_still_in_and_only_them():
    table = three_players_to_the_tricks()
    assert "missing" in table.refused("trick", cards={"b": "10", "c": "kille"})
    assert "not a Kille card" in table.refused("trick", cards={"b": "10", "c": "joker", "a": "4"})
    folded = started().calls("b knock", "c fold", "d stay", "a stay", "b knock")
    assert "folded" in folded.refused("trick", cards={"b": "1", "c": "2", "d": "3", "a": "4"})


def test_the_fourth_trick_winner_can_be_named_without_the_tricks():
    table = three_players_to_the_tricks()
    assert "player at the table" in table.refused("fourth_trick", "z")
    table("fourth_trick", "c")
    assert table.state.phase == "showing"
    assert table.state.to_act == "c"
    assert "knock" in table.refused("knock", "c")


# --- what no table can produce (issue 25) ------------------------------------------------------

# Three players, a deals, b förhand. Worked by hand from the play rule:
# trick 1, b leads kille: c plays 1 and a husar under it, so every later card of c is in
#   1 … 12-and-värdshus-less-than-kille and every later card of a is husar or gök;
# trick 2, b leads värdshus: c plays 3 under it (his later cards 3 … under värdshus), a
#   overtakes with gök and leads;
# trick 3, a leads husar (the second husar), b plays 5 under it (his later cards 5 … under
#   husar), c plays 4; a leads the fourth trick.
# a's fourth-trick card is husar or gök, and both husars are played: it is the last gök. b holds
# nothing above svin and c nothing above 12, so only a can take the fourth trick.
THREE_TRICKS_ONLY_A = (
    {"b": "kille", "c": "1", "a": "husar"},
    {"b": "värdshus", "c": "3", "a": "gök"},
    {"a": "husar", "b": "5", "c": "4"},
)


def test_the_fourth_trick_goes_to_a_player_the_recorded_tricks_let_take_it():
    table = three_players_to_the_tricks()
    for cards in THREE_TRICKS_ONLY_A:
        table("trick", cards=cards)
    assert table.state.leader == "a"
    assert k.fourth_trick_winners(k._known_plays(table.state)) == {"a"}
    message = table.refused("fourth_trick", "c")
    assert "c cannot have taken the fourth trick: a led it" in message
    assert "fourth_trick" not in message.replace("fourth trick", "")
    table.refused("fourth_trick", "b")
    table("fourth_trick", "a")
    assert table.state.phase == "showing"


def test_the_fourth_trick_winner_is_checked_again_against_the_cards_shown():
    # TRICKS_3's first three tricks: a leads the fourth holding two of kransen … gök, b and c
    # unbound, so b may take it (c staying under with low cards). But c shows the second kille:
    # holding it in the fourth trick he would have overtaken or equalled whatever b played.
    table = three_players_to_the_tricks()
    for cards in TRICKS_3[:3]:
        table("trick", cards=cards)
    table("fourth_trick", "b")
    table.calls("b show")
    message = table.refused("reveal", cards={"a": "4", "b": "2", "c": "kille"})
    assert "b cannot have taken the fourth trick" in message
    assert "shown at the end" in message
    table("reveal", cards={"a": "4", "b": "2", "c": "1"})
    assert table.state.deals[-1].winner is not None


def test_a_game_stored_before_the_fourth_trick_check_replays_with_legacy_facts():
    state = k.new_game(("a", "b", "c"), pot_ore=kr(6), legacy_facts=True)
    assert state.legacy_facts
    for kind, player in (("knock", "b"), ("stay", "c"), ("stay", "a"), ("knock", "b")):
        state = k.apply(state, {"type": kind, "player": player})
    for cards in THREE_TRICKS_ONLY_A:
        state = k.apply(state, {"type": "trick", "cards": cards})
    state = k.apply(state, {"type": "fourth_trick", "player": "c"})
    assert state.fourth_trick == "c"
    # The older checks still hold: b played 5 under husar in trick 3, so he held no kille.
    state = k.apply(state, {"type": "show", "player": "c"})
    with pytest.raises(IllegalEvent, match="b played 5 in trick 3"):
        k.apply(state, {"type": "reveal", "cards": {"a": "gök", "b": "kille", "c": "4"}})


def test_a_folded_player_takes_no_trick_and_shows_no_card():
    table = started().calls("b knock", "c fold", "d stay", "a stay", "b knock")
    assert "folded" in table.refused("fourth_trick", "c")
    table("fourth_trick", "d")
    table.calls("d show")
    assert "folded" in table.refused("reveal", cards={"a": "1", "b": "2", "c": "3", "d": "4"})


# --- the showing (Spelarna anger om de vill visa; K4, K5, K7, K8) -------------------------------


def to_the_showing(table, fourth="c"):
    return table("fourth_trick", fourth)


def test_a_showing_round_of_bud_is_a_budrunda():
    # "Om alla spelarna säger bud … Det sker ingen visning … Om minst en spelare lade sig före
    # bytet, måste alla spelare som lagt sig betala …" (K4)
    table = to_the_showing(started().calls("b knock", "c stay", "d fold", "a stay", "b knock"))
    table.calls("c bud", "a bud")
    assert table.pot == kr(8)
    table("bud", "b")
    assert table.pot == kr(9)
    assert table.nets == {"a": -kr(2), "b": -kr(2), "c": -kr(2), "d": -kr(3)}
    assert table.state.deals[-1].outcome == "budrunda"
    nobody_folded = started().calls("b knock", "c stay", "d stay", "a stay", "b knock")
    nobody_folded = to_the_showing(nobody_folded)
    nobody_folded.calls("c bud", "d bud", "a bud", "b bud")
    assert nobody_folded.pot == kr(12)
    assert nobody_folded.nets == dict.fromkeys(P4, -kr(3))


def test_the_showing_round_goes_clockwise_from_the_fourth_trick_winner():
    table = to_the_showing(
        started().calls("b knock", "c stay", "d stay", "a stay", "b knock"), fourth="d"
    )
    assert "d" in table.refused("show", "a")
    table("bud", "d")
    assert table.state.to_act == "a"


def test_a_first_shower_with_the_lowest_card_takes_the_pot():
    # "Om spelaren som först lade upp har det lägsta kortet, vinner hen hela potten." Then "Alla
    # spelare som har deltagit i visningen men förlorat betalar den vanliga insatsen på två
    # kronor var, medan vinnaren … slipper betala." (K1: posted with the showing)
    table = to_the_showing(started().calls("b knock", "c stay", "d stay", "a stay", "b knock"))
    table.calls("c bud", "d show")
    assert table.state.phase == "reveal"
    assert "knock" in table.refused("knock", "a")
    table("reveal", cards={"a": "5", "b": "7", "c": "kille", "d": "blaren"})
    assert table.pot == kr(6)
    assert table.nets == {"a": -kr(4), "b": -kr(4), "c": -kr(4), "d": kr(6)}
    row = table.state.deals[-1]
    assert (row.outcome, row.winner, row.penalty_ore, row.pot_after) == (
        "showing",
        "d",
        0,
        kr(6),
    )
    assert table.state.pots_won["d"] == 1
    assert table.state.dealer == "b"


def test_a_beaten_first_shower_pays_the_winner_the_whole_pot_as_well():
    # "Om någon annan spelare har en lika låg eller lägre valör, vinner hen potten. Den spelare som
    # först lade upp får i så fall dessutom betala vinnaren ett belopp lika stort som hela
    # innehållet i potten." (K8: the pot at the showing.) c folded: he pays nothing (K1).
    table = to_the_showing(
        started().calls("b knock", "c fold", "d stay", "a stay", "b knock"), fourth="b"
    )
    table.calls("b show")
    table("reveal", cards={"a": "blompottan", "b": "3", "d": "7"})
    assert table.state.deals[-1].winner == "a"
    assert table.state.deals[-1].penalty_ore == kr(8)
    assert table.pot == kr(4)  # b and d, the losers, pay 2 kr each for the next deal
    assert table.nets == {"a": kr(14), "b": -kr(12), "c": -kr(2), "d": -kr(4)}
    assert table.state.pots_won == {"a": 1, "b": 0, "c": 0, "d": 0}


def test_an_equal_card_beats_the_first_shower():
    # "lika låg eller lägre" (K7: tied with exactly one other, the other wins).
    table = to_the_showing(
        started().calls("b knock", "c stay", "d stay", "a stay", "b knock"), fourth="b"
    )
    table.calls("b show")
    table("reveal", cards={"a": "9", "b": "3", "c": "8", "d": "3"})
    assert table.state.deals[-1].winner == "d"
    assert table.nets == {"a": -kr(4), "b": -kr(12), "c": -kr(4), "d": kr(14)}
    assert table.pot == kr(6)


def test_two_others_tied_for_lowest_the_one_seated_last_from_the_fourth_trick_winner_wins():
    # "… vinner den av dem som sist skulle ha spelat till det femte sticket … (det vill säga,
    # vinnare är den av dem som sitter sist räknat medsols från den som vann det fjärde sticket)."
    # Fourth trick d: the order is d, a, b, c — c comes after a.
    table = to_the_showing(
        started().calls("b knock", "c stay", "d stay", "a stay", "b knock"), fourth="d"
    )
    table.calls("d bud", "a bud", "b show")
    table("reveal", cards={"a": "kransen", "b": "9", "c": "kransen", "d": "10"})
    assert table.state.deals[-1].winner == "c"
    assert table.nets == {"a": -kr(4), "b": -kr(12), "c": kr(14), "d": -kr(4)}


def test_a_fourth_trick_winner_in_the_tied_pair_loses_the_tie():
    # K7: counting starts with him, so the other one of the pair sits later.
    settlement = k.settle_showing(
        {"a": "2", "b": "9", "c": "2", "d": "10"}, first="b", fourth_trick="c", pot_ore=kr(8)
    )
    assert settlement.winner == "a"


def test_the_showing_is_told_in_lines_with_the_money_as_ore():
    settlement = k.settle_showing(
        {"a": "2", "b": "9", "c": "2", "d": "10"}, first="b", fourth_trick="c", pot_ore=kr(8)
    )
    shown, won, stakes = settlement.lines
    assert shown == "b lays up: a 2, b 9, c 2, d 10"
    assert won.template == (
        "{player} has {card} and wins the pot of {amount}; {first} pays {player} as much "
        "({penalty})"
    )
    assert won.params == {
        "player": "a",
        "card": "2",
        "amount": kr(8),
        "first": "b",
        "penalty": kr(8),
    }
    assert isinstance(won.params["amount"], Ore)
    assert stakes == "Stake for the next deal: b, c, d 2 kr each"


def test_two_players_at_the_showing_loser_pays_three_and_everyone_else_one():
    # "… behandlar man det som att den avslutade given omedelbart hade följts av en budrunda där
    # alla spelarna måste betala en insats på en krona … förloraren … sammanlagt … tre kronor, och
    # övriga spelare betalar en krona var." (K5: the folders pay too.) "… den tänkta, extra
    # budrundan inte påverkar hur turen att ge går vidare".
    table = to_the_showing(
        started().calls("b knock", "c fold", "d fold", "a stay", "b knock"), fourth="a"
    )
    table.calls("a bud", "b show")
    table("reveal", cards={"a": "11", "b": "2"})
    assert table.state.deals[-1].winner == "b"
    assert table.pot == kr(3) + kr(1) * 3
    assert table.nets == {"a": -kr(5), "b": kr(5), "c": -kr(3), "d": -kr(3)}
    assert table.state.dealer == "b"


def test_two_players_at_the_showing_with_a_beaten_first_shower():
    # K5: the rule applies when the loser is the wrong first shower, who pays the penalty too.
    table = to_the_showing(
        started().calls("b knock", "c fold", "d fold", "a stay", "b knock"), fourth="b"
    )
    table.calls("b show")
    table("reveal", cards={"a": "2", "b": "11"})
    assert table.state.deals[-1].winner == "a"
    assert table.nets == {"a": kr(13), "b": -kr(13), "c": -kr(3), "d": -kr(3)}
    assert table.pot == kr(6)


def test_the_two_player_rule_is_a_club_option():
    rules = k.Rules(two_player_rule=False)
    table = started(rules=rules).calls("b knock", "c fold", "d fold", "a stay", "b knock")
    to_the_showing(table, fourth="a").calls("a show")
    table("reveal", cards={"a": "2", "b": "11"})
    assert table.pot == kr(2)
    assert table.nets == {"a": kr(6), "b": -kr(4), "c": -kr(2), "d": -kr(2)}


def test_a_showing_refuses_cards_outside_the_kille_deck_and_a_third_copy():
    table = to_the_showing(
        started().calls("b knock", "c stay", "d stay", "a stay", "b knock"), fourth="b"
    )
    table.calls("b show")
    assert "not a Kille card" in table.refused(
        "reveal", cards={"a": "13", "b": "3", "c": "8", "d": "4"}
    )
    assert "two" in table.refused("reveal", cards={"a": "3", "b": "3", "c": "3", "d": "4"})
    assert "missing" in table.refused("reveal", cards={"a": "3", "b": "2", "c": "8"})


def test_a_card_seen_in_the_tricks_counts_towards_its_two_copies():
    table = three_players_to_the_tricks()
    for cards in TRICKS_3:
        table("trick", cards=cards)
    table.calls("a show")
    # kille was played in trick 1, and two more killes cannot be shown.
    assert "two" in table.refused("reveal", cards={"a": "kille", "b": "kille", "c": "5"})


def test_the_three_player_deal_with_tricks_settles_from_the_shown_cards():
    table = three_players_to_the_tricks()
    for cards in TRICKS_3:
        table("trick", cards=cards)
    table.calls("a bud", "b show")
    table("reveal", cards={"a": "4", "b": "2", "c": "5"})
    assert table.state.deals[-1].winner == "b"
    assert table.pot == kr(4)
    assert table.nets == {"a": -kr(2), "b": kr(6), "c": -kr(2)}


def test_a_two_player_evening_works_with_the_same_rules():
    # K10: "Högst sex spelare", no minimum; one fold ends the deal.
    table = started(("a", "b")).calls("b knock", "a fold")
    assert table.nets == {"a": -kr(3), "b": kr(1)}
    assert table.pot == kr(2)
    assert table.state.dealer == "b"


# --- the settlement calculator -----------------------------------------------------------------


def test_the_settlement_calculator_lists_every_transfer():
    settlement = k.settle_showing(
        {"a": "blompottan", "b": "3", "d": "7"},
        first="b",
        fourth_trick="b",
        pot_ore=kr(8),
        players=P4,
    )
    assert settlement.winner == "a"
    assert settlement.lowest == "blompottan"
    assert settlement.penalty_ore == kr(8)
    assert settlement.transfers == (
        k.Transfer("b", POT, kr(8)),
        k.Transfer(POT, "a", kr(16)),
        k.Transfer("b", POT, kr(2)),
        k.Transfer("d", POT, kr(2)),
    )
    assert settlement.nets == {"a": kr(16), "b": -kr(10), "c": 0, "d": -kr(2)}
    assert settlement.pot_after_ore == kr(4)


def test_the_settlement_calculator_refuses_what_cannot_happen():
    with pytest.raises(IllegalEvent, match="first"):
        k.settle_showing({"a": "1", "b": "2"}, first="c", fourth_trick="a", pot_ore=100)
    with pytest.raises(IllegalEvent, match="two"):
        k.settle_showing({"a": "1"}, first="a", fourth_trick="a", pot_ore=100)
    with pytest.raises(IllegalEvent, match="negative"):
        k.settle_showing({"a": "1", "b": "2"}, first="a", fourth_trick="a", pot_ore=-1)
    with pytest.raises(IllegalEvent, match="two"):
        k.settle_showing({"a": "1", "b": "1", "c": "1"}, first="a", fourth_trick="a", pot_ore=100)


# --- the evening -------------------------------------------------------------------------------


def test_an_evening_of_four_deals_step_by_step():
    table = Table()
    table("ante")
    assert (table.pot, table.nets) == (kr(8), dict.fromkeys(P4, -kr(2)))
    # Deal 1, a deals: a budrunda.
    table.calls("b bud", "c bud", "d bud", "a bud")
    assert (table.pot, table.nets) == (kr(12), dict.fromkeys(P4, -kr(3)))
    # Deal 2, b deals, c is förhand: c knocks, d and b fold, a stays, the exchange, c knocks
    # again, a takes the fourth trick, a says bud and c shows; a's equal 4 takes the pot and c
    # pays the penalty; two at the showing: c pays 3 kr, everyone else 1 kr.
    table.calls("c knock", "d fold", "a stay", "b fold")
    table("exchange", counts={"c": 2, "a": 1})
    table.calls("c knock")
    table("fourth_trick", "a")
    table.calls("a bud", "c show")
    table("reveal", cards={"c": "4", "a": "4"})
    assert table.pot == kr(6)
    assert table.nets == {"a": kr(20), "b": -kr(4), "c": -kr(18), "d": -kr(4)}
    # Deal 3, c deals, d is förhand: a knocks, nobody folds, everyone says bud the second time.
    table.calls("d bud", "a knock", "b stay", "c stay", "d stay")
    table.calls("d bud", "a bud", "b bud", "c bud")
    assert table.pot == kr(10)
    assert table.nets == {"a": kr(19), "b": -kr(5), "c": -kr(19), "d": -kr(5)}
    # Deal 4, d deals, a is förhand: a knocks and everyone folds.
    table.calls("a knock", "b fold", "c fold", "d fold")
    assert table.pot == kr(4)
    assert table.nets == {"a": kr(28), "b": -kr(6), "c": -kr(20), "d": -kr(6)}
    assert [row.outcome for row in table.state.deals] == [
        "budrunda",
        "showing",
        "budrunda",
        "walkover",
    ]
    # The evening ends: standings by money won, placement 1 = most; ties share.
    table("end_evening")
    state = table.state
    assert state.finished
    assert [(s.player, s.placement, s.score) for s in state.standings] == [
        ("a", 1, kr(28)),
        ("b", 2, -kr(6)),
        ("d", 2, -kr(6)),
        ("c", 4, -kr(20)),
    ]
    assert state.league_details == {
        "a": {"pots_won": 2},
        "b": {"pots_won": 0},
        "c": {"pots_won": 0},
        "d": {"pots_won": 0},
    }
    assert state.pot_ore == kr(4)  # stays in the club's pot for the next evening
    assert "evening is over" in table.refused("bud", "a")


def test_the_evening_ends_only_between_deals():
    table = started().calls("b bud")
    assert "deal" in table.refused("end_evening")
    fresh = Table()
    fresh("end_evening")
    assert fresh.state.finished
    assert all(s.placement == 1 for s in fresh.state.standings)


def test_the_deal_passes_one_seat_after_every_kind_of_deal():
    table = started()
    dealers = [table.state.dealer]
    table.calls("b bud", "c bud", "d bud", "a bud")  # budrunda
    dealers.append(table.state.dealer)
    table.calls("c knock", "d fold", "a fold", "b fold")  # walkover
    dealers.append(table.state.dealer)
    table.calls("d knock", "a stay", "b stay", "c stay", "d knock")
    table("fourth_trick", "d").calls("d show")
    table("reveal", cards={"a": "1", "b": "2", "c": "3", "d": "blaren"})  # showing
    dealers.append(table.state.dealer)
    assert dealers == ["a", "b", "c", "d"]


def test_the_first_dealer_can_be_chosen():
    table = Table(first_dealer="c")
    assert (table.state.dealer, table.state.forhand) == ("c", "d")


def test_new_game_refuses_a_bad_table():
    with pytest.raises(IllegalEvent, match="2–6"):
        k.new_game(list("abcdefg"))
    with pytest.raises(IllegalEvent, match="2–6"):
        k.new_game(["a"])
    with pytest.raises(IllegalEvent, match="negative"):
        k.new_game(P4, pot_ore=-100)
    with pytest.raises(ValueError, match="base_stake_ore"):
        k.Rules(base_stake_ore=-1)


def test_unknown_events_and_missing_players_are_refused():
    table = started()
    assert "Kille records nothing called 'dance'" in table.refused("dance")
    assert "the player who bids" in table.refused("bud")


def test_every_payload_is_checked_against_its_declaration():
    table = started()
    # A typo of a real key is named, not read as "no player given".
    assert "'playr'" in table.refused("bud", playr="b")
    assert "a bid (bud) needs the player who bids" in table.refused("bud")
    assert "the player who bids must be a player at the table" in table.refused("bud", 7)
    assert "records only that it happened" in table.refused("end_evening", "b")
    table.calls("b knock")
    assert "staying in needs the player who stays" in table.refused("stay")
    assert "the exchange needs the cards each player exchanged" in table.refused("exchange")
    assert "'count'" in table.refused("exchange", count={"b": 1})
    assert "each player exchanged must be" in table.refused("exchange", counts=[1, 2])
    assert "the showing: the cards shown: c must be" in table.refused("reveal", cards={"c": [5]})
    assert "records nothing called 'lay_up'" in table.refused("lay_up", "b")
    assert tuple(k.EVENTS) == k.EVENT_TYPES
    assert "stay" in k.EVENT_TYPES


def test_the_state_is_json_friendly():
    table = to_the_showing(
        started().calls("b knock", "c fold", "d stay", "a stay", "b knock"), fourth="b"
    )
    table.calls("b show")
    table("reveal", cards={"a": "blompottan", "b": "3", "d": "7"})
    json.dumps(dataclasses.asdict(table.state))


# --- hypothesis: random legal evenings ---------------------------------------------------------


def deal_hands(rng, players):
    deck = list(KILLE_DECK)
    rng.shuffle(deck)
    hands = {p: [deck.pop() for _ in range(5)] for p in players}
    return hands, deck


def play_tricks(table, rng, hands):
    """Four tricks played by the rules: overtake (or equal) if you can, else your lowest."""
    for _ in range(4):
        state = table.state
        highest, cards = None, {}
        for player in k.clockwise(state.players, state.leader, state.active):
            over = [c for c in hands[player] if highest is not None and c >= highest]
            allowed = hands[player] if highest is None else over or [min(hands[player])]
            card = rng.choice(allowed)
            hands[player].remove(card)
            cards[player] = card.label
            highest = card if highest is None else max(highest, card)
        table("trick", cards=cards)


def play_deal(table, rng, enter_tricks):
    """One deal with random legal choices, recorded as the pad would."""
    number = table.state.deal_no
    hands, talon = deal_hands(rng, table.state.players)
    while table.state.deal_no == number:
        state = table.state
        if state.phase == "fold":
            table("fold" if rng.random() < 0.3 else "stay", state.to_act)
        elif "exchange" in state.expected and rng.random() < 0.4:
            counts = {p: rng.randint(0, 2) for p in state.active}
            for player, count in counts.items():
                for _ in range(count):
                    hands[player].remove(rng.choice(hands[player]))
                    hands[player].append(talon.pop())
            table("exchange", counts=counts)
        elif state.phase == "tricks":
            if enter_tricks:
                play_tricks(table, rng, hands)
            else:
                table("fourth_trick", rng.choice(state.active))
        elif state.phase == "showing":
            table("bud" if rng.random() < 0.4 else "show", state.to_act)
        elif state.phase == "reveal":
            # Without entered tricks the last card is any card still in the hand.
            table("reveal", cards={p: rng.choice(hands[p]).label for p in state.active})
        else:
            table("bud" if rng.random() < 0.55 else "knock", state.to_act)


class CheckedTable(Table):
    """A table that checks the money invariants after every event."""

    def __call__(self, type_, player=None, **payload):
        super().__call__(type_, player, **payload)
        nets = net_by_account(self.transfers)
        assert sum(nets.values()) == 0
        assert self.state.pot_ore == self.start_pot + nets.get(POT, 0)
        assert self.state.pot_ore >= 0
        assert {p: nets.get(p, 0) for p in self.state.players} == self.state.won_ore
        # Every stake and payment moves money between a player and the pot.
        assert all(POT in (t.payer, t.payee) for t in self.state.transfers)
        return self


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
    pot=st.sampled_from([0, 0, 100, 1450]),
    deals=st.integers(1, 8),
    enter_tricks=st.booleans(),
    two_player_rule=st.booleans(),
)
def test_random_evenings_conserve_money_and_never_overdraw_the_pot(
    players, seed, pot, deals, enter_tricks, two_player_rule
):
    rng = random.Random(seed)
    names = tuple(f"s{i}" for i in range(players))
    table = CheckedTable(names, pot_ore=pot, rules=k.Rules(two_player_rule=two_player_rule))
    if "ante" in table.state.expected:
        table("ante")
    for number in range(deals):
        play_deal(table, rng, enter_tricks)
        assert table.state.deal_no == number + 2
        assert table.state.phase == "declare"
    table("end_evening")
    scores = {s.player: s.score for s in table.state.standings}
    assert sum(scores.values()) + table.state.pot_ore == pot
    assert sum(d["pots_won"] for d in table.state.league_details.values()) == sum(
        1 for row in table.state.deals if row.winner
    )


def test_every_kille_rank_is_in_the_deck_twice():
    assert all(KILLE_DECK.count(rank) == 2 for rank in KilleRank)


def test_state_updates_refuse_a_field_that_does_not_exist():
    state = k.new_game(P4)
    with pytest.raises(TypeError, match="no field"):
        k._update(state, pott=100)
    assert k._update(state, pot_ore=100) == dataclasses.replace(state, pot_ore=100)
