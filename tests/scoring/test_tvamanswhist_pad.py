"""The Tvåmanswhist pad: a deal recorded with one tap, the 26-trick and weighted counts, the
match ending by its target or by hand and reaching the league, and the help pages."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from league.models import GameResult
from scoring import recording
from scoring.models import Event, Game, GameStatus
from tests.scoring.pad import help_page, pad_url, post_event, start_form

# The refusals are read word for word, in English.
pytestmark = pytest.mark.usefixtures("in_english")


def start(club, scorer, member, **rules):
    return recording.start_game(club, "tvamanswhist", [scorer, member], scorer.user, rules=rules)


def post(client, game, fields, kind="deal"):
    return post_event(client, game, kind, fields)


def test_the_pad_offers_one_button_per_result(scorer_client, club, scorer, member):
    game = start(club, scorer, member)
    page = scorer_client.get(pad_url(game)).content.decode()
    for a in range(14):
        assert f'data-testid="split-{a}-{13 - a}"' in page
    assert 'data-testid="tw-end"' not in page  # nothing to end before the first deal
    assert "tvamanswhist.css" in page
    assert reverse("scoring:game-help", args=["tvamanswhist"]) in page


def test_a_tap_records_the_deal_and_the_match_to_three_reaches_the_league(
    scorer_client, club, scorer, member, django_capture_on_commit_callbacks
):
    game = start(club, scorer, member)
    response = post(scorer_client, game, {"p_tricks.s0": "8"})
    assert response.status_code == 200
    assert Event.objects.get(game=game).payload == {"tricks": {"s0": 8}}
    assert game.snapshot["deals_won"] == {"s0": 1, "s1": 0}
    assert game.snapshot["sheet"][0]["counted"] == {"s0": 8, "s1": 5}
    assert "Sune Skrivare wins 8–5 in tricks" in response.content.decode()
    post(scorer_client, game, {"p_tricks.s0": "4"})
    post(scorer_client, game, {"p_tricks.s0": "7"})
    with django_capture_on_commit_callbacks(execute=True):
        response = post(scorer_client, game, {"p_tricks.s0": "10"})
    assert game.status == GameStatus.FINISHED
    assert 'data-testid="winner"' in response.content.decode()
    assert 'data-testid="tw-deal"' not in response.content.decode()
    rows = {r.seat: r for r in GameResult.objects.filter(game_ref=game.ref)}
    assert {seat: (r.placement, r.score) for seat, r in rows.items()} == {0: (1, 3), 1: (2, 1)}
    assert rows[0].details == {"deals_won": 3}


def test_thirteen_all_in_the_26_count_is_two_buttons_for_the_last_trick(
    scorer_client, club, scorer, member
):
    # TW2: 13–13 goes to whoever took the last trick.
    game = start(club, scorer, member, counting="26")
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="split-26-0"' in page
    assert 'data-testid="split-13-13-s1"' in page
    payload = json.dumps({"tricks": {"s0": 13}, "last": "s1"})
    response = post(scorer_client, game, {"payload": payload})
    assert response.status_code == 200
    assert game.snapshot["sheet"][0]["winner"] == "s1"
    refused = post(scorer_client, game, {"p_tricks.s0": "13"})
    assert refused.status_code == 422
    assert "who took the last trick" in refused.content.decode()
    assert game.seq == 1


def test_the_weighted_count_takes_early_and_late_tricks(scorer_client, club, scorer, member):
    game = start(club, scorer, member, counting="points")
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="early-13"' in page
    assert 'data-testid="late-0"' in page
    # s0 10 early + 2 × 4 late = 18; s1 3 + 2 × 9 = 21.
    post(scorer_client, game, {"p_early.s0": "10", "p_late.s0": "4"})
    assert game.snapshot["points"] == {"s0": 18, "s1": 21}
    assert game.snapshot["deals_won"] == {"s0": 0, "s1": 1}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"p_tricks.s0": "14"}, "cannot take 14 of 13"),
        ({"p_tricks.s0": "8", "p_tricks.s1": "8"}, "add up to 16"),
        ({}, "How many tricks"),
    ],
)
def test_bad_input_is_refused_with_422_and_nothing_is_stored(
    scorer_client, club, scorer, member, fields, message
):
    game = start(club, scorer, member)
    response = post(scorer_client, game, fields)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Event.objects.filter(game=game).exists()


def test_the_match_can_be_ended_by_hand(
    scorer_client, club, scorer, member, django_capture_on_commit_callbacks
):
    # TW1: an open match (no target) ends when the table says so; the one ahead wins.
    game = start(club, scorer, member, deals_to_win=0)
    assert post(scorer_client, game, {}, kind="end").status_code == 422
    post(scorer_client, game, {"p_tricks.s0": "3"})
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="tw-end"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = post(scorer_client, game, {}, kind="end")
    assert response.status_code == 200
    assert game.status == GameStatus.FINISHED
    rows = {r.seat: r.placement for r in GameResult.objects.filter(game_ref=game.ref)}
    assert rows == {0: 2, 1: 1}


def test_a_plain_member_sees_the_sheet_but_no_buttons(viewer_client, club, scorer, member):
    game = start(club, scorer, member)
    page = viewer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="tw-sheet"' in page
    assert 'data-testid="tw-deal"' not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", ["13", "sista sticket", "match", "2 poäng"]),
        ("en", ["13", "last trick", "match", "2 points"]),
    ],
)
def test_the_help_page_explains_the_scoring_in_both_languages(client, language, words):
    page = help_page(client, "tvamanswhist", language)
    for word in words:
        assert word in page


def test_the_start_form_offers_the_count_and_the_match(scorer_client, club, scorer, member):
    url = reverse("scoring:game-start", args=[club.slug, "tvamanswhist"])
    form = scorer_client.get(url).content.decode()
    for name in ("rule_counting", "rule_deals_to_win", "rule_points_to_win"):
        assert f'name="{name}"' in form
    data = start_form([scorer, member], counting="26", deals_to_win="0", points_to_win="60")
    response = scorer_client.post(url, data)
    assert response.status_code == 302
    game = Game.objects.get(game_key="tvamanswhist")
    assert game.rules == {"counting": "26", "deals_to_win": 0, "points_to_win": 60}
