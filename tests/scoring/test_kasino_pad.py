"""The Kasino pad: a deal recorded from the form's tap choices, refusals that store nothing,
stopping at 16 during play, partnership results in the league as teams, and the help pages."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from engine import kasino
from engine.errors import IllegalEvent
from league.models import GameResult
from scoring import recording
from scoring.messages import engine_message
from scoring.models import Event, Game, GameStatus
from tests.factories import make_table
from tests.scoring.pad import help_page, pad_url, post_event, start_form

# The refusals are read word for word, in English.
pytestmark = pytest.mark.usefixtures("in_english")


@pytest.fixture
def game(club, scorer, member):
    return recording.start_game(club, "kasino", [scorer, member], scorer.user)


def post(client, game, fields, kind="deal", key=None):
    """Post a form as the pad sends it: hidden fields plus the checked radios."""
    return post_event(client, game, kind, fields, key=key)


def deal_fields(
    cards="s0",
    spades="s0",
    big="s0",
    little="s0",
    aces=("s0",) * 4,
    last="s0",
    tabbar=None,
    seats=2,
):
    fields = {
        "p_most_cards": cards,
        "p_most_spades": spades,
        "p_big_casino": big,
        "p_little_casino": little,
        "p_last": last,
        **{f"p_aces.{suit}": who for suit, who in zip("SHDC", aces, strict=True)},
    }
    # Every tabbe row has a checked radio (0 by default).
    fields.update({f"p_tabbar.s{i}": "0" for i in range(seats)})
    fields.update({f"p_tabbar.{p}": str(n) for p, n in (tabbar or {}).items()})
    return fields


def test_the_pad_offers_a_choice_for_every_item(scorer_client, game):
    page = scorer_client.get(pad_url(game)).content.decode()
    for testid in ("cards-tie", "spades-s1", "big-s0", "little-s1", "aceH-s0", "last-s1"):
        assert f'data-testid="{testid}"' in page
    assert 'data-testid="big-tie"' not in page  # storan cannot be tied
    assert 'data-testid="spades-tie"' not in page  # nor 13 spades between two players
    assert 'data-testid="tabbar-s1-6"' in page
    assert "kasino.css" in page
    assert reverse("scoring:game-help", args=["kasino"]) in page


def test_a_deal_is_recorded_from_the_tap_choices(scorer_client, game):
    # s0: most spades 2, lillan 1, aces ♠♥ 2, one tabbe = 6; s1: storan 2, aces ♦♣ 2, sistan 1,
    # two tabbar = 7. Most cards tied (26 each): void (KA1).
    fields = deal_fields(
        cards="tie",
        big="s1",
        aces=("s0", "s0", "s1", "s1"),
        last="s1",
        tabbar={"s0": 1, "s1": 2},
    )
    response = post(scorer_client, game, fields)
    assert response.status_code == 200
    assert game.snapshot["scores"] == [6, 7]
    assert game.snapshot["dealer"] == "s1"
    payload = Event.objects.get(game=game).payload
    assert payload["aces"] == {"S": "s0", "H": "s0", "D": "s1", "C": "s1"}
    assert payload["tabbar"] == {"s0": 1, "s1": 2}
    page = response.content.decode()
    assert 'data-testid="score-s1"' in page
    assert "Maja Medlem +7 = 7" in page  # the history names the players


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"p_big_casino": ""}, "Who took storan"),
        ({"p_aces.C": ""}, "ace of ♣"),
        ({"p_tabbar.s0": "30"}, "24 cards"),
        ({"p_most_cards": "s7"}, "not at the table"),
    ],
)
def test_bad_input_is_refused_with_422_and_nothing_is_stored(scorer_client, game, change, message):
    response = post(scorer_client, game, {**deal_fields(), **change})
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Event.objects.filter(game=game).exists()
    assert game.seq == 0


def test_stopping_at_sixteen_during_play_finishes_the_game_for_the_league(
    scorer_client, game, scorer, django_capture_on_commit_callbacks
):
    post(scorer_client, game, deal_fields(tabbar={"s0": 2}))
    assert game.snapshot["scores"] == [13, 0]
    # KA2: storan and one ace already taken: 13 + 3 = 16.
    claim = {"p_player": "s0", "p_big_casino": "true", "p_aces": "1", "p_tabbar": "0"}
    short = post(scorer_client, game, {**claim, "p_big_casino": ""}, kind="claim")
    assert short.status_code == 422
    assert "14 is short of 16" in short.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = post(scorer_client, game, claim, kind="claim")
    assert response.status_code == 200
    assert game.status == GameStatus.FINISHED
    assert 'data-testid="winner"' in response.content.decode()
    assert 'data-testid="kasino-deal"' not in response.content.decode()
    rows = {r.seat: r for r in GameResult.objects.filter(game_ref=game.ref)}
    assert {seat: (r.placement, r.score) for seat, r in rows.items()} == {0: (1, 16), 1: (2, 0)}
    assert rows[0].member == scorer
    assert rows[0].details["tabbar"] == 2


def test_partnership_play_reaches_the_league_as_two_teams(
    club, scorer, scorer_client, django_capture_on_commit_callbacks
):
    players = make_table(club, scorer, 4)
    game = recording.start_game(club, "kasino", players, scorer.user, rules={"partnership": True})
    page = scorer_client.get(pad_url(game)).content.decode()
    assert "Sune &amp; Cilla" in page
    assert 'data-testid="big-s2"' not in page  # one button per side
    with django_capture_on_commit_callbacks(execute=True):
        post(scorer_client, game, deal_fields(tabbar={"s2": 5}, seats=4))
    assert game.snapshot["scores"] == [16, 0]
    assert game.snapshot["teams"] == {"s0": 0, "s1": 1, "s2": 0, "s3": 1}
    rows = {r.seat: r for r in GameResult.objects.filter(game_ref=game.ref)}
    assert {seat: (r.placement, r.team) for seat, r in rows.items()} == {
        0: (1, 0),
        1: (3, 1),
        2: (1, 0),
        3: (3, 1),
    }


def test_one_card_taken_is_refused_in_swedish_too():
    event = {
        "type": "deal",
        "cards": {"a": 51, "b": 1},
        "most_spades": "a",
        "big_casino": "a",
        "little_casino": "a",
        "aces": ["a", "a", "a", "a"],
        "last": "a",
    }
    with pytest.raises(IllegalEvent) as refused:
        kasino.apply(kasino.new_game(["a", "b"]), event)
    with translation.override("sv"):
        assert engine_message(refused.value) == (
            "B tog 1 kort: ett intag är ett kort från handen och minst ett från bordet, så en "
            "spelare tar inga kort eller minst två"
        )


def test_partnership_needs_four_players(club, scorer, member):
    with pytest.raises(recording.EventRefused, match="four"):
        recording.start_game(
            club, "kasino", [scorer, member], scorer.user, rules={"partnership": True}
        )


def test_a_plain_member_sees_the_sheet_but_no_form(viewer_client, game):
    page = viewer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="kasino-sheet"' in page
    assert 'data-testid="kasino-deal"' not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", ["storan", "lillan", "tabbe", "16", "partner"]),
        ("en", ["big casino", "little casino", "sweep", "16", "partner"]),
    ],
)
def test_the_help_page_explains_the_scoring_in_both_languages(client, language, words):
    page = help_page(client, "kasino", language)
    for word in words:
        assert word in page


def test_the_start_form_offers_partnership_play(scorer_client, club, scorer):
    players = make_table(club, scorer, 4)
    url = reverse("scoring:game-start", args=[club.slug, "kasino"])
    assert 'name="rule_partnership"' in scorer_client.get(url).content.decode()
    response = scorer_client.post(url, start_form(players, target="16", partnership="on"))
    assert response.status_code == 302
    game = Game.objects.get(game_key="kasino")
    assert game.snapshot["sides"] == [["s0", "s2"], ["s1", "s3"]]
