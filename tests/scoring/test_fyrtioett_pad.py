"""The Fyrtioett pad: a deal recorded from the form's number pickers, refusals that store
nothing, the finished game in the league as two teams, and the help pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import GameResult
from scoring import recording
from scoring.models import Event, GameStatus
from tests.factories import make_table
from tests.scoring.pad import HTMX_IN_ENGLISH, help_page, pad_url, post_event


@pytest.fixture
def players(club, scorer):
    return make_table(club, scorer, 4)


@pytest.fixture
def game(club, scorer, players):
    return recording.start_game(club, "fyrtioett", players, scorer.user)


def record(client, game, bids, tricks, kind="deal", key=None):
    """Post the deal form as the pad sends it: one radio per player for bids and tricks."""
    fields = {f"p_bids.s{i}": str(b) for i, b in enumerate(bids) if b is not None}
    fields.update({f"p_tricks.s{i}": str(t) for i, t in enumerate(tricks) if t is not None})
    return post_event(client, game, kind, fields, key=key, headers=HTMX_IN_ENGLISH)


def test_the_pad_asks_for_bids_in_bidding_order_from_eldest_hand(scorer_client, game):
    # F5: s0 deals, so förhand is s3 (to the dealer's right) and bidding goes s3, s2, s1, s0.
    page = scorer_client.get(pad_url(game)).content.decode()
    bids = page.index('data-testid="f41-deal"')
    order = [page.index(f'data-testid="bid-s{i}-1"', bids) for i in (3, 2, 1, 0)]
    assert order == sorted(order)
    assert 'data-testid="bid-s0-13"' in page
    assert 'data-testid="tricks-s1-0"' in page
    assert "fyrtioett.css" in page
    assert reverse("scoring:game-help", args=["fyrtioett"]) in page


def test_a_deal_is_recorded_from_the_form_fields(scorer_client, game):
    # Bid 4 take 5 → +4; bid 8 take 8 → +16; bid 5 take 0 → −5; bid 7 take 0 → −14.
    response = record(scorer_client, game, [4, 8, 5, 7], [5, 8, 0, 0])
    assert response.status_code == 200
    assert game.snapshot["scores"] == [4, 16, -5, -14]
    assert game.snapshot["dealer"] == "s3"
    assert Event.objects.get(game=game).payload == {
        "bids": {"s0": 4, "s1": 8, "s2": 5, "s3": 7},
        "tricks": {"s0": 5, "s1": 8, "s2": 0, "s3": 0},
    }
    page = response.content.decode()
    assert "4/5 +4" in page
    assert "7/0 -14" in page
    # The history names the players, with one minus sign.
    assert "Dan Ås: bid 7, 0 tricks, −14 = −14" in page


def test_a_throw_in_passes_the_deal_counter_clockwise(scorer_client, game):
    # s3 (förhand) 3, s2 3, s1 2: worth 8, under 11 — the cards are thrown in.
    response = record(scorer_client, game, [None, 2, 3, 3], [None] * 4, kind="throw_in")
    assert response.status_code == 200
    assert game.snapshot["dealer"] == "s3"
    assert game.snapshot["sheet"][0]["thrown_in"]
    assert game.snapshot["scores"] == [0, 0, 0, 0]


def test_a_throw_in_with_tricks_tapped_is_refused_in_words(scorer_client, game):
    # Issue 25: the form sends its trick row with the "Thrown in" button. A deal thrown in has
    # no tricks; the refusal says so in words, not "throw_in takes no 'tricks'".
    response = record(scorer_client, game, [None, 2, 3, 3], [None, None, 4, None], "throw_in")
    assert response.status_code == 422
    page = response.content.decode()
    assert "The cards were thrown in before anyone played, so nobody took a trick" in page
    assert "throw_in" not in page.replace('value="throw_in"', "")
    assert "takes no" not in page
    assert not Event.objects.filter(game=game).exists()
    # A blank row (noughts) is no trick taken: the throw-in is recorded.
    response = record(scorer_client, game, [None, 2, 3, 3], [0, 0, 0, 0], kind="throw_in")
    assert response.status_code == 200
    assert game.snapshot["sheet"][0]["thrown_in"]


@pytest.mark.parametrize(
    ("bids", "tricks", "kind", "message"),
    [
        ([4, 4, 4, 4], [4, 4, 4, 4], "deal", "add up to 16"),
        ([3, 3, 2, 2], [3, 3, 2, 5], "deal", "worth only 10 points"),
        ([4, 4, 4, 14], [4, 4, 4, 1], "deal", "from 0 to 13, not 14"),
        ([4, 4, 4, None], [4, 4, 4, 1], "deal", "missing"),
        ([3, 3, 3, 3], [None] * 4, "throw_in", "worth 12 points"),
        ([None, 2, 2, None], [None] * 4, "throw_in", "in turn from eldest hand (förhand)"),
    ],
)
def test_bad_input_is_refused_with_422_and_nothing_is_stored(
    scorer_client, game, bids, tricks, kind, message
):
    response = record(scorer_client, game, bids, tricks, kind=kind)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Event.objects.filter(game=game).exists()
    assert game.seq == 0


def test_a_refused_deal_keeps_the_taps_so_only_the_mistake_needs_fixing(scorer_client, game):
    page = record(scorer_client, game, [4, 8, 5, 7], [5, 8, 0, 1]).content.decode()
    assert "add up to 14" in page
    for seat, (bid, took) in enumerate(((4, 5), (8, 8), (5, 0), (7, 1))):
        assert f'checked data-testid="bid-s{seat}-{bid}"' in page
        assert f'checked data-testid="tricks-s{seat}-{took}"' in page
    assert page.count("checked") == 8
    # After a recorded deal the form starts empty.
    page = record(scorer_client, game, [4, 8, 5, 7], [5, 8, 0, 0]).content.decode()
    assert "checked" not in page


def test_a_plain_member_sees_the_sheet_but_no_form(viewer_client, game):
    page = viewer_client.get(pad_url(game)).content.decode()
    assert 'data-testid="f41-sheet"' in page
    assert 'data-testid="f41-deal"' not in page


def test_a_finished_game_reaches_the_league_with_the_partners_as_teams(
    scorer_client, game, players, django_capture_on_commit_callbacks
):
    # s0 makes 10 twice (+20 each) and then 1 (+1): 41 exactly wins for s0 and s2 (F1).
    record(scorer_client, game, [10, 1, 1, 1], [10, 1, 1, 1])
    record(scorer_client, game, [10, 1, 1, 1], [10, 1, 1, 1])
    with django_capture_on_commit_callbacks(execute=True):
        response = record(scorer_client, game, [1, 4, 4, 4], [1, 4, 4, 4])
    assert game.status == GameStatus.FINISHED
    assert game.snapshot["scores"] == [41, 6, 6, 6]
    assert 'data-testid="winner"' in response.content.decode()
    assert 'data-testid="f41-deal"' not in response.content.decode()
    rows = {r.seat: r for r in GameResult.objects.filter(game_ref=game.ref)}
    assert {seat: (r.placement, r.team) for seat, r in rows.items()} == {
        0: (1, 0),
        1: (3, 1),
        2: (1, 0),
        3: (3, 1),
    }
    assert rows[0].member == players[0]
    assert rows[0].score == 41


@pytest.mark.parametrize(
    ("language", "words"),
    [("sv", ["Budvärde", "dubbelt", "41", "kastas"]), ("en", ["worth", "double", "41", "thrown"])],
)
def test_the_help_page_explains_the_scoring_in_both_languages(client, language, words):
    page = help_page(client, "fyrtioett", language)
    for word in words:
        assert word in page
