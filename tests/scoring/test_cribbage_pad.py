"""Cribbage through the pad's forms: options from the start form, a game to the end with a
stake, skunks and the league, undo of the winning count, and points a hand cannot have (at
all, or with the starter cut)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.urls import reverse

import ledger
from engine import cribbage
from league.models import GameResult
from scoring.games.cribbage import PEG_CHIPS, points_choices
from scoring.models import GameStatus
from tests.scoring.pad import p_fields, pad_url, post_event, start_from_form


def start(client, club, players, **rules):
    return start_from_form(client, club, "cribbage", players, **rules)


def record(client, game, type_, **fields):
    return post_event(client, game, type_, p_fields(**fields))


def test_the_start_form_passes_numeric_options_as_numbers(scorer_client, club, scorer, member):
    game = start(scorer_client, club, [scorer, member], target="61", stake_ore="5")
    assert game.rules == {"target": 61, "stake_ore": 500}
    assert game.snapshot["rules"]["target"] == 61


def test_a_game_to_61_ends_with_a_skunk_paid_double_and_reaches_the_league(
    scorer_client, club, scorer, member, django_capture_on_commit_callbacks
):
    game = start(scorer_client, club, [scorer, member], target="61", stake_ore="5")
    # Deal 1, Sune deals: Maja (non-dealer) counts 29 by tapping 5♥ 5♠ 5♣ J♦ with the 5♦.
    assert record(scorer_client, game, "starter", card="5D").status_code == 200
    data = {"p_cards[]": ["5H", "5S", "5C", "JD"]}
    response = post_event(scorer_client, game, "show", {"p_player": "s1"} | data, key="h1")
    assert response.status_code == 200
    assert "femton 2" in response.content.decode()
    assert record(scorer_client, game, "show", player="s0", points=2).status_code == 200
    # With a five cut no crib scores 0 (a ten-card, or two cards to ten, makes fifteen).
    assert record(scorer_client, game, "crib", points=2).status_code == 200
    # Deal 2, Maja deals: Sune counts 4; Maja pegs 2 and counts 24: 29 + 2 + 24 = 55.
    record(scorer_client, game, "starter", card="4C")
    record(scorer_client, game, "peg", player="s1", points=2)
    record(scorer_client, game, "show", player="s0", points=4)
    with django_capture_on_commit_callbacks(execute=True):
        record(scorer_client, game, "show", player="s1", points=24)
        record(scorer_client, game, "crib", points=6)  # 61: the game ends, Sune has 8 < 31
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.snapshot["skunk"] == 1
    # A skunk doubles the stake: Sune pays Maja 10 kr.
    assert ledger.balance(ledger.member_account(member)) == 1000
    assert ledger.balance(ledger.member_account(scorer)) == -1000
    results = {r.member_id: r for r in GameResult.objects.filter(game_ref=game.ref)}
    assert results[member.pk].placement == 1
    assert results[member.pk].details["skunks_given"] == 1
    assert results[scorer.pk].details["skunks_taken"] == 1


def test_undoing_the_winning_count_reverses_the_stake(scorer_client, club, scorer, member):
    game = start(scorer_client, club, [scorer, member], target="61", stake_ore="2")
    record(scorer_client, game, "starter", card="5D")
    record(scorer_client, game, "show", player="s1", points=29)
    # 29 took the other three fives and J♦: Sune cannot have 29 too (issue 25), 24 he can.
    assert record(scorer_client, game, "show", player="s0", points=29).status_code == 422
    record(scorer_client, game, "show", player="s0", points=24)
    record(scorer_client, game, "crib", points=2)
    record(scorer_client, game, "starter", card="4D")
    record(scorer_client, game, "show", player="s0", points=24)  # 50
    record(scorer_client, game, "show", player="s1", points=24)  # 53
    record(scorer_client, game, "crib", points=8)  # Maja's crib: 61, Sune 50 is no skunk
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert ledger.balance(ledger.member_account(member)) == 200
    assert record(scorer_client, game, "undo").status_code == 200
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN
    assert game.snapshot["phase"] == "crib"
    assert ledger.balance(ledger.member_account(member)) == 0
    assert ledger.balance(ledger.member_account(scorer)) == 0


@pytest.mark.parametrize("points", [19, 25, 26, 27, 30])
def test_points_a_hand_cannot_have_are_refused_and_nothing_is_stored(
    scorer_client, club, scorer, member, points
):
    game = start(scorer_client, club, [scorer, member])
    record(scorer_client, game, "starter", card="5D")
    response = record(scorer_client, game, "show", player="s1", points=points)
    assert response.status_code == 422
    game.refresh_from_db()
    assert game.seq == 1
    assert game.snapshot["scores"] == {"s0": 0, "s1": 0}


@pytest.mark.parametrize(
    ("starter", "type_", "points", "swedish"),
    [
        ("KD", "show", 29, "Med K♦ som starter ger en hand högst 28 poäng"),
        ("5D", "show", 0, "Med 5♦ som starter kan ingen hand ge 0 poäng"),
        ("KD", "crib", 29, "Med K♦ som starter ger en krubba högst 28 poäng"),
        ("AS", "crib", 17, "Med A♠ som starter kan ingen krubba ge 17 poäng"),
    ],
    ids=["29 with a king cut", "0 with a five cut", "a crib of 29", "a crib of 17 with an ace"],
)
def test_a_total_the_starter_rules_out_is_refused_in_swedish_naming_the_starter(
    scorer_client, club, scorer, member, starter, type_, points, swedish
):
    game = start(scorer_client, club, [scorer, member])
    record(scorer_client, game, "starter", card=starter)
    if type_ == "crib":
        record(scorer_client, game, "show", player="s1", points=2)
        record(scorer_client, game, "show", player="s0", points=2)
    game.refresh_from_db()
    seq = game.seq
    fields = {"p_points": points} | ({"p_player": "s1"} if type_ == "show" else {})
    response = post_event(scorer_client, game, type_, fields, seq=seq, key="bad")
    assert response.status_code == 422
    assert swedish in response.content.decode()
    game.refresh_from_db()
    assert game.seq == seq


@pytest.mark.parametrize(
    "cards",
    [
        ["5H", "5H", "5C", "JD"],
        ["5H", "5S", "5C"],
        ["5H", "5S", "5C", "5D"],
        ["5H", "5S", "XX", "JD"],
    ],
    ids=["a card twice", "three cards", "the starter in the hand", "no such card"],
)
def test_tapped_cards_that_cannot_be_are_refused(scorer_client, club, scorer, member, cards):
    game = start(scorer_client, club, [scorer, member])
    record(scorer_client, game, "starter", card="5D")
    fields = {"p_player": "s1", "p_cards[]": cards}
    response = post_event(scorer_client, game, "show", fields, seq=1, key="bad")
    assert response.status_code == 422
    assert 'role="alert"' in response.content.decode()
    game.refresh_from_db()
    assert game.seq == 1


def test_the_start_form_offers_the_clubs_last_options(scorer_client, club, scorer, member):
    url = reverse("scoring:game-start", args=[club.slug, "cribbage"])
    first = scorer_client.get(url)
    assert first.context["form"]["rule_target"].initial == 121
    start(scorer_client, club, [scorer, member], target="61", stake_ore="2,50")
    again = scorer_client.get(url)
    assert again.context["form"]["rule_target"].initial == 61
    assert again.context["form"]["rule_stake_ore"].initial == "2,50"


@pytest.mark.parametrize(
    ("starter", "phase", "offered", "not_offered"),
    [
        ("KD", "show", {0, 28}, {29, 19}),
        ("5H", "show", {2, 29}, {0, 1, 19}),
        ("5H", "crib", {2, 29}, {0, 1}),
        (None, "starter", {0, 29}, {19, 25, 26, 27}),
    ],
)
def test_the_chips_offer_only_the_totals_the_starter_allows(starter, phase, offered, not_offered):
    state = cribbage.new_game(["a", "b"])
    if starter:
        state = cribbage.apply(state, {"type": "starter", "card": starter})
    choices = set(points_choices(replace(state, phase=phase)))
    assert offered <= choices
    assert not (not_offered & choices)


# --- the play by cards -------------------------------------------------------------------------


def test_the_play_is_recorded_by_tapping_ranks_and_go_and_the_engine_scores_it(
    scorer_client, club, scorer, member
):
    # Sune (s0) deals, Maja (s1) leads: 5, 10 (15: Sune 2), 7, 7 (a pair: Sune 2), Maja go,
    # 2 (31: Sune 2); then Maja 3, Sune 4, Maja 5 (a run: 3, and the last card: 1).
    game = start(scorer_client, club, [scorer, member])
    record(scorer_client, game, "starter", card="KS")
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="play-cards"' in page
    assert 'data-testid="peg-s0-2"' in page  # the quick way is still offered
    for points in (5, 8, 12):  # 15 and a run, 15 and a pair royal, a double pair royal
        assert f'data-testid="peg-s0-{points}"' in page
    taps = [("s1", 5), ("s0", 10), ("s1", 7), ("s0", 7), ("s1", "go"), ("s0", 2)]
    taps += [("s1", 3), ("s0", 4), ("s1", 5)]
    for player, rank in taps:
        fields = {"p_player": player} if rank == "go" else {"p_player": player, "p_card": rank}
        response = post_event(scorer_client, game, "go" if rank == "go" else "play", fields)
        assert response.status_code == 200
    game.refresh_from_db()
    assert game.snapshot["scores"] == {"s0": 6, "s1": 4}
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="play-cards"' not in page
    assert 'data-testid="show-2"' in page  # now the hands are counted


def test_a_rank_that_cannot_be_played_is_no_button(scorer_client, club, scorer, member):
    game = start(scorer_client, club, [scorer, member])
    record(scorer_client, game, "starter", card="5S")
    for player, rank in [("s1", 5), ("s0", 5), ("s1", 5), ("s0", 10)]:
        post_event(scorer_client, game, "play", {"p_player": player, "p_card": rank})
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="play-count">25<' in page
    # At 25 only A-6 fit, and every five is out (three played, one cut).
    assert '<span class="chip off" aria-disabled="true" data-testid="play-7">' in page
    assert '<span class="chip off" aria-disabled="true" data-testid="play-5">' in page
    assert 'value="6" class="chip" data-testid="play-6"' in page
    assert '<button type="submit" class="chip go" data-testid="play-go">' in page
    assert 'data-testid="peg-s0-2"' not in page  # no points by hand once cards are played


def test_a_card_out_of_turn_is_refused_in_swedish_and_nothing_is_stored(
    scorer_client, club, scorer, member
):
    game = start(scorer_client, club, [scorer, member])
    record(scorer_client, game, "starter", card="KS")
    response = post_event(scorer_client, game, "play", {"p_player": "s0", "p_card": 5}, seq=1)
    assert response.status_code == 422
    refusal = "Det är Maja Medlem som spelar nu (eller säger pass), inte Sune Skrivare"
    assert refusal in response.content.decode()
    game.refresh_from_db()
    assert game.seq == 1


# --- a peg remembered late -----------------------------------------------------------------------


def test_no_pegging_chips_while_the_hands_are_counted_yet_a_late_peg_still_counts(
    scorer_client, club, scorer, member
):
    # Issue 25: on a board the shows are pegged with the same pegs, so while the hands and the
    # crib are counted the pad offers their points, not pegging chips.
    game = start(scorer_client, club, [scorer, member])
    record(scorer_client, game, "starter", card="5D")
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="peg-s0-2"' in page  # pegging: the chips as they always were
    record(scorer_client, game, "peg", player="s1", points=2)
    record(scorer_client, game, "show", player="s1", points=8)
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="show-2"' in page
    assert 'data-testid="late-peg"' not in page
    assert "Glömde någon att pegga i spelet?" not in page
    for seat in ("s0", "s1"):
        for points in PEG_CHIPS:
            assert f'data-testid="peg-{seat}-{points}"' not in page
    # A peg recorded late (a game recorded before, a queued entry) still moves the board.
    response = record(scorer_client, game, "peg", player="s0", points=1)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.snapshot["scores"] == {"s0": 1, "s1": 10}
    assert game.snapshot["deals"][-1]["pegging"] == {"s0": 1, "s1": 2}
    assert "Sune Skrivare +1 (i efterhand, från spelet)" in response.content.decode()
    assert game.snapshot["to_show"] == "s0"  # his hand is still to count
    record(scorer_client, game, "show", player="s0", points=4)
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="crib-2"' in page
    assert 'data-testid="peg-s1-1"' not in page  # nor while the crib is counted


def test_a_deal_played_card_by_card_offers_no_late_peg_and_refuses_one(
    scorer_client, club, scorer, member
):
    game = start(scorer_client, club, [scorer, member])
    record(scorer_client, game, "starter", card="KS")
    for player, rank in zip(["s1", "s0"] * 4, "AAA22233", strict=True):
        post_event(scorer_client, game, "play", {"p_player": player, "p_card": rank}, status=200)
    # Maja laid A A 2 3: with K♠ cut her hand is 12 whatever the suits (issue 25).
    record(scorer_client, game, "show", player="s1", points=12)
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="show-2"' in page
    assert 'data-testid="late-peg"' not in page
    assert 'data-testid="peg-s0-1"' not in page
    game.refresh_from_db()
    seq, scores = game.seq, game.snapshot["scores"]
    response = record(scorer_client, game, "peg", player="s0", points=1)
    assert response.status_code == 422
    assert "spelas kort för kort" in response.content.decode()
    game.refresh_from_db()
    assert (game.seq, game.snapshot["scores"]) == (seq, scores)


# --- at the table (issue 25) -----------------------------------------------------------------


def test_the_deals_table_puts_a_separator_only_between_two_parts(
    scorer_client, club, scorer, member
):
    game = start(scorer_client, club, [scorer, member])
    record(scorer_client, game, "starter", card="5D")
    record(scorer_client, game, "show", player="s1", points=20)  # nothing pegged: "20"
    record(scorer_client, game, "show", player="s0", points=2)
    record(scorer_client, game, "crib", points=4)  # the dealer: "2 · ▣4"
    page = scorer_client.get(pad_url(game)).content.decode()
    table = page[page.index("<tbody>") : page.index("</tbody>")]
    cells = [
        " ".join(cell.split("</td>")[0].split()) for cell in table.split('<td class="num">')[1:]
    ]
    assert cells[-2:] == ["2 · ▣4", "20"]


def test_the_calculator_shows_cards_not_codes_and_lists_starters_in_the_grids_order(client):
    url = reverse("scoring:calc-cribbage-hand")
    response = client.get(url, {"cards": ["4H", "5H", "6D", "KH"], "starter": "2D"})
    page = response.content.decode()
    run = [item["cards"] for item in response.context["items"] if item["points"] == 3]
    assert run == [["4♥", "5♥", "6♦"]]
    assert "4♥ 5♥ 6♦" in page
    assert "4H 5H 6D" not in page
    starters = [pretty for _code, pretty in response.context["starter_choices"]]
    grid = [card.pretty for _suit, cards in response.context["grid"] for card in cards]
    assert starters == grid
    assert [s[-1] for s in starters[::13]] == ["♠", "♥", "♦", "♣"]
