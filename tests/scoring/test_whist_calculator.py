"""The whist rubber calculator: tapping deals without logging in, the rubber's value and money,
and bad input explained without losing the deals entered so far."""

from __future__ import annotations

import pytest
from django.urls import reverse

URL = reverse("scoring:calc-whist-rubber")
# The worked rubber of tests/engine/test_whist.py: 8–2, difference 6.
RUBBER_2_1 = ["0:9", "0:8:0:3", "1:7", "0:7", "1:10"]

# Refusals are read word for word, in English.
in_english = pytest.mark.usefixtures("in_english")


def test_the_calculator_page_opens_without_login(client):
    response = client.get(URL)
    assert response.status_code == 200
    text = response.content.decode()
    assert 'data-testid="calc-tricks-0-7"' in text
    assert 'name="h" value="1:4"' in text
    assert (
        reverse("scoring:calc-whist-rubber")
        in client.get(reverse("scoring:calculators")).content.decode()
    )


def test_a_tap_adds_a_deal_and_shows_the_game_score_after_it(client):
    response = client.get(URL, {"d": ["0:9"], "t": "0:8", "h": "0:3"})
    state = response.context["state"]
    assert response.context["codes"] == ["0:9", "0:8:0:3"]
    assert state.games == (1, 0)
    assert state.rubber_points == (3, 0)
    assert state.scores == (0, 0)
    assert response.context["rubber"] is None


def test_the_last_deal_settles_the_rubber_and_the_money(client):
    response = client.get(URL, {"d": RUBBER_2_1, "t": "0:11", "h": "none", "stake": "2,50"})
    rubber = response.context["rubber"]
    assert (rubber.points, rubber.difference) == ((8, 2), 6)
    text = response.content.decode()
    assert "+15,00" in text  # 6 × 2,50 kr to each winner
    assert "−15,00" in text
    assert 'data-testid="calc-tricks-0-7"' not in text  # no more deals in this rubber


def test_the_pair_paying_once_halves_each_players_share(client):
    response = client.get(URL, {"d": [*RUBBER_2_1, "0:11"], "stake": "1", "settlement": "pair"})
    assert response.context["rubber"].nets == {"s0": 300, "s2": 300, "s1": -300, "s3": -300}


def test_long_and_american_whist_value_games_by_half_the_game(client):
    long = client.get(URL, {"variant": "long", "d": ["0:13:0:4", "1:10", "0:13:0:3", "0:7"]})
    assert long.context["rubber"].points == (7, 0)
    literal = client.get(
        URL,
        {"variant": "long", "game_values": "literal", "d": ["0:13:0:4", "1:10", "0:13:0:3", "0:7"]},
    )
    assert literal.context["rubber"].points == (6, 0)
    american = client.get(URL, {"variant": "american", "d": ["0:13", "1:9", "0:13"]})
    assert american.context["rubber"].points == (7, 0)
    assert 'name="h"' not in client.get(URL, {"variant": "american"}).content.decode()


def test_htmx_gets_only_the_result(client):
    response = client.get(URL, {"d": ["0:9"], "t": "1:7"}, HTTP_HX_REQUEST="true")
    text = response.content.decode()
    assert text.lstrip().startswith('<section id="result"')
    assert "<html" not in text


@in_english
def test_a_deal_after_the_rubber_is_won_is_refused_and_the_rubber_stays(client):
    response = client.get(URL, {"d": [*RUBBER_2_1, "0:11"], "t": "1:7"})
    assert "deal 6" in response.context["error"]
    assert response.context["codes"] == [*RUBBER_2_1, "0:11"]
    assert response.context["rubber"].difference == 6


@in_english
def test_bad_input_is_explained_and_the_deals_so_far_kept(client):
    for params, message in (
        ({"d": ["0:9"], "t": "0:14"}, "a whole number from 0 to 13"),
        ({"d": ["0:9"], "t": "0:8", "h": "1:5"}, "the honours add up to 5, but there are four"),
        ({"variant": "american", "d": ["0:9"], "t": "0:8", "h": "0:4"}, "no honours"),
        ({"d": ["0:9"], "t": "nine"}, "nine"),  # the app's own (translated) message names it
    ):
        response = client.get(URL, params)
        assert response.status_code == 200
        assert message in response.context["error"], params
        assert response.context["codes"] == ["0:9"]
        assert response.context["state"].scores == (3, 0)


def test_a_broken_link_keeps_the_deals_before_the_broken_one(client):
    response = client.get(URL, {"d": ["0:9", "x", "1:7"]})
    assert "x”" in response.context["error"]  # the code, quoted
    assert response.context["codes"] == ["0:9"]


@in_english
def test_switching_to_american_whist_drops_the_deals_from_the_first_with_honours(client):
    response = client.get(URL, {"variant": "american", "d": ["0:9", "1:8:1:3", "0:7"]})
    assert "Deal 2" in response.context["error"]
    assert "no honours" in response.context["error"]
    assert response.context["codes"] == ["0:9"]


def test_a_bad_stake_is_explained(client):
    response = client.get(URL, {"stake": "lots", "d": ["0:9"]})
    assert response.context["error"]
    assert response.context["state"].scores == (3, 0)


def test_a_stake_above_the_ceiling_is_explained_not_a_crash(client):
    response = client.get(URL, {"stake": "1000000,01", "d": ["0:9"]})
    assert response.status_code == 200
    assert "högst 1\u00a0000\u00a0000,00\u00a0kr" in response.context["error"]
    assert response.context["state"].scores == (3, 0)


@pytest.mark.parametrize("deal", ["²:7", "0:١٠", "0:９", "0:" + "9" * 5000, "-0:7"])
def test_a_deal_written_in_other_digits_is_refused_not_a_crash(client, deal):
    response = client.get(URL, {"d": [deal]})
    assert response.status_code == 200
    assert response.context["codes"] == []
    assert response.context["error"]
