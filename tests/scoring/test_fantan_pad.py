"""The Fan tan pad: who went out, one tap each; chips through the club's pot account; the cards
left as tap choices; the finished game in the league; and the help pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

import ledger
from league.models import GameResult
from ledger.models import Account
from scoring import recording
from scoring.models import Event, Game, GameStatus
from tests.factories import make_table
from tests.scoring.pad import balances, help_page, pad_url, post_event, start_form

# The refusals are read word for word, in English.
pytestmark = pytest.mark.usefixtures("in_english")


@pytest.fixture
def players(club, scorer):
    return make_table(club, scorer, 4)


def start(club, scorer, players, **rules):
    return recording.start_game(club, "fantan", players, scorer.user, rules=rules)


def test_the_pad_asks_who_went_out(scorer_client, club, scorer, players):
    game = start(club, scorer, players)
    page = scorer_client.get(pad_url(game)).content.decode()
    for i in range(4):
        assert f'data-testid="out-s{i}"' in page
    assert 'data-testid="pass-s0"' not in page  # no chips, no passes
    assert "fantan.css" in page
    assert reverse("scoring:game-help", args=["fantan"]) in page


def test_the_order_out_is_recorded_and_reaches_the_league(
    scorer_client, club, scorer, players, django_capture_on_commit_callbacks
):
    game = start(club, scorer, players)
    response = post_event(scorer_client, game, "out", {"p_player": "s2"})
    assert response.status_code == 200
    assert Event.objects.get(game=game).payload == {"player": "s2"}
    page = response.content.decode()
    assert 'data-testid="out-s2"' not in page
    assert "Cilla Ros goes out first and wins the deal" in page  # the pad answers in English
    post_event(scorer_client, game, "out", {"p_player": "s0"})
    with django_capture_on_commit_callbacks(execute=True):
        response = post_event(scorer_client, game, "out", {"p_player": "s3"})
    assert game.status == GameStatus.FINISHED
    assert 'data-testid="winner"' in response.content.decode()
    rows = {r.seat: (r.placement, r.score) for r in GameResult.objects.filter(game_ref=game.ref)}
    assert rows == {2: (1, 3), 0: (2, 2), 3: (3, 1), 1: (4, 0)}


def test_playing_for_chips_moves_money_through_the_pot(scorer_client, club, scorer, players):
    # Club option: a chip is 1 kr. s1 passes twice; s0 goes out; cards left s1 2, s2 1, s3 1
    # (13, 12 and 12 turns to s0's 13 — issue 25: s2 used to hold 5, 8 turns, which cannot be):
    # the pot is 4 antes + 2 passes + 4 cards = 10 chips, 9 of them from the others.
    game = start(club, scorer, players, chip_ore=100)
    post_event(scorer_client, game, "pass", {"p_player": "s1"})
    response = post_event(scorer_client, game, "pass", {"p_player": "s1"})
    assert 'data-testid="ft-pot"' in response.content.decode()
    pot = Account.objects.get(club=club, key="pot:fantan")
    assert ledger.balance(pot) == 200
    response = post_event(scorer_client, game, "out", {"p_player": "s0"})
    page = response.content.decode()
    assert 'data-testid="left-s1-13"' in page
    assert 'data-testid="left-s0-1"' not in page
    response = post_event(
        scorer_client, game, "cards_left", {"p_cards.s1": "2", "p_cards.s2": "1", "p_cards.s3": "1"}
    )
    assert response.status_code == 200
    assert ledger.balance(pot) == 0
    assert balances(players) == [900, -500, -200, -200]
    assert 'data-testid="pass-s1"' not in response.content.decode()  # passes are free now


def pot_shown(page: str) -> str:
    return page.split('data-testid="ft-pot"')[1].split("</p>")[0]


def test_the_pot_shows_every_chip_on_the_table_antes_and_passes(
    scorer_client, club, scorer, players
):
    # A chip is 1 kr. Four antes as the deal starts, then s1 passes twice: the pot holds 6 chips
    # until s0 goes out and takes it with the chips for the cards left.
    game = start(club, scorer, players, chip_ore=100)
    assert "<strong>4</strong>" in pot_shown(scorer_client.get(pad_url(game)).content.decode())
    post_event(scorer_client, game, "pass", {"p_player": "s1"})
    page = post_event(scorer_client, game, "pass", {"p_player": "s1"}).content.decode()
    assert "<strong>6</strong>" in pot_shown(page)
    assert "SEK 6.00" in pot_shown(page)
    page = post_event(scorer_client, game, "out", {"p_player": "s0"}).content.decode()
    assert "<strong>6</strong>" in pot_shown(page)  # still on the table while the cards are counted
    page = post_event(
        scorer_client, game, "cards_left", {"p_cards.s1": "2", "p_cards.s2": "1", "p_cards.s3": "1"}
    ).content.decode()
    assert "<strong>0</strong>" in pot_shown(page)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"p_cards.s1": "2", "p_cards.s2": "5"}, "missing"),
        ({"p_cards.s1": "2", "p_cards.s2": "5", "p_cards.s3": "0"}, "1 to 13"),
    ],
)
def test_bad_cards_left_are_refused_with_422_and_nothing_is_stored(
    scorer_client, club, scorer, players, fields, message
):
    game = start(club, scorer, players, chip_ore=100)
    post_event(scorer_client, game, "out", {"p_player": "s0"})
    response = post_event(scorer_client, game, "cards_left", fields)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Event.objects.filter(game=game).count() == 1


def test_a_pass_without_chips_is_refused(scorer_client, club, scorer, players):
    game = start(club, scorer, players)
    response = post_event(scorer_client, game, "pass", {"p_player": "s0"})
    assert response.status_code == 422
    assert not Event.objects.filter(game=game).exists()


def test_a_plain_member_sees_the_deals_but_no_buttons(viewer_client, club, scorer, players):
    game = start(club, scorer, players)
    page = viewer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="ft-sheet"' in page
    assert 'data-testid="ft-step"' not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", ["placeringspoäng", "fri fan tan", "marker", "potten"]),
        ("en", ["placement points", "free fan tan", "chip", "pot"]),
    ],
)
def test_the_help_page_explains_the_scoring_in_both_languages(client, language, words):
    page = help_page(client, "fantan", language)
    for word in words:
        assert word in page.lower()


def test_the_start_form_offers_the_clubs_options(scorer_client, club, scorer, players):
    url = reverse("scoring:game-start", args=[club.slug, "fantan"])
    form = scorer_client.get(url).content.decode()
    for name in ("rule_variant", "rule_deals", "rule_play_on", "rule_chip_ore"):
        assert f'name="{name}"' in form
    data = start_form(players, variant="free", deals="3", play_on="on", chip_ore="0,50")
    response = scorer_client.post(url, data)
    assert response.status_code == 302
    game = Game.objects.get(game_key="fantan")
    assert game.rules == {"variant": "free", "deals": 3, "play_on": True, "chip_ore": 50}
    assert game.snapshot["expected"] == ["out", "pass"]


def deals_offered(client, club) -> str:
    form = client.get(reverse("scoring:game-start", args=[club.slug, "fantan"])).content.decode()
    return re.search(r'<input[^>]*name="rule_deals"[^>]*>', form).group(0)


def test_the_start_form_offers_one_deal_as_the_help_says_until_the_club_plays_more(
    scorer_client, client, club, scorer, players
):
    # The rules text: whoever first gets rid of his cards has won, one deal. The form then
    # offers the club's last choice, which the help explains (the demo club plays three).
    assert 'value="1"' in deals_offered(scorer_client, club)
    for language, default, remembered in [
        ("en", "1 by default", "options of the club's last fan tan game"),
        ("sv", "1 som standard", "valen från klubbens senaste parti fan tan"),
    ]:
        page = help_page(client, "fantan", language)
        assert default in page
        assert remembered in page
    start(club, scorer, players, deals=3)
    assert 'value="3"' in deals_offered(scorer_client, club)
