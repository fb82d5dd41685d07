"""The President pad: players tapped out one by one (the last one implied), refusals that store
nothing, Trouduc from the start form, the finished game in the league, and the help pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from engine import president
from engine.errors import RulesError
from league.models import GameResult
from scoring import recording
from scoring.messages import engine_message
from scoring.models import Event, Game, GameStatus
from tests.scoring.pad import help_page, p_fields, pad_url, post_event, start_form

# The refusals are read word for word, in English.
pytestmark = pytest.mark.usefixtures("in_english")


@pytest.fixture
def game(club, scorer, players):
    return recording.start_game(club, "president", players, scorer.user)


def tap_out(client, game, player, key=None):
    """One tap on a player's button in the "who went out?" form."""
    return post_event(client, game, "out", p_fields(player=player), key=key)


def test_the_pad_offers_every_player_to_go_out_first(scorer_client, game):
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="pr-out"' in page
    assert all(f'data-testid="pr-out-s{i}"' in page for i in range(3))
    assert "president.css" in page
    assert reverse("scoring:game-help", args=["president"]) in page


def test_two_taps_score_a_deal_of_three(scorer_client, game):
    # Three players: 2, 1, 0 points (PR2). Cilla out first, Sune second, Bo left with cards.
    response = tap_out(scorer_client, game, "s2")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="pr-out-s2"' not in page  # already out in this deal
    assert 'data-testid="pr-gone"' in page
    assert game.snapshot["pending"] == ["s2"]
    response = tap_out(scorer_client, game, "s0")
    assert game.snapshot["scores"] == {"s0": 1, "s1": 0, "s2": 2}
    assert game.snapshot["sheet"][0]["order"] == ["s2", "s0", "s1"]
    assert (game.snapshot["president"], game.snapshot["last"]) == ("s2", "s1")
    page = response.content.decode()
    assert 'data-testid="pr-out-s2"' in page  # a new deal: everyone again
    assert "Cilla Ros is president, Bo Ek is last" in page


def test_a_double_tap_goes_out_once(scorer_client, game):
    tap_out(scorer_client, game, "s2", key="same")
    tap_out(scorer_client, game, "s2", key="same")
    assert Event.objects.filter(game=game).count() == 1


def test_a_player_cannot_go_out_twice_in_a_deal(scorer_client, game):
    tap_out(scorer_client, game, "s2")
    response = tap_out(scorer_client, game, "s2")
    assert response.status_code == 422
    assert "has already gone out in this deal" in response.content.decode()
    assert game.seq == 1


def test_a_whole_order_with_a_player_twice_is_refused(scorer_client, game):
    fields = p_fields(**{"order[]": ["s2", "s0", "s2"]})
    response = post_event(scorer_client, game, "deal", fields, seq=0, key="d")
    assert response.status_code == 422
    assert "listed twice" in response.content.decode()
    assert not Event.objects.filter(game=game).exists()


def test_a_plain_member_sees_the_sheet_but_no_buttons(viewer_client, game):
    page = viewer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="pr-sheet"' in page
    assert 'data-testid="pr-out"' not in page


def test_trouduc_from_the_start_form_reaches_the_league(
    scorer_client, club, players, django_capture_on_commit_callbacks
):
    url = reverse("scoring:game-start", args=[club.slug, "president"])
    page = scorer_client.get(url).content.decode()
    assert "rule_target" in page
    assert "rule_trouduc" in page
    response = scorer_client.post(url, start_form(players, target="25", trouduc="on"))
    assert response.status_code == 302
    game = Game.objects.get(game_key="president")
    assert game.snapshot["target"] == 11  # Trouduc: first to 11 (PR3)
    # s1 first and s0 second five times: s1 10, s0 5; then s1 first once more: 12.
    for _ in range(5):
        tap_out(scorer_client, game, "s1")
        tap_out(scorer_client, game, "s0")
    assert game.snapshot["scores"] == {"s0": 5, "s1": 10, "s2": 0}
    assert "Trouduc" in scorer_client.get(pad_url(game)).content.decode()
    tap_out(scorer_client, game, "s1")
    with django_capture_on_commit_callbacks(execute=True):
        response = tap_out(scorer_client, game, "s2")
    assert game.status == GameStatus.FINISHED
    assert game.snapshot["winner"] == "s1"
    assert 'data-testid="winner"' in response.content.decode()
    assert 'data-testid="pr-out"' not in response.content.decode()
    rows = {r.seat: r for r in GameResult.objects.filter(game_ref=game.ref)}
    assert {seat: (r.placement, r.score) for seat, r in rows.items()} == {
        1: (1, 12),
        0: (2, 5),
        2: (3, 1),
    }


def offered(page, name):
    """The values a start page's select offers for a rules option."""
    select = re.search(rf'<select name="rule_{name}".*?</select>', page, re.S)
    assert select, name
    return re.findall(r'<option value="([^"]*)"', select.group(0))


def test_the_start_form_offers_exactly_the_targets_the_rules_allow(scorer_client, club):
    page = scorer_client.get(reverse("scoring:game-start", args=[club.slug, "president"]))
    page = page.content.decode()
    assert offered(page, "target") == ["15", "25"]
    assert offered(page, "trouduc_target") == ["11"]


@pytest.mark.parametrize(
    "rules", [{"target": "7"}, {"target": "11"}, {"trouduc": "on", "trouduc_target": "25"}]
)
def test_a_target_not_offered_is_a_form_error_and_starts_nothing(
    scorer_client, club, players, rules
):
    url = reverse("scoring:game-start", args=[club.slug, "president"])
    response = scorer_client.post(url, start_form(players, **rules))
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert not Game.objects.filter(game_key="president").exists()


def test_a_target_not_offered_is_refused_when_a_game_is_started_directly(club, scorer, players):
    with pytest.raises(recording.EventRefused, match="President is played to 15 / 25 points"):
        recording.start_game(club, "president", players, scorer.user, rules={"target": 7})
    assert not Game.objects.filter(game_key="president").exists()


def test_a_target_not_offered_is_refused_in_swedish_too():
    with pytest.raises(RulesError) as refused:
        president.Rules(trouduc=True, trouduc_target=15)
    with translation.override("sv"):
        assert engine_message(refused.value) == "Trouduc spelas till 11 poäng, inte 15"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", ["President", "Trouduc", "15", "25", "11", "sista given"]),
        ("en", ["President", "Trouduc", "15", "25", "11", "last deal"]),
    ],
)
def test_the_help_page_explains_the_scoring_in_both_languages(client, language, words):
    page = help_page(client, "president", language)
    for word in words:
        assert word in page
