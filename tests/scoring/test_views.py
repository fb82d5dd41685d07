from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import recording
from scoring.models import Event, Game, GameStatus
from tests.conftest import client_for
from tests.factories import make_member
from tests.scoring.pad import HTMX, event_url, pad_url, post_event, start_form


@pytest.fixture
def game(toy, club, scorer, member):
    return recording.start_game(club, "toy", [scorer, member], scorer.user)


def test_the_pad_page_and_its_fragment(scorer_client, game):
    url = pad_url(game)
    full = scorer_client.get(url).content.decode()
    assert "<html" in full
    assert 'id="pad"' in full
    fragment = scorer_client.get(url, **HTMX).content.decode()
    assert "<html" not in fragment
    assert fragment.lstrip().startswith('<div id="pad"')


def test_an_htmx_event_returns_the_new_pad(scorer_client, game):
    response = post_event(
        scorer_client, game, "stake", payload={"player": "s0", "amount": 200}, seq=0, key="k1"
    )
    assert response.status_code == 200
    assert "Sune Skrivare satsar 200" in response.content.decode()
    game.refresh_from_db()
    assert game.seq == 1


def test_form_fields_build_the_payload(scorer_client, game):
    data = {
        "type": "stake",
        "p_player": "s1",
        "p_amount": "300",
        "expected_seq": 0,
        "idempotency_key": "f",
    }
    response = scorer_client.post(event_url(game), data)
    assert response.status_code == 302
    assert Event.objects.get(game=game).payload == {"player": "s1", "amount": 300}


def test_a_double_tap_records_once(scorer_client, game):
    for _ in range(2):
        post_event(
            scorer_client, game, "stake", payload={"player": "s0", "amount": 200}, seq=0, key="same"
        )
    assert Event.objects.filter(game=game).count() == 1


def test_a_stale_phone_gets_409_and_a_pad_that_says_what_changed(scorer_client, game):
    post_event(
        scorer_client, game, "stake", payload={"player": "s0", "amount": 200}, seq=0, key="a"
    )
    response = post_event(
        scorer_client, game, "stake", payload={"player": "s1", "amount": 300}, seq=0, key="b"
    )
    assert response.status_code == 409
    text = response.content.decode()
    assert "Sune Skrivare satsar 200" in text
    assert 'id="pad"' in text
    assert Event.objects.filter(game=game).count() == 1


def test_an_illegal_event_gets_422_with_the_engines_message(scorer_client, game):
    response = post_event(scorer_client, game, "win", payload={"player": "s0"}, seq=0, key="w")
    assert response.status_code == 422
    assert "the pot is empty" in response.content.decode()
    assert not Event.objects.exists()


def test_polling_answers_204_until_something_changes(scorer_client, scorer, game):
    url = reverse("scoring:game-poll", args=[game.club.slug, game.pk])
    assert scorer_client.get(url, {"seq": 0}, **HTMX).status_code == 204
    other_phone = client_for(scorer)
    post_event(other_phone, game, "stake", payload={"player": "s0", "amount": 100}, seq=0, key="x")
    response = scorer_client.get(url, {"seq": 0}, **HTMX)
    assert response.status_code == 200
    assert "Sune Skrivare satsar 100" in response.content.decode()


def test_a_plain_member_cannot_record(member_client, game):
    response = post_event(
        member_client,
        game,
        "stake",
        payload={"player": "s0", "amount": 200},
        seq=0,
        key="m",
        headers={},
    )
    assert response.status_code == 403
    assert not Event.objects.exists()


def test_undo_from_the_pad(scorer_client, game):
    post_event(
        scorer_client, game, "stake", payload={"player": "s0", "amount": 200}, seq=0, key="a"
    )
    response = post_event(scorer_client, game, "undo", seq=1, key="u")
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.snapshot["pot_ore"] == 0


def test_an_admin_voids_a_game(admin_member, game):
    client = client_for(admin_member)
    url = reverse("scoring:game-void", args=[game.club.slug, game.pk])
    assert client.post(url, {"reason": "Fel"}).status_code == 302
    assert Game.objects.get(pk=game.pk).status == GameStatus.VOIDED


def test_starting_a_game_seats_players_in_tap_order(toy, scorer_client, club, scorer, member):
    url = reverse("scoring:game-start", args=[club.slug, "toy"])
    assert scorer_client.get(url).status_code == 200
    data = start_form([scorer, member], order=[member, scorer], max_stake_ore="50")
    response = scorer_client.post(url, data | {"guests": "Gäst Gun"})
    assert response.status_code == 302
    game = Game.objects.get()
    assert [s.name for s in game.seats.all()] == [member.name, scorer.name, "Gäst Gun"]
    assert game.rules == {"max_stake_ore": 5000}


def test_starting_with_one_player_is_a_form_error(toy, scorer_client, club, scorer):
    url = reverse("scoring:game-start", args=[club.slug, "toy"])
    response = scorer_client.post(url, {"players": [scorer.pk]})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert not Game.objects.exists()


def test_history_lists_the_clubs_games(scorer_client, game):
    page = scorer_client.get(reverse("scoring:game-list", args=[game.club.slug])).content.decode()
    assert f"#{game.pk}" in page


def test_nested_form_fields_build_a_payload_dict(scorer_client, game):
    data = {
        "type": "stake",
        "p_player": "s0",
        "p_amount": "5",
        "p_extra.s0": "4",
        "p_extra.s1": "",
        "expected_seq": 0,
        "idempotency_key": "n",
    }
    scorer_client.post(event_url(game), data)
    assert Event.objects.get(game=game).payload == {"player": "s0", "amount": 5, "extra": {"s0": 4}}


def test_the_app_can_draw_the_first_dealer(scorer_client, club, scorer, member):
    url = reverse("scoring:game-start", args=[club.slug, "fyrtioett"])
    others = [make_member(club, f"Fyra {i}", login=False) for i in range(2)]
    players = [scorer.pk, member.pk, *[o.pk for o in others]]
    for _ in range(3):
        response = scorer_client.post(url, {"players": players, "draw_dealer": "on"})
        assert response.status_code == 302
    dealers = {g.setup["first_dealer"] for g in Game.objects.filter(game_key="fyrtioett")}
    assert dealers <= {"s0", "s1", "s2", "s3"}
    game = Game.objects.filter(game_key="fyrtioett").first()
    assert game.snapshot["dealer"] == game.setup["first_dealer"]
