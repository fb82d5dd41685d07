"""The history page: filtered by game and player, paged 25 to a page, each game with its date
and winner; a voided game says why and shows no money (scoring/history.py)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from scoring import history, recording
from scoring.models import Game
from tests.conftest import client_for
from tests.factories import make_member

STOCKHOLM = ZoneInfo("Europe/Stockholm")


@pytest.fixture
def url(club):
    return reverse("scoring:game-list", args=[club.slug])


@pytest.fixture
def bo(club):
    return make_member(club, "Bo Ek")


def _play(club, players, by, *, winner="s1", stake=200, key="toy") -> Game:
    """A toy game: the first seat stakes ``stake`` öre and ``winner`` takes the pot."""
    game = recording.start_game(club, key, players, by.user)
    stake_it = {"player": "s0", "amount": stake}
    recording.append_event(game, "stake", stake_it, expected_seq=0, idempotency_key="a", by=by.user)
    recording.append_event(
        game, "win", {"player": winner}, expected_seq=1, idempotency_key="b", by=by.user
    )
    game.refresh_from_db()
    return game


def _open_games(club, players, by, count: int, start: datetime | None = None) -> list[Game]:
    """``count`` open games, a day apart, the newest last."""
    start = start or datetime(2025, 3, 1, 19, tzinfo=STOCKHOLM)
    games = []
    for n in range(count):
        game = recording.start_game(club, "toy", players, by.user)
        Game.objects.filter(pk=game.pk).update(started_at=start + timedelta(days=n))
        games.append(game)
    return games


def _listed(response) -> list[int]:
    return [row.game.pk for row in response.context["rows"]]


def test_it_shows_the_winner_with_the_money_and_the_date(
    toy, in_english, club, scorer, bo, scorer_client, url
):
    game = _play(club, [scorer, bo], scorer)
    Game.objects.filter(pk=game.pk).update(
        started_at=datetime(2025, 3, 14, 19, 30, tzinfo=STOCKHOLM)
    )
    page = scorer_client.get(url).content.decode()
    assert "Winner:" in page
    assert "<strong>Bo Ek</strong>" in page
    assert "(+SEK 2.00)" in page
    assert "March 14, 2025" in page


def test_the_date_is_in_the_readers_language(toy, club, scorer, bo, scorer_client, url):
    game = _play(club, [scorer, bo], scorer)
    Game.objects.filter(pk=game.pk).update(
        started_at=datetime(2025, 3, 14, 19, 30, tzinfo=STOCKHOLM)
    )
    page = scorer_client.get(url).content.decode()
    assert "14 mars 2025" in page
    assert "Vinnare:" in page
    assert "(+2,00\u00a0kr)" in page


def test_partners_and_ties_share_the_win(toy, club, scorer, bo):
    game = _play(club, [scorer, bo], scorer)
    seats = list(game.seats.all())
    game.snapshot["standings"] = [
        {"player": "s0", "placement": 1, "score": 10},
        {"player": "s1", "placement": 1, "score": 10},
    ]
    assert [w.name for w in history.winners(game, seats)] == ["Sune Skrivare", "Bo Ek"]


def test_an_open_game_has_no_winner(toy, club, scorer, bo, scorer_client, url):
    _open_games(club, [scorer, bo], scorer, 1)
    page = scorer_client.get(url).content.decode()
    assert "Vinnare" not in page


def test_a_voided_game_says_why_and_shows_no_money(
    toy, in_english, club, scorer, bo, scorer_client, url
):
    game = _play(club, [scorer, bo], scorer)
    recording.void_game(game, "Wrong table", None)
    page = scorer_client.get(url).content.decode()
    assert "Voided: Wrong table" in page
    assert "no money" in page
    assert "Winner" not in page
    assert "SEK" not in page


def test_the_pad_of_a_voided_game_says_why_and_that_no_money_counts(
    toy, in_english, club, scorer, bo, scorer_client
):
    game = _play(club, [scorer, bo], scorer)
    recording.void_game(game, "Wrong table", None)
    page = scorer_client.get(reverse("scoring:game-detail", args=[club.slug, game.pk]))
    text = page.content.decode()
    assert 'data-testid="void-notice"' in text
    assert "Wrong table" in text
    assert "reversed" in text


def test_it_filters_by_game(toy, club, scorer, bo, scorer_client, url):
    toy_game = recording.start_game(club, "toy", [scorer, bo], scorer.user)
    cribbage = recording.start_game(club, "cribbage", [scorer, bo], scorer.user)
    assert set(_listed(scorer_client.get(url))) == {toy_game.pk, cribbage.pk}
    assert _listed(scorer_client.get(url, {"game": "cribbage"})) == [cribbage.pk]


def test_it_filters_by_player(toy, club, scorer, bo, scorer_client, url):
    cilla = make_member(club, "Cilla Ros")
    with_bo = recording.start_game(club, "toy", [scorer, bo], scorer.user)
    with_cilla = recording.start_game(club, "toy", [scorer, cilla], scorer.user)
    assert _listed(scorer_client.get(url, {"player": bo.pk})) == [with_bo.pk]
    assert _listed(scorer_client.get(url, {"player": cilla.pk})) == [with_cilla.pk]
    both = _listed(scorer_client.get(url, {"player": scorer.pk, "game": "toy"}))
    assert set(both) == {with_bo.pk, with_cilla.pk}


@pytest.mark.parametrize(
    "params",
    [
        {"game": "no-such-game"},
        {"game": "x" * 5000},
        {"player": "abc"},
        {"player": "１２"},
        {"player": "9" * 5000},
        {"player": "-1"},
        {"player": "1\x00"},
        {"page": "abc"},
        {"page": "0"},
        {"page": "-3"},
        {"page": "9" * 400},
        {"page": "1.5"},
    ],
)
def test_hostile_filters_are_left_out(toy, club, scorer, bo, scorer_client, url, params):
    game = recording.start_game(club, "toy", [scorer, bo], scorer.user)
    response = scorer_client.get(url, params)
    assert response.status_code == 200
    assert _listed(response) == [game.pk]


def test_someone_from_another_club_is_no_filter(
    toy, club, scorer, bo, outsider, scorer_client, url
):
    game = recording.start_game(club, "toy", [scorer, bo], scorer.user)
    response = scorer_client.get(url, {"player": outsider.pk})
    assert response.status_code == 200
    assert _listed(response) == [game.pk]


def test_it_pages_25_at_a_time_newest_first(toy, club, scorer, bo, scorer_client, url):
    games = _open_games(club, [scorer, bo], scorer, 60)
    newest_first = [game.pk for game in reversed(games)]
    first = scorer_client.get(url)
    assert _listed(first) == newest_first[:25]
    assert _listed(scorer_client.get(url, {"page": "2"})) == newest_first[25:50]
    assert _listed(scorer_client.get(url, {"page": "3"})) == newest_first[50:]
    page = first.content.decode()
    assert 'href="?page=2"' in page
    assert "Sida 1 av 3" in page


def test_the_page_links_keep_the_filters(toy, club, scorer, bo, scorer_client, url):
    _open_games(club, [scorer, bo], scorer, 30)
    page = scorer_client.get(url, {"game": "toy", "player": bo.pk}).content.decode()
    assert f'href="?game=toy&amp;player={bo.pk}&amp;page=2"' in page


def test_a_page_past_the_end_answers_the_last_page(toy, club, scorer, bo, scorer_client, url):
    games = _open_games(club, [scorer, bo], scorer, 30)
    response = scorer_client.get(url, {"page": "99"})
    assert response.status_code == 200
    assert _listed(response) == [game.pk for game in games[:5][::-1]]


def test_it_lists_only_the_clubs_own_games(toy, club, other_club, scorer, bo, outsider, url):
    ours = recording.start_game(club, "toy", [scorer, bo], scorer.user)
    recording.start_game(other_club, "toy", [outsider, "Gäst"], outsider.user)
    assert _listed(client_for(scorer).get(url)) == [ours.pk]


@pytest.mark.parametrize("count", [3, 30])
def test_the_queries_do_not_grow_with_the_games(
    toy, club, scorer, bo, scorer_client, url, count, django_assert_max_num_queries
):
    games = [_play(club, [scorer, bo], scorer) for _ in range(count // 3)]
    for game in games[: len(games) // 2 + 1]:
        recording.void_game(game, "Fel bord", None)
    _open_games(club, [scorer, bo], scorer, count - len(games))
    scorer_client.get(url)  # the session settles on the first request
    with django_assert_max_num_queries(QUERIES):
        response = scorer_client.get(url, {"player": bo.pk})
    assert len(response.context["rows"]) == min(count, 25)


# The page's queries: the session, the user, the member and their roles (club_view), the club's
# members for the filter, the count and the page of games, their seats and the seats' members,
# the voids' reasons. A constant, whatever the page holds.
QUERIES = 10
