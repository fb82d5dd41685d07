"""The Fan tan pad: who went out, one tap each; chips through the club's pot account; the cards
left as tap choices; the finished game in the league; and the help pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club import ledger
from club.models import Account, GameResult
from scoring import recording
from scoring.models import Event, Game, GameStatus
from tests.conftest import client_for
from tests.factories import make_member

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def players(club, scorer):
    return [scorer, *(make_member(club, name) for name in ("Bo Ek", "Cilla Ros", "Dan Ås"))]


@pytest.fixture
def scorer_client(scorer):
    return client_for(scorer)


def start(club, scorer, players, **rules):
    return recording.start_game(club, "fantan", players, scorer.user, rules=rules)


def pad_url(game):
    return reverse("scoring:game-detail", args=[game.club.slug, game.pk])


def post(client, game, kind, fields):
    data = {
        "type": kind,
        "expected_seq": game.seq,
        "idempotency_key": f"{kind}-{game.seq}",
        **fields,
    }
    response = client.post(
        reverse("scoring:game-event", args=[game.club.slug, game.pk]), data, **HTMX
    )
    game.refresh_from_db()
    return response


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
    response = post(scorer_client, game, "out", {"p_player": "s2"})
    assert response.status_code == 200
    assert Event.objects.get(game=game).payload == {"player": "s2"}
    page = response.content.decode()
    assert 'data-testid="out-s2"' not in page
    assert "Cilla Ros går ut först" in page
    post(scorer_client, game, "out", {"p_player": "s0"})
    with django_capture_on_commit_callbacks(execute=True):
        response = post(scorer_client, game, "out", {"p_player": "s3"})
    assert game.status == GameStatus.FINISHED
    assert 'data-testid="winner"' in response.content.decode()
    rows = {r.seat: (r.placement, r.score) for r in GameResult.objects.filter(game_ref=game.ref)}
    assert rows == {2: (1, 3), 0: (2, 2), 3: (3, 1), 1: (4, 0)}


def test_playing_for_chips_moves_money_through_the_pot(scorer_client, club, scorer, players):
    # Club option: a chip is 1 kr. s1 passes twice; s0 goes out; cards left s1 2, s2 5, s3 1:
    # the pot is 4 antes + 2 passes + 8 cards = 14 chips, 13 of them from the others.
    game = start(club, scorer, players, chip_ore=100)
    post(scorer_client, game, "pass", {"p_player": "s1"})
    response = post(scorer_client, game, "pass", {"p_player": "s1"})
    assert 'data-testid="ft-pot"' in response.content.decode()
    pot = Account.objects.get(club=club, key="pot:fantan")
    assert ledger.balance(pot) == 200
    response = post(scorer_client, game, "out", {"p_player": "s0"})
    page = response.content.decode()
    assert 'data-testid="left-s1-13"' in page
    assert 'data-testid="left-s0-1"' not in page
    response = post(
        scorer_client, game, "cards_left", {"p_cards.s1": "2", "p_cards.s2": "5", "p_cards.s3": "1"}
    )
    assert response.status_code == 200
    assert ledger.balance(pot) == 0
    balances = [ledger.balance(ledger.member_account(p)) for p in players]
    assert balances == [1300, -500, -600, -200]
    assert 'data-testid="pass-s1"' not in response.content.decode()  # passes are free now


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
    post(scorer_client, game, "out", {"p_player": "s0"})
    response = post(scorer_client, game, "cards_left", fields)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Event.objects.filter(game=game).count() == 1


def test_a_pass_without_chips_is_refused(scorer_client, club, scorer, players):
    game = start(club, scorer, players)
    response = post(scorer_client, game, "pass", {"p_player": "s0"})
    assert response.status_code == 422
    assert not Event.objects.filter(game=game).exists()


def test_a_plain_member_sees_the_deals_but_no_buttons(club, scorer, players):
    game = start(club, scorer, players)
    page = client_for(make_member(club, "Vera Tittare")).get(pad_url(game)).content.decode()
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
    page = client.get(
        reverse("scoring:game-help", args=["fantan"]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    for word in words:
        assert word in page.lower()


def test_the_start_form_offers_the_clubs_options(scorer_client, club, scorer, players):
    url = reverse("scoring:game-start", args=[club.slug, "fantan"])
    form = scorer_client.get(url).content.decode()
    for name in ("rule_variant", "rule_deals", "rule_play_on", "rule_chip_ore"):
        assert f'name="{name}"' in form
    response = scorer_client.post(
        url,
        {
            "players": [p.pk for p in players],
            "order": ",".join(str(p.pk) for p in players),
            "rule_variant": "free",
            "rule_deals": "3",
            "rule_play_on": "on",
            "rule_chip_ore": "0,50",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get(game_key="fantan")
    assert game.rules == {"variant": "free", "deals": 3, "play_on": True, "chip_ore": 50}
    assert game.snapshot["expected"] == ["out", "pass"]
