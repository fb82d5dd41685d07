"""The Femhundra pad: a deal recorded from the bid picker and the trick pickers, rundpass, the
five-player partner, refusals that store nothing, finished games in the league (four players as
two teams), and the help pages with the whole bid table."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from engine import femhundra
from league.models import GameResult
from scoring import recording
from scoring.models import Event, GameStatus
from scoring.recording import replay
from tests.factories import make_table
from tests.scoring.pad import HTMX_IN_ENGLISH, help_page, pad_url, post_event


def start(club, scorer, count, **rules):
    players = make_table(club, scorer, count)
    return recording.start_game(club, "femhundra", players, scorer.user, rules=rules)


def pad(client, game):
    return client.get(pad_url(game))


def record(client, game, tricks, calls=(), partner=None, order=None, key=None):
    """Post the deal form as the pad sends it: the tapped calls as p_auction[] in page order
    (no calls: everybody passes), the tricks, the five-player partner and the trick order."""
    count = len(tricks)
    calls = list(calls) or ["pass"] * count
    fields = {f"p_auction.{n}": call for n, call in enumerate(calls, start=1)}
    if partner is not None:
        fields["p_partner"] = partner
    if order is not None:
        fields.update({f"p_trick_order.{n}": p for n, p in enumerate(order, start=1)})
    fields.update({f"p_tricks.s{i}": str(t) for i, t in enumerate(tricks) if t is not None})
    return post_event(client, game, "deal", fields, key=key, headers=HTMX_IN_ENGLISH)


def test_the_pad_offers_the_whole_bid_table_for_each_call(scorer_client, club, scorer):
    game = start(club, scorer, 3)
    page = pad(scorer_client, game).content.decode()
    for contract, value in femhundra.BID_VALUES.items():
        for call in (1, 3):
            cell = page.split(f'data-testid="call-{call}-{contract}"')[1][:120]
            assert f"<small>{value}</small>" in cell
    assert 'data-testid="call-1-pass"' in page
    assert 'data-testid="call-4-pass"' not in page  # one chance each
    assert 'data-testid="call-1-misere"' not in page
    assert 'data-testid="partner-none"' not in page
    # s0 deals, so the auction and the tricks are asked from s1 (förhand on the dealer's left).
    assert page.index('data-testid="tricks-s1-0"') < page.index('data-testid="tricks-s0-0"')
    # One row a call, named in turn from förhand.
    assert len(re.findall(r'class="fh-call-who">[^<]+<', page)) == 3


def test_misere_is_on_the_pad_when_the_club_plays_it(scorer_client, club, scorer):
    page = pad(scorer_client, start(club, scorer, 4, misere=True)).content.decode()
    assert "<small>250</small>" in page.split('data-testid="call-1-misere"')[1][:120]
    # Open misère is worth 500 in the four-player game, which bids several rounds.
    assert "<small>500</small>" in page.split('data-testid="call-1-open_misere"')[1][:120]
    assert 'data-testid="call-12-pass"' in page
    assert "misere-late" in page


def test_a_made_contract_is_recorded_from_the_auction(scorer_client, club, scorer):
    game = start(club, scorer, 3)
    response = record(scorer_client, game, [8, 1, 1], ["6S", "pass", "8H"])
    assert response.status_code == 200
    assert game.snapshot["scores"] == [300, 10, 10]
    assert Event.objects.get(game=game).payload == {
        "auction": {"1": "6S", "2": "pass", "3": "8H"},
        "tricks": {"s0": 8, "s1": 1, "s2": 1},
    }
    assert game.snapshot["sheet"][0]["declarer"] == "s0"
    page = response.content.decode()
    assert "8♥" in page
    assert "+300" in page


def test_nobody_bidding_scores_ten_a_trick(scorer_client, club, scorer):
    game = start(club, scorer, 3)
    assert record(scorer_client, game, [4, 3, 3]).status_code == 200
    assert game.snapshot["scores"] == [40, 30, 30]
    assert game.snapshot["sheet"][0]["declarer"] is None


def test_five_players_record_the_called_partner(scorer_client, club, scorer):
    game = start(club, scorer, 5)
    assert 'data-testid="partner-s2"' in pad(scorer_client, game).content.decode()
    calls = ["pass", "pass", "pass", "pass", "8H"]  # s1 … s4, then s0
    record(scorer_client, game, [5, 1, 3, 1, 0], calls, partner="s2")
    assert game.snapshot["scores"] == [300, 10, 300, 10, 0]
    assert game.snapshot["teams"] == {}


def test_the_pad_asks_for_the_trick_order_only_when_it_can_matter(scorer_client, club, scorer):
    game = start(club, scorer, 3)
    for _ in range(9):
        record(scorer_client, game, [4, 4, 2])
    assert 'data-testid="fh-trick-order"' not in pad(scorer_client, game).content.decode()
    for _ in range(2):
        record(scorer_client, game, [4, 4, 2])
    record(scorer_client, game, [3, 4, 3])  # a 470, b 480, c 250
    page = pad(scorer_client, game).content.decode()
    assert 'data-testid="trick-10-s2"' in page
    response = record(scorer_client, game, [4, 3, 3])  # a and b both 510, nobody declared
    assert response.status_code == 422
    assert "trick_order" in response.content.decode()
    # b takes the first two tricks: 500 before a's third.
    order = ["s1", "s1", "s0", "s0", "s0", "s2", "s2", "s2", "s0", "s1"]
    assert record(scorer_client, game, [4, 3, 3], order=order).status_code == 200
    assert game.snapshot["winners"] == ["s1"]


@pytest.mark.parametrize(
    ("tricks", "calls", "partner", "message"),
    [
        ([8, 1, 0], ["pass", "pass", "8H"], None, "add up to 9"),
        ([8, 1, None], ["pass", "pass", "8H"], None, "is missing"),
        ([8, 1, 1], ["pass", "pass", "5H"], None, "not in the bid table"),
        ([8, 1, 1], ["7H", "6S", "pass"], None, "already bid"),
        ([8, 1, 1], ["pass", "7H"], None, "has still to call"),
        ([8, 1, 1], ["pass", "pass", "8H", "9H"], None, "one too many"),
        ([0, 5, 5], ["pass", "pass", "misere"], None, "misère is not bid"),
        ([8, 1, 1], ["pass", "pass", "8H"], "s1", "Only the five-player game"),
    ],
)
def test_bad_input_is_refused_with_422_and_nothing_is_stored(
    scorer_client, club, scorer, tricks, calls, partner, message
):
    game = start(club, scorer, 3)
    response = record(scorer_client, game, tricks, calls, partner)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Event.objects.filter(game=game).exists()
    assert game.seq == 0


def test_a_refused_deal_keeps_the_taps(scorer_client, club, scorer):
    game = start(club, scorer, 5)
    calls = ["pass", "pass", "pass", "pass", "8H"]
    page = record(scorer_client, game, [5, 1, 3, 1, 1], calls, partner="s2").content
    page = page.decode()
    assert "add up to 11" in page
    assert 'checked data-testid="partner-s2"' in page
    assert 'checked data-testid="partner-none"' not in page
    assert 'checked data-testid="tricks-s4-1"' in page
    page = record(scorer_client, game, [4, 3, 3, 0, 0], key="r").content.decode()
    assert 'checked data-testid="partner-none"' in page  # recorded: a fresh form


def test_an_old_game_replays_its_typed_declarer_and_contract(scorer_client, club, scorer):
    # Deals stored before the auction was recorded name the declarer and contract; such a game
    # is marked legacy_deals (data migration 0005), replays as before, and goes on with auctions.
    players = make_table(club, scorer, 3)
    game = recording.start_game(
        club, "femhundra", players, scorer.user, setup={"legacy_deals": True}
    )
    recording.append_event(
        game,
        "deal",
        {"declarer": "s0", "contract": "8H", "tricks": {"s0": 8, "s1": 1, "s2": 1}},
        expected_seq=0,
        idempotency_key="old",
        by=None,
    )
    replay._STATE_CACHE.clear()
    assert record(scorer_client, game, [4, 3, 3]).status_code == 200
    assert game.snapshot["scores"] == [340, 40, 40]


def test_a_finished_four_player_game_reaches_the_league_as_two_teams(
    scorer_client, club, scorer, django_capture_on_commit_callbacks
):
    game = start(club, scorer, 4, misere=True)
    assert game.snapshot["teams"] == {"s0": 0, "s1": 1, "s2": 0, "s3": 1}
    with django_capture_on_commit_callbacks(execute=True):
        # Open misère made with four players: 500 for s0 and s2 at once.
        # s1 … s3, s0 call: s1 bids 7♠ first, so a misère may follow.
        calls = ["7S", "pass", "pass", "open_misere", "pass"]
        response = record(scorer_client, game, [0, 5, 0, 5], calls)
    assert game.status == GameStatus.FINISHED
    assert game.snapshot["scores"] == [500, 100, 500, 100]
    assert 'data-testid="winner"' in response.content.decode()
    results = {r.seat: (r.placement, r.team) for r in GameResult.objects.filter(game_ref=game.ref)}
    assert results == {0: (1, 0), 1: (3, 1), 2: (1, 0), 3: (3, 1)}


def test_a_three_player_game_reaches_the_league_without_teams(
    scorer_client, club, scorer, django_capture_on_commit_callbacks
):
    game = start(club, scorer, 3)
    with django_capture_on_commit_callbacks(execute=True):
        # s2 −520: out by the back door
        record(scorer_client, game, [1, 0, 9], ["pass", "10NT", "pass"])
    assert game.snapshot["back_door"]
    results = {r.seat: (r.placement, r.score, r.team) for r in GameResult.objects.all()}
    assert results == {0: (1, 10, None), 1: (2, 0, None), 2: (3, -520, None)}


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", ["Budtabellen", "Misär", "250", "490", "−500", "bakdörren"]),
        ("en", ["bid table", "Misère", "250", "490", "−500", "back door"]),
    ],
)
def test_the_help_page_prints_the_whole_bid_table(client, language, words):
    page = help_page(client, "femhundra", language)
    cells = dict(re.findall(r'data-contract="(\w+)">(\d+)<', page))
    assert {c: int(v) for c, v in cells.items()} == femhundra.BID_VALUES
    for word in words:
        assert word in page


# --- the calculator: what a bid is worth, what a deal scores (no login) -------------------------


def calc(client, headers=None, **params):
    headers = {"HTTP_ACCEPT_LANGUAGE": "en", **(headers or {})}
    return client.get(reverse("scoring:calc-femhundra-deal"), params, **headers)


def test_the_calculator_page_offers_the_bid_table(client):
    response = calc(client)
    assert response.status_code == 200
    page = response.content.decode()
    assert "<small>520</small>" in page.split('data-testid="contract-10NT"')[1][:120]
    assert 'data-testid="contract-misere"' in page


@pytest.mark.parametrize(
    ("params", "declarer", "opponents"),
    [
        # Made 8♥ with nine tricks: 300, no overtricks; the opponents took one trick.
        ({"contract": "8H", "taken": "9"}, 300, "10"),
        # All ten on 7♠ (140) with one-round bidding: 250 (FH7); several rounds: 140.
        ({"contract": "7S", "taken": "10"}, 250, "0"),
        ({"contract": "7S", "taken": "10", "rounds": "several"}, 140, "0"),
        # Failed 9NT: −420; the opponents took three tricks, 30 between them.
        ({"contract": "9 sang", "taken": "7"}, -420, "30"),
        # A failed misère: each opponent 10 per trick the declarer took (2): 20.
        ({"contract": "misere", "taken": "2"}, -250, "20"),
        # Four players: open misère is worth 500.
        ({"contract": "open_misere", "taken": "0", "players": "4"}, 500, "100"),
    ],
)
def test_the_calculator_scores_a_deal(client, params, declarer, opponents):
    page = calc(client, HTMX_IN_ENGLISH, **params).content.decode()
    assert page.lstrip().startswith('<section id="result"')
    assert f'data-testid="calc-declarer">{declarer:+d}<' in page
    assert opponents in page.split('data-testid="calc-opponents"')[1][:200]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"contract": "5H", "taken": "5"}, "not in the bid table"),
        ({"contract": "8H", "taken": "11"}, "0–10"),
        ({"contract": "8H", "taken": "5", "players": "6"}, "2–5"),
        ({"contract": "8H", "taken": "x"}, "whole number"),
    ],
)
def test_the_calculator_refuses_what_cannot_be(client, params, message):
    page = calc(client, **params).content.decode()
    assert message in page
    assert 'data-testid="calc-declarer"' not in page


@pytest.mark.parametrize("players", ["²", "١٢", "３", "--5", "9" * 5000])
def test_the_calculator_reads_numbers_in_ascii_digits_only(client, players):
    response = calc(client, contract="7S", players=players, taken="7")
    assert response.status_code == 200
    assert "Players must be a whole number" in response.content.decode()
