"""Every game the engine knows has a help page in Swedish and in English, open without login."""

from __future__ import annotations

import pytest
from django.template.loader import get_template
from django.urls import reverse

from engine import registry

GAMES = [info.key for info in registry.all_games()]


@pytest.mark.parametrize("key", GAMES)
@pytest.mark.parametrize("language", ["sv", "en"])
def test_every_game_has_a_help_page_in_both_languages(key, language):
    get_template(f"scoring/help/{key}.{language}.html")


@pytest.mark.parametrize("key", GAMES)
def test_the_help_page_follows_the_ui_language(client, key):
    url = reverse("scoring:game-help", args=[key])
    swedish = client.get(url, HTTP_ACCEPT_LANGUAGE="sv")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert swedish.status_code == english.status_code == 200
    assert swedish.content != english.content


def test_an_unknown_game_has_no_help_page(client):
    assert client.get(reverse("scoring:game-help", args=["poker"])).status_code == 404
