"""The start form of a game with variants shows each option with the variants it belongs to, and
ignores another variant's options on submit (scoring/forms.py, whist's VARIANT_FIELDS)."""

from __future__ import annotations

import dataclasses

import pytest
from django.urls import reverse

from engine import whist
from scoring import forms
from scoring.games import whist as whist_pad
from scoring.models import Game
from tests.factories import make_member
from tests.scoring.pad import start_form


@pytest.fixture
def four(club, scorer):
    return [scorer, *(make_member(club, name) for name in ("Bo Berg", "Cia Ek", "Dan Dahl"))]


def test_every_whist_option_but_the_variant_is_declared_for_some_variant():
    declared = {name for names in whist_pad.VARIANT_FIELDS.values() for name in names}
    options = {f.name for f in dataclasses.fields(whist.Rules)}
    assert options - declared == {"variant"}
    assert set(whist_pad.VARIANT_FIELDS) == set(whist.VARIANTS)
    assert "honours" not in whist_pad.VARIANT_FIELDS["american"]  # "inga honnörspoäng"


def test_the_start_form_marks_each_option_with_its_variants(club, scorer_client):
    page = scorer_client.get(reverse("scoring:game-start", args=[club.slug, "whist"]))
    text = page.content.decode()
    assert 'data-variant-field="rule_variant"' in text
    rows = {f.name.removeprefix("rule_"): v for f, v in page.context["form"].rule_rows()}
    assert rows["variant"] == ""
    assert rows["guerre_tie"] == "guerre"
    assert rows["honours"] == "short long guerre"
    assert rows["stake_ore"] == "short long american"
    assert 'data-variants="guerre"' in text


def test_another_variants_options_are_ignored_even_when_they_would_be_refused(
    club, four, scorer_client
):
    url = reverse("scoring:game-start", args=[club.slug, "whist"])
    data = start_form(
        four,
        variant="guerre",
        guerre_tie="shared",
        stake_ore="not money",  # a partnership option: hidden à la guerre, not refused
        settlement="pair",
    )
    response = scorer_client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get(club=club)
    assert game.rules["variant"] == "guerre"
    assert game.rules["guerre_tie"] == "shared"
    assert game.rules.get("settlement", "each") == "each"
    assert game.rules.get("stake_ore", 100) == 100


def test_american_whist_ignores_the_honours_box(club, four, scorer_client):
    url = reverse("scoring:game-start", args=[club.slug, "whist"])
    response = scorer_client.post(
        url, start_form(four, variant="american", honours="", stake_ore="3")
    )
    assert response.status_code == 302
    game = Game.objects.get(club=club)
    assert game.rules["stake_ore"] == 300
    assert game.rules.get("honours", True) is True


def test_a_game_without_variants_marks_nothing():
    assert forms._variants_of(object) == {}
