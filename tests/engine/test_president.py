"""President / Trouduc: worked examples from the rules text (populara_kortspel.sv.txt, the
section on the game the app calls President; NOTES.md PR1–PR3), bad input, and hypothesis
invariants: every deal hands out exactly the placement points."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import president as pr
from engine.errors import IllegalEvent, RulesError

PLAYERS = ("a", "b", "c", "d")


def deal(*order):
    return {"type": "deal", "order": list(order)}


def out(player):
    return {"type": "out", "player": player}


def play(*events, players=PLAYERS, rules=None):
    state = pr.new_game(players, rules or pr.Rules())
    for event in events:
        state = pr.apply(state, event)
    return state


def test_placement_points_run_from_one_less_than_the_players_down_to_zero():
    # "Den som först blir av med alla sina kort får en poäng mindre än antalet spelare: alltså
    # t.ex. 4 poäng om man är fem spelare. Näste får då 3 poäng, näste 2 poäng och näste 1
    # poäng. Kvar är den som fortfarande har kort kvar på handen; han får ingen poäng alls" (PR2)
    assert pr.placement_points(5) == (4, 3, 2, 1, 0)
    assert pr.placement_points(3) == (2, 1, 0)
    # Trouduc: "den som först blivit av med alla sina kort får 2 poäng och näste 1 poäng medan
    # de övriga inte får någon poäng alls"
    assert pr.placement_points(5, trouduc=True) == (2, 1, 0, 0, 0)


def test_a_deal_scores_the_order_in_which_players_went_out():
    state = play(deal("c", "a", "d", "b"))
    assert state.scores == {"a": 2, "b": 0, "c": 3, "d": 1}
    row = state.sheet[0]
    assert (row.number, row.order, row.points) == (
        1,
        ("c", "a", "d", "b"),
        {"c": 3, "a": 2, "d": 1, "b": 0},
    )
    assert (state.president, state.last) == ("c", "b")
    # From the second deal the last one deals and the president leads.
    assert state.dealer == "b"
    assert state.log[:2] == ("Deal 1: c +3, a +2, d +1, b +0", "c is president, b is last")


def test_the_last_player_may_be_left_out_of_the_order():
    assert play(deal("c", "a", "d")).scores == {"a": 2, "b": 0, "c": 3, "d": 1}


def test_tapping_players_out_one_by_one_completes_the_deal_at_the_last_but_one():
    state = play(out("c"), out("a"))
    assert state.pending == ("c", "a")
    assert state.scores == dict.fromkeys(PLAYERS, 0)
    assert state.sheet == ()
    assert state.expected == ("out",)
    state = pr.apply(state, out("d"))
    assert state.pending == ()
    assert state.scores == {"a": 2, "b": 0, "c": 3, "d": 1}
    assert state.sheet[0].order == ("c", "a", "d", "b")
    assert state.expected == ("out", "deal")


GAME = (
    deal("c", "a", "d", "b"),
    deal("c", "d", "a", "b"),
    deal("a", "c", "b", "d"),
    deal("c", "a", "b", "d"),
    deal("c", "a", "d", "b"),
)


def test_the_first_to_reach_the_target_wins():
    # "Man spelar över flera givar tills någon nått upp i en överenskommen summa, t.ex. 15 eller
    # 25 poäng. Den spelaren har då vunnit."
    state = play(*GAME)
    assert state.scores == {"a": 10, "b": 2, "c": 14, "d": 4}
    assert not state.finished
    state = pr.apply(state, deal("a", "c", "d", "b"))
    assert state.scores == {"a": 13, "b": 2, "c": 16, "d": 5}
    assert state.finished
    assert state.winner == "c"
    assert state.expected == ()
    assert [(s.player, s.placement, s.score) for s in state.standings] == [
        ("c", 1, 16),
        ("a", 2, 13),
        ("d", 3, 5),
        ("b", 4, 2),
    ]
    with pytest.raises(IllegalEvent, match="over"):
        pr.apply(state, out("a"))


def test_a_target_of_25_plays_on():
    state = play(*GAME, deal("a", "c", "d", "b"), rules=pr.Rules(target=25))
    assert not state.finished


BUILD_UP = (deal("c", "a", "b", "d"),) * 4 + (deal("a", "c", "b", "d"),)  # a 11, c 14


def test_equal_totals_at_the_target_go_to_the_most_points_in_the_last_deal():
    # "Kommer flera samtidigt upp i samma poängsumma, vinner den som fick flest poäng i den
    # sista given."
    state = play(*BUILD_UP, deal("b", "a", "d", "c"))
    assert state.scores == {"a": 13, "b": 8, "c": 14, "d": 1}
    state = pr.apply(state, deal("a", "c", "b", "d"))
    assert (state.scores["a"], state.scores["c"]) == (16, 16)
    assert state.winner == "a"
    assert [s.player for s in state.standings][:2] == ["a", "c"]
    assert [s.placement for s in state.standings][:2] == [1, 2]


def test_different_totals_at_the_target_go_to_the_highest():
    # PR1: the seed resolves only equal totals; the highest total wins.
    state = play(*BUILD_UP, deal("b", "d", "a", "c"))
    assert state.scores == {"a": 12, "b": 8, "c": 14, "d": 2}
    state = pr.apply(state, deal("a", "c", "b", "d"))
    assert (state.scores["a"], state.scores["c"]) == (15, 16)
    assert state.winner == "c"


def test_trouduc_scores_two_one_nothing_to_eleven():
    # PR3: "först till 11 poäng sammanlagt vinner"
    rules = pr.Rules(trouduc=True, target=25)  # the target option is President's only
    state = play(*[deal("a", "c", "b", "d")] * 5, rules=rules)
    assert state.scores == {"a": 10, "b": 0, "c": 5, "d": 0}
    assert state.target == 11
    state = pr.apply(state, deal("c", "a", "b", "d"))
    assert state.scores == {"a": 11, "b": 0, "c": 7, "d": 0}
    assert state.winner == "a"
    assert [(s.player, s.placement) for s in state.standings] == [
        ("a", 1),
        ("c", 2),
        ("b", 3),
        ("d", 3),
    ]


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([deal("c", "a", "c", "b")], "c is listed twice"),
        ([deal("c", "a")], "all 4 players"),
        ([deal("c", "a", "x", "b")], "'x'"),
        ([deal("a", "b", "c", "d", "a")], "twice"),
        ([{"type": "deal", "order": "cadb"}], "order"),
        ([out("c"), out("c")], "c has already gone out in this deal .number 1."),
        ([out("x")], "'x'"),
        ([out("c"), deal("c", "a", "d", "b")], "being recorded"),
        ([{"type": "trick"}], "trick"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(events, message):
    with pytest.raises(IllegalEvent, match=message):
        play(*events)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            {"type": "out", "players": "c"},
            "a player going out records nothing called 'players'; it records the player who went "
            "out",
        ),
        (
            {"type": "deal", "order": ["c", "a", "d"], "why": "x"},
            "a whole deal records nothing called 'why'",
        ),
        ({"type": "out"}, "a player going out needs the player who went out"),
        ({"type": "deal"}, "a whole deal needs the order of going out"),
        (
            {"type": "deal", "order": "cadb"},
            "a whole deal: the order of going out must be the players in the order",
        ),
        ({"type": "deal", "order": [1, 2, 3]}, "the order of going out must be"),
        (
            {"type": "out", "player": ["c"]},
            "a player going out: the player who went out must be a player at the table",
        ),
        (
            {"type": "trick"},
            "President records nothing called 'trick'; it records a player going out, a whole deal",
        ),
        (["out", "c"], "an event is a mapping"),
    ],
)
def test_the_payload_is_checked_against_its_declaration(event, message):
    with pytest.raises(IllegalEvent, match=message):
        play(event)


def test_the_event_types_come_from_the_declared_table():
    assert pr.EVENT_TYPES == ("out", "deal") == tuple(pr.EVENTS)
    assert pr.new_game(PLAYERS).expected == pr.EVENT_TYPES


def test_a_refusal_is_a_translatable_template_naming_the_player():
    with pytest.raises(IllegalEvent) as refused:
        play(out("c"), out("c"))
    assert refused.value.template == "{player} has already gone out in this deal (number {place})"
    assert refused.value.params == {"player": "c", "place": 1}


def test_the_rules_accept_the_form_text():
    assert pr.Rules(target="25").target == 25  # the start form's select sends text


@pytest.mark.parametrize("target", [0, -15, 7, 11, 16, "7", "", "femton", 15.5, True, None])
def test_the_president_target_is_one_of_the_offered_choices(target):
    # "t.ex. 15 eller 25 poäng": the start form offers 15 and 25, nothing else is played to.
    with pytest.raises(RulesError, match="President is played to 15 / 25 points, not"):
        pr.Rules(target=target)
    assert pr.Rules.CHOICES["target"] == (15, 25)


def test_trouduc_plays_to_its_own_target_option_not_an_override_of_the_chosen_one():
    # PR3: "först till 11 poäng"; the President target a Trouduc game was started with (the
    # start form sends both) is not Trouduc's, so old games replay to 11 as before.
    rules = pr.Rules(trouduc=True, target=25)
    assert (rules.trouduc_target, rules.playing_to) == (11, 11)
    assert pr.new_game(PLAYERS, rules).target == 11
    assert pr.new_game(PLAYERS, pr.Rules(target=25)).target == 25
    assert pr.Rules.CHOICES["trouduc_target"] == (11,)
    assert pr.Rules(trouduc=True, trouduc_target="11").trouduc_target == 11
    with pytest.raises(RulesError, match="Trouduc is played to 11 points, not 15"):
        pr.Rules(trouduc=True, trouduc_target=15)
    with pytest.raises(RulesError, match="Trouduc is played to 11 points, not 25"):
        pr.Rules(trouduc_target=25)  # checked with or without Trouduc: no odd pair is kept


def test_a_game_needs_three_to_six_distinct_players():
    with pytest.raises(IllegalEvent, match="3–6 players"):
        pr.new_game(["a", "b"])
    with pytest.raises(IllegalEvent, match="twice"):
        pr.new_game(["a", "b", "a"])
    assert pr.new_game(PLAYERS, first_dealer="d").dealer == "d"


def test_apply_never_changes_the_state_it_was_given_and_the_state_is_json():
    state = pr.new_game(PLAYERS)
    after = pr.apply(state, out("b"))
    assert state.pending == ()
    assert after.transfers == ()
    json.dumps(dataclasses.asdict(after))


# --- invariants ------------------------------------------------------------------------------


@st.composite
def games(draw):
    players = tuple("abcdef"[: draw(st.integers(3, 6))])
    rules = pr.Rules(target=draw(st.sampled_from((15, 25))), trouduc=draw(st.booleans()))
    orders = draw(st.lists(st.permutations(players), min_size=1, max_size=30))
    taps = draw(st.lists(st.booleans(), min_size=len(orders), max_size=len(orders)))
    return players, rules, orders, taps


@settings(max_examples=150, deadline=None)
@given(games())
def test_each_deal_hands_out_exactly_the_placement_points(game):
    players, rules, orders, taps = game
    n = len(players)
    points = pr.placement_points(n, trouduc=rules.trouduc)
    state = pr.new_game(players, rules)
    for order, tap in zip(orders, taps, strict=True):
        if state.finished:
            break
        before = dict(state.scores)
        if tap:
            for player in order[:-1]:
                state = pr.apply(state, out(player))
        else:
            state = pr.apply(state, deal(*order))
        row = state.sheet[-1]
        assert row.order == tuple(order)
        assert sorted(row.points.values()) == sorted(points)
        assert [row.points[p] for p in order] == list(points)
        assert {p: state.scores[p] - before[p] for p in players} == row.points
    assert sum(state.scores.values()) == len(state.sheet) * sum(points)
    assert state.finished == (max(state.scores.values()) >= state.target)
    for earlier in state.sheet[:-1]:
        assert max(earlier.scores.values()) < state.target
    if state.finished:
        last = state.sheet[-1].points
        best = max(players, key=lambda p: (state.scores[p], last[p]))
        assert state.winner == best
        assert [s.player for s in state.standings if s.placement == 1] == [best]
