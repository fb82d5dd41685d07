"""The Vändåtta pad: who went out, then each hand from the category chips, refusals that store
nothing, options from the start form, the finished game in the league, and the help pages."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from engine import vandatta
from league.models import GameResult
from scoring import recording
from scoring.models import Event, Game, GameStatus
from tests.scoring.pad import help_page, p_fields, pad_url, post_event, start_form

# The refusals are read word for word, in English.
pytestmark = pytest.mark.usefixtures("in_english")


@pytest.fixture
def game(club, scorer, players):
    return recording.start_game(club, "vandatta", players, scorer.user)


def post(client, game, type_, **fields):
    """Post as the pad's forms do: the radios and buttons become ``p_<name>`` fields."""
    return post_event(client, game, type_, p_fields(**fields))


def zeros(**counts):
    """The hand form: every category chip row sends its value, 0 unless tapped."""
    return {"eights": 0, "aces": 0, "courts": 0, "numbers": 0} | counts


def test_the_pad_first_asks_who_went_out(scorer_client, game):
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="vd-out"' in page
    assert all(f'data-testid="vd-out-s{i}"' in page for i in range(3))
    assert 'data-testid="vd-hand"' not in page
    assert "vandatta.css" in page
    assert reverse("scoring:game-help", args=["vandatta"]) in page


def test_a_deal_is_recorded_hand_by_hand(scorer_client, game):
    # Bo (s1) goes out; Cilla (s2) holds a ten and a queen: −20; Sune (s0) an eight, an ace,
    # a king and two number cards: −25 −15 −10 −5 −5 = −60.
    response = post(scorer_client, game, "out", player="s1")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'data-testid="vd-hand"' in page
    assert "Cilla Ros" in page.split('data-testid="vd-hand"')[1].split("</h2>")[0]
    assert 'data-testid="vd-eights-4"' in page  # one deck: at most four eights
    assert 'data-testid="vd-eights-5"' not in page
    post(scorer_client, game, "hand", player="s2", **zeros(courts=2))
    assert game.snapshot["pending"] == {"s2": -20}
    assert game.snapshot["to_record"] == "s0"
    response = post(
        scorer_client, game, "hand", player="s0", **zeros(eights=1, aces=1, courts=1, numbers=2)
    )
    assert response.status_code == 200
    assert game.snapshot["totals"] == {"s0": -60, "s1": 0, "s2": -20}
    assert Event.objects.filter(game=game).count() == 3
    assert Event.objects.get(game=game, seq=3).payload == {
        "player": "s0",
        "eights": 1,
        "aces": 1,
        "courts": 1,
        "numbers": 2,
    }
    page = response.content.decode()
    assert 'data-testid="vd-out"' in page  # the next deal starts with the same question
    assert "Sune Skrivare: −60 = −60" in page  # the history names the players


def test_the_hand_form_shows_what_each_count_costs_from_the_engines_values(
    scorer_client, game, monkeypatch
):
    # Issue 14: the point values are the engine's (vandatta.VALUES), shown by the template, not
    # written into the stylesheet.
    post(scorer_client, game, "out", player="s1")
    page = scorer_client.get(pad_url(game)).content.decode()
    eights = page.split('class="vd-row vd-eights"')[1].split("</fieldset>")[0]
    assert "(−25)" in eights
    assert 'data-testid="vd-eights-2"><span>2<small class="vd-cost">−50</small>' in eights
    courts = page.split('class="vd-row vd-courts"')[1].split("</fieldset>")[0]
    assert "(−10)" in courts
    assert "−30" in courts
    monkeypatch.setitem(vandatta.VALUES, "eights", 30)
    page = scorer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="vd-eights-2"><span>2<small class="vd-cost">−60</small>' in page
    css = (settings.BASE_DIR / "static/css/pads/vandatta.css").read_text()
    assert "counter" not in css


def test_minus_points_may_be_typed_instead(scorer_client, game):
    post(scorer_client, game, "out", player="s0")
    post(scorer_client, game, "hand", player="s1", penalty=35, **zeros())
    assert game.snapshot["pending"] == {"s1": -35}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (zeros(), "holds no cards"),
        (zeros(eights=5), "5 eights in the hands, but the game has only 4"),
        (zeros(numbers=1) | {"penalty": 10}, "either the cards or the minus points"),
        (zeros() | {"penalty": 33}, "minus points come in fives"),
    ],
)
def test_bad_hands_are_refused_with_422_and_nothing_is_stored(scorer_client, game, fields, message):
    post(scorer_client, game, "out", player="s0")
    response = post(scorer_client, game, "hand", player="s1", **fields)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert game.seq == 1
    assert Event.objects.filter(game=game).count() == 1


def test_the_winner_has_no_hand_to_record(scorer_client, game):
    post(scorer_client, game, "out", player="s0")
    response = post(scorer_client, game, "hand", player="s0", **zeros(numbers=1))
    assert response.status_code == 422
    assert "went out and holds no cards" in response.content.decode()


def test_a_plain_member_sees_the_sheet_but_no_form(viewer_client, game):
    page = viewer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="vd-sheet"' in page
    assert 'data-testid="vd-out"' not in page


def test_a_finished_game_reaches_the_league(
    scorer_client, game, players, django_capture_on_commit_callbacks
):
    # s2 goes out twice; s0 holds four eights (−100) the second time: the game is over.
    post(scorer_client, game, "out", player="s2")
    post(scorer_client, game, "hand", player="s0", **zeros(numbers=1))
    post(scorer_client, game, "hand", player="s1", **zeros(courts=1))
    post(scorer_client, game, "out", player="s2")
    post(scorer_client, game, "hand", player="s0", **zeros(eights=4))
    with django_capture_on_commit_callbacks(execute=True):
        response = post(scorer_client, game, "hand", player="s1", **zeros(aces=1))
    assert game.status == GameStatus.FINISHED
    assert game.snapshot["totals"] == {"s0": -105, "s1": -25, "s2": 0}
    page = response.content.decode()
    assert 'data-testid="winner"' in page
    assert 'data-testid="vd-out"' not in page
    rows = {r.seat: r for r in GameResult.objects.filter(game_ref=game.ref)}
    assert {seat: (r.placement, r.score) for seat, r in rows.items()} == {
        2: (1, 0),
        1: (2, -25),
        0: (3, -105),
    }
    assert rows[2].member == players[2]


def test_the_start_form_offers_the_options(scorer_client, club, scorer, players):
    url = reverse("scoring:game-start", args=[club.slug, "vandatta"])
    page = scorer_client.get(url).content.decode()
    assert "rule_face_value" in page
    assert "rule_elimination" in page
    response = scorer_client.post(url, start_form(players, face_value="on"))
    assert response.status_code == 302
    game = Game.objects.get(game_key="vandatta")
    assert game.rules == {"face_value": True, "elimination": False}
    client = scorer_client
    post(client, game, "out", player="s1")
    page = client.get(pad_url(game)).content.decode()
    assert 'data-testid="vd-pips"' in page
    assert 'data-testid="vd-numbers-1"' not in page
    post(client, game, "hand", player="s2", pips=12, **zeros())
    assert game.snapshot["pending"] == {"s2": -12}


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", ["−25", "−15", "−10", "−5", "−100", "valör", "utslag"]),
        ("en", ["−25", "−15", "−10", "−5", "−100", "face value", "eliminat"]),
    ],
)
def test_the_help_page_explains_the_scoring_in_both_languages(client, language, words):
    page = help_page(client, "vandatta", language)
    for word in words:
        assert word in page
