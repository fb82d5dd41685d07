"""The Nittionio pad: a deal with a premium call recorded from the form's pickers, a missed bid
left unshown, refusals that store nothing, the finished game in the league, and the help pages."""

from __future__ import annotations

import pytest

from league.models import GameResult
from scoring import recording
from scoring.models import Event, GameStatus
from tests.scoring.pad import HTMX_IN_ENGLISH, help_page, pad_url, post_event


def start(club, scorer, players, **rules):
    return recording.start_game(club, "nittionio", players, scorer.user, rules=rules)


def record(client, game, bids, tricks, calls=None, key=None):
    """Post the deal form as the pad sends it; every call radio starts at pass."""
    fields = {f"p_calls.s{seat}": (calls or {}).get(f"s{seat}", "pass") for seat in range(3)}
    fields.update({f"p_bids.s{i}": str(b) for i, b in enumerate(bids) if b is not None})
    fields.update({f"p_tricks.s{i}": str(t) for i, t in enumerate(tricks) if t is not None})
    return post_event(client, game, "deal", fields, key=key, headers=HTMX_IN_ENGLISH)


def test_the_pad_asks_for_calls_bids_and_tricks_from_forhand(scorer_client, club, scorer, players):
    game = start(club, scorer, players)
    response = scorer_client.get(pad_url(game))
    page = response.content.decode()
    # s0 deals: förhand is s1 on his left, then s2, then the dealer.
    order = [page.index(f'data-testid="call-s{i}-pass"') for i in (1, 2, 0)]
    assert order == sorted(order)
    assert 'data-testid="bid-s2-9"' in page
    assert 'data-testid="bid-s2-bet"' in page
    assert 'data-testid="tricks-s0-9"' in page
    assert (response.context["n99"]["deal_number"], response.context["n99"]["deals"]) == (1, 9)


def test_a_deal_with_a_failed_show_is_recorded_from_the_form_fields(
    scorer_client, club, scorer, players
):
    # b (s1) declares, c (s2) shows a bid of 2 and misses: a and b made theirs (20 each) and
    # get 60 each.
    game = start(club, scorer, players)
    response = record(
        scorer_client, game, [2, 4, 2], [2, 4, 3], calls={"s1": "declare", "s2": "show"}
    )
    assert response.status_code == 200
    row = game.snapshot["sheet"][0]
    assert (row["premium_player"], row["premium"]) == ("s2", "show")
    assert row["bids"] == [2, 4, 2]
    assert game.snapshot["totals"] == [2 + 20 + 60, 4 + 20 + 60, 3]
    page = response.content.decode()
    assert "2/3 +3 V" in page
    assert Event.objects.get(game=game).payload["calls"] == {
        "s0": "pass",
        "s1": "declare",
        "s2": "show",
    }


@pytest.mark.parametrize(
    ("bids", "tricks", "calls", "message"),
    [
        ([3, 3, 3], [3, 3, 4], None, "add up to 10"),
        ([3, 3, 3], [3, 3, None], None, "missing"),
        ([3, 3, 10], [3, 3, 3], None, "must be a whole number from 0 to 9"),
        # The shower's bid cards were turned up: his bid cannot be left as missed.
        ([3, 3, "bet"], [3, 3, 3], {"s2": "show"}, "showed, so his bid cards were turned up"),
        ([3, 3, 3], [3, 3, 3], {"s1": "show", "s2": "declare"}, "may only pass"),
    ],
)
def test_bad_input_is_refused_with_422_and_nothing_is_stored(
    scorer_client, club, scorer, players, bids, tricks, calls, message
):
    game = start(club, scorer, players)
    response = record(scorer_client, game, bids, tricks, calls=calls)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Event.objects.filter(game=game).exists()
    assert game.seq == 0


def test_a_refused_deal_keeps_the_taps(scorer_client, club, scorer, players):
    game = start(club, scorer, players)
    page = record(
        scorer_client, game, [2, "bet", 5], [2, 4, 4], calls={"s1": "declare"}
    ).content.decode()
    assert "add up to 10" in page
    assert 'checked data-testid="call-s1-declare"' in page
    assert 'checked data-testid="call-s0-pass"' in page
    assert 'checked data-testid="call-s1-pass"' not in page
    assert 'checked data-testid="bid-s1-bet"' in page
    assert 'checked data-testid="bid-s2-5"' in page
    assert 'checked data-testid="tricks-s2-4"' in page


def test_pennycook_has_no_premium_calls_on_the_pad(scorer_client, club, scorer, players):
    game = start(club, scorer, players, variant="pennycook")
    page = scorer_client.get(pad_url(game)).content
    assert b'data-testid="call-' not in page
    assert b'data-testid="bid-s0-0"' in page


def test_the_36_card_variant_shows_the_next_deals_trumps(scorer_client, club, scorer, players):
    game = start(club, scorer, players, variant="trumps_by_success")
    record(scorer_client, game, [2, 4, 5], [2, 4, 3])  # two made it: hearts
    page = scorer_client.get(pad_url(game)).content
    assert "♥" in page.decode().split('data-testid="n99-trump"')[1][:80]


def test_the_rubber_shows_games_won_and_the_game_bonus(scorer_client, club, scorer, players):
    # s0 bids nine, shows and takes all nine twice: 99 + 99 ≥ 100 wins the first game (+100).
    game = start(club, scorer, players, variant="rubber")
    for _ in range(2):
        record(scorer_client, game, [9, 1, 1], [9, 0, 0], calls={"s0": "show"})
    response = scorer_client.get(pad_url(game))
    n99 = response.context["n99"]
    assert n99["game_number"] == 2
    assert [(p["total"], p["game_score"], p["games_won"]) for p in n99["players"]] == [
        (298, 0, 1),
        (0, 0, 0),
        (0, 0, 0),
    ]
    assert "9/9 +99 V +100" in response.content.decode()


def test_a_finished_game_reaches_the_league(
    scorer_client, club, scorer, players, django_capture_on_commit_callbacks
):
    # Three deals: b makes 4 alone each time (34 a deal), a and c take 2 and 3.
    game = start(club, scorer, players, deals=3)
    record(scorer_client, game, [0, 4, 0], [2, 4, 3])
    record(scorer_client, game, [0, 4, 0], [2, 4, 3])
    with django_capture_on_commit_callbacks(execute=True):
        response = record(scorer_client, game, [0, 4, 0], [2, 4, 3])
    assert game.status == GameStatus.FINISHED
    assert game.snapshot["totals"] == [6, 102, 9]
    assert 'data-testid="winner"' in response.content.decode()
    results = {
        r.seat: (r.placement, r.score, r.team) for r in GameResult.objects.filter(game_ref=game.ref)
    }
    assert results == {0: (3, 6, None), 1: (1, 102, None), 2: (2, 9, None)}


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("sv", ["♣", "30", "20", "10", "deklarera", "visa", "99", "Pennycook", "bet"]),
        ("en", ["♣", "30", "20", "10", "declare", "show", "99", "Pennycook", "missed"]),
    ],
)
def test_the_help_page_explains_the_scoring_in_both_languages(client, language, words):
    page = help_page(client, "nittionio", language)
    for word in words:
        assert word in page
