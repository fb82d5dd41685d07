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
    for language in ("sv", "en"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        used = [t.name for t in response.templates]
        assert f"scoring/help/{key}.{language}.html" in used, used
        other = "en" if language == "sv" else "sv"
        assert f"scoring/help/{key}.{other}.html" not in used, used


def test_an_unknown_game_has_no_help_page(client):
    assert client.get(reverse("scoring:game-help", args=["poker"])).status_code == 404
