"""Every game the engine knows has a help page, one template through gettext, in Swedish and in
English, open without login."""

from __future__ import annotations

import re

import pytest
from django.template.loader import get_template
from django.urls import reverse

from engine import registry

GAMES = [info.key for info in registry.all_games()]


def _main_text(html: str) -> str:
    main = re.search(r"<main.*?</main>", html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main.group(0) if main else html)).strip()


@pytest.mark.parametrize("key", GAMES)
def test_every_game_has_one_help_template(key):
    get_template(f"scoring/help/{key}.html")


@pytest.mark.parametrize("key", GAMES)
def test_the_help_page_follows_the_ui_language(client, key):
    url = reverse("scoring:game-help", args=[key])
    swedish = client.get(url, HTTP_ACCEPT_LANGUAGE="sv")
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert swedish.status_code == english.status_code == 200
    sv_text, en_text = _main_text(swedish.content.decode()), _main_text(english.content.decode())
    # The prose differs, not only the lang attribute: most of its words are not shared.
    sv_words, en_words = set(sv_text.lower().split()), set(en_text.lower().split())
    shared = len(sv_words & en_words) / max(len(sv_words | en_words), 1)
    assert shared < 0.5, (key, shared)


def test_an_unknown_game_has_no_help_page(client):
    assert client.get(reverse("scoring:game-help", args=["poker"])).status_code == 404
