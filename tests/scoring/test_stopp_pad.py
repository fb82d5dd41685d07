"""The Stopp pad: a deal recorded from the card-count chips, the ledger's pot account moving
exactly as the game's pot (real money), counters moving nothing, refusals that store nothing,
the finished game in the league, and the help pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

import ledger
from league.models import GameResult
from ledger.models import Account
from scoring import recording
from scoring.models import Event, GameStatus
from tests.scoring.pad import balances, help_page, pad_url, post_event

# The refusals are read word for word, in English.
pytestmark = pytest.mark.usefixtures("in_english")


@pytest.fixture
def game(club, scorer, players):
    return recording.start_game(club, "stopp", players, scorer.user, rules={"capital": 5})


def record(client, game, cards, key=None):
    """Post the deal form: one radio per player still in, ``p_cards.s<n>``."""
    fields = {f"p_cards.{player}": str(n) for player, n in cards.items()}
    return post_event(client, game, "deal", fields, key=key)


def pot_balance(club):
    account = Account.objects.filter(club=club, key="pot:stopp").first()
    return ledger.balance(account) if account else 0


def test_the_pad_asks_for_everyones_cards(scorer_client, game):
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="st-deal"' in page
    assert all(f'data-testid="st-cards-s{i}-6"' in page for i in range(3))
    assert 'data-testid="st-cards-s0-7"' not in page
    assert "stopp.css" in page
    assert reverse("scoring:game-help", args=["stopp"]) in page


def test_the_ledger_pot_follows_the_games_pot_to_the_winner(
    scorer_client, club, game, players, django_capture_on_commit_callbacks
):
    # Capital 5 units of 1 krona. Deal 1: s0 out, s1 pays 3, s2 pays 6 → only 5 (ST1) and is
    # out. Deal 2: s1 out, s0 pays 4. Deal 3: s0 out, s1 pays 2 → all he has: s0 takes the pot.
    response = record(scorer_client, game, {"s0": 0, "s1": 3, "s2": 6})
    assert response.status_code == 200
    assert game.snapshot["pot"] == 8
    assert game.snapshot["active"] == ["s0", "s1"]
    assert pot_balance(club) == game.snapshot["pot_ore"] == 800
    assert ledger.balance(ledger.member_account(players[2])) == -500
    page = response.content.decode()
    assert 'data-testid="st-cards-s2-0"' not in page  # s2 is out: no row any more
    assert "Cilla Ros pays 5" in page
    record(scorer_client, game, {"s0": 4, "s1": 0})
    assert pot_balance(club) == game.snapshot["pot_ore"] == 1200
    with django_capture_on_commit_callbacks(execute=True):
        response = record(scorer_client, game, {"s0": 0, "s1": 3})
    assert game.status == GameStatus.FINISHED
    assert game.snapshot["winner"] == "s0"
    assert game.snapshot["capitals"] == {"s0": 15, "s1": 0, "s2": 0}
    assert pot_balance(club) == game.snapshot["pot_ore"] == 0
    assert balances(players) == [1000, -500, -500]
    assert 'data-testid="winner"' in response.content.decode()
    rows = {r.seat: r for r in GameResult.objects.filter(game_ref=game.ref)}
    assert {seat: (r.placement, r.net_ore) for seat, r in rows.items()} == {
        0: (1, 1000),
        1: (2, -500),
        2: (3, -500),
    }


def test_undo_takes_the_money_back_out_of_the_pot(scorer_client, club, game):
    record(scorer_client, game, {"s0": 0, "s1": 3, "s2": 2})
    assert pot_balance(club) == 500
    response = post_event(scorer_client, game, "undo", key="u")
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.snapshot["pot"] == 0
    assert pot_balance(club) == 0


def test_counters_move_no_money(scorer_client, club, scorer, players):
    game = recording.start_game(
        club, "stopp", players, scorer.user, rules={"capital": 2, "real_money": False}
    )
    record(scorer_client, game, {"s0": 0, "s1": 3, "s2": 3})
    assert game.status == GameStatus.FINISHED
    assert game.snapshot["winner"] == "s0"
    assert pot_balance(club) == 0
    assert all(ledger.balance(ledger.member_account(p)) == 0 for p in players)
    assert Event.objects.get(game=game).money is None


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ({"s0": 0, "s1": 7, "s2": 1}, "a hand has 6 cards"),
        ({"s0": 1, "s1": 2, "s2": 1}, "Somebody went out"),
        ({"s0": 0, "s1": 2}, "have left?"),
    ],
)
def test_bad_input_is_refused_with_422_and_nothing_is_stored(
    scorer_client, club, game, cards, message
):
    response = record(scorer_client, game, cards)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Event.objects.filter(game=game).exists()
    assert pot_balance(club) == 0


def test_a_player_who_is_out_cannot_be_recorded(scorer_client, game):
    record(scorer_client, game, {"s0": 0, "s1": 1, "s2": 6})
    response = record(scorer_client, game, {"s0": 0, "s1": 1, "s2": 1})
    assert response.status_code == 422
    assert "Cilla Ros" in response.content.decode()
    assert game.seq == 1


def test_a_plain_member_sees_the_sheet_but_no_form(viewer_client, game):
    page = viewer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="st-sheet"' in page
    assert 'data-testid="st-deal"' not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", ["kapital", "10 enheter", "potten", "räknemarker"]),
        ("en", ["capital", "10 units", "pot", "counters"]),
    ],
)
def test_the_help_page_explains_the_scoring_in_both_languages(client, language, words):
    page = help_page(client, "stopp", language)
    for word in words:
        assert word in page


def test_undo_says_what_it_undoes(scorer_client, game):
    page = record(scorer_client, game, {"s0": 0, "s1": 3, "s2": 2}).content.decode()
    deal = Event.objects.get(game=game, seq=1).summary
    first, rest = deal.split(" · ", 1)
    assert rest  # the deal's log is "Deal 1 · Bo Ek pays 3 · …"
    # …and the button names the deal, not the lot.
    assert f'data-testid="undo">↶ Undo: {first} …</button>' in page
    page = post_event(scorer_client, game, "undo").content.decode()
    assert 'data-testid="undo"' not in page  # nothing left to undo
