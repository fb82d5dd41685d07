"""The Kille showing calculator: no login, every payment listed, bad input explained."""

from __future__ import annotations

import pytest
from django.urls import reverse

URL = reverse("scoring:calc-kille-showing")


@pytest.fixture
def client(client, settings):
    """In English, so that the names the page gives seats are known before translation."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_it_is_listed_among_the_calculators(client):
    response = client.get(reverse("scoring:calculators"))
    assert URL in response.content.decode()


def test_the_empty_form_needs_no_login(client):
    response = client.get(URL)
    assert response.status_code == 200
    assert "settlement" not in response.context
    assert 'name="seat6"' in response.content.decode()


def test_a_beaten_first_shower_pays_the_pot_once_more(client):
    # Kungsholmskille: seat 2 lays up 3, seat 1 has blompottan; seat 3 folded. Pot 8 kr.
    params = {
        "seat1": "blompottan",
        "seat2": "3",
        "seat3": "fold",
        "seat4": "7",
        "first": "2",
        "fourth": "2",
        "pot": "8",
        "two_player": "1",
    }
    response = client.get(URL, params)
    settlement = response.context["settlement"]
    assert settlement.winner == "p1"
    assert settlement.penalty_ore == 800
    assert [(row["amount"]) for row in response.context["payments"]] == [800, 1600, 200, 200]
    assert response.context["nets"] == [
        ("Player 1", 1600),
        ("Player 2", -1000),
        ("Player 3", 0),
        ("Player 4", -200),
    ]
    assert settlement.pot_after_ore == 400


def test_two_at_the_showing_charge_everyone_the_small_stake(client):
    params = {
        "seat1": "11",
        "seat2": "2",
        "seat3": "fold",
        "first": "2",
        "fourth": "1",
        "pot": "12,50",
        "two_player": "1",
    }
    response = client.get(URL, params, HTTP_HX_REQUEST="true")
    assert response.content.decode().lstrip().startswith('<section id="result"')
    assert response.context["nets"] == [("Player 1", -300), ("Player 2", 1150), ("Player 3", -100)]
    without = client.get(URL, {**params, "two_player": ""})
    assert without.context["nets"] == [("Player 1", -200), ("Player 2", 1250), ("Player 3", 0)]


def test_the_stakes_can_be_the_clubs_own(client):
    params = {"seat1": "1", "seat2": "2", "seat3": "3", "first": "1", "fourth": "1", "pot": "10"}
    response = client.get(URL, {**params, "base": "5", "small": "2,50"})
    assert response.context["settlement"].pot_after_ore == 1000


def test_bad_input_is_explained(client):
    for params in (
        {"seat1": "1", "first": "1", "fourth": "1", "pot": "8"},  # one player
        {"seat1": "1", "seat2": "2", "fourth": "1", "pot": "8"},  # nobody first
        {"seat1": "1", "seat2": "2", "first": "3", "fourth": "1", "pot": "8"},  # empty seat
        {"seat1": "1", "seat2": "joker", "first": "1", "fourth": "1", "pot": "8"},
        {"seat1": "1", "seat2": "1", "seat3": "1", "first": "1", "fourth": "1", "pot": "8"},
        {"seat1": "1", "seat2": "2", "first": "1", "fourth": "1", "pot": "åtta"},
    ):
        response = client.get(URL, params)
        assert response.status_code == 200
        assert response.context["error"], params
        assert "settlement" not in response.context
    message = client.get(URL, {"seat1": "1", "seat2": "2", "first": "3", "fourth": "1", "pot": "8"})
    assert "Player 3" in message.context["error"]
