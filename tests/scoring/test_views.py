from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.models import Club
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


def test_another_clubs_game_under_this_clubs_address_is_not_found(
    toy, scorer_client, club, outsider
):
    """The slug lets the scorer into his own club; a game id from another club under it is 404
    on every page of a game, and a tap there records nothing."""
    theirs = recording.start_game(outsider.club, "toy", [outsider, "Gästen"], outsider.user)

    def url(name):
        return reverse(f"scoring:{name}", args=[club.slug, theirs.pk])

    for name in ("game-detail", "game-poll"):
        assert scorer_client.get(url(name)).status_code == 404, name
    for name in ("game-event", "game-confirm"):
        assert scorer_client.post(url(name), {"type": "stake"}).status_code == 404, name
    # Voiding needs an admin: refused before the game is even looked up.
    assert scorer_client.post(url("game-void"), {"reason": "x"}).status_code in (403, 404)
    payload = {"player": "s0", "amount": 200}
    tap = post_event(scorer_client, theirs, "stake", payload=payload, seq=0, key="k1")
    assert tap.status_code == 404  # under its own club's address: not his club
    assert not Event.objects.filter(game=theirs).exists()
    theirs.refresh_from_db()
    assert theirs.status == GameStatus.OPEN


def test_an_htmx_event_returns_the_new_pad(scorer_client, game):
    response = post_event(
        scorer_client, game, "stake", payload={"player": "s0", "amount": 200}, seq=0, key="k1"
    )
    assert response.status_code == 200
    assert "Sune Skrivare stakes 2,00\u00a0kr" in response.content.decode()
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
    assert "Sune Skrivare stakes 2,00\u00a0kr" in text
    assert 'id="pad"' in text
    assert Event.objects.filter(game=game).count() == 1


def test_an_illegal_event_gets_422_with_the_engines_message(scorer_client, game):
    response = post_event(scorer_client, game, "win", payload={"player": "s0"}, seq=0, key="w")
    assert response.status_code == 422
    assert "The pot is empty" in response.content.decode()
    assert not Event.objects.exists()


def test_polling_answers_204_until_something_changes(scorer_client, scorer, game):
    url = reverse("scoring:game-poll", args=[game.club.slug, game.pk])
    assert scorer_client.get(url, {"seq": 0}, **HTMX).status_code == 204
    other_phone = client_for(scorer)
    post_event(other_phone, game, "stake", payload={"player": "s0", "amount": 100}, seq=0, key="x")
    response = scorer_client.get(url, {"seq": 0}, **HTMX)
    assert response.status_code == 200
    assert "Sune Skrivare stakes 1,00\u00a0kr" in response.content.decode()


def test_a_poll_that_finds_nothing_new_writes_nothing_and_asks_the_database_twice(
    scorer_client, game
):
    url = reverse("scoring:game-poll", args=[game.club.slug, game.pk])
    scorer_client.get(url, {"seq": 0}, **HTMX)  # the session reaches the cache
    with CaptureQueriesContext(connection) as queries:
        assert scorer_client.get(url, {"seq": 0}, **HTMX).status_code == 204
    sql = [query["sql"] for query in queries.captured_queries]
    assert all(statement.lstrip().upper().startswith("SELECT") for statement in sql), sql
    assert len(sql) <= 2, sql  # the user, and the game's seq if the user is in its club


def test_a_poll_from_outside_the_club_is_404(game, client):
    outsider = make_member(Club.objects.create(name="Annan klubb", slug="annan"), "Olle Ute")
    url = reverse("scoring:game-poll", args=[game.club.slug, game.pk])
    assert client_for(outsider).get(url, {"seq": 0}, **HTMX).status_code == 404
    assert client.get(url, {"seq": 0}).status_code == 302  # logged out: to the login page


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
    assert response.status_code == 422
    assert response.context["form"].non_field_errors()
    assert not Game.objects.exists()


def test_history_lists_the_clubs_games(scorer_client, game):
    page = scorer_client.get(reverse("scoring:game-list", args=[game.club.slug])).content.decode()
    link = reverse("scoring:game-detail", args=[game.club.slug, game.pk])
    assert f'<a class="row-link" href="{link}">' in page


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


def test_the_app_can_draw_the_first_dealer(scorer_client, club, scorer, member, monkeypatch):
    url = reverse("scoring:game-start", args=[club.slug, "fyrtioett"])
    others = [make_member(club, f"Fyra {i}", login=False) for i in range(2)]
    players = [scorer.pk, member.pk, *[o.pk for o in others]]
    drawn = []

    def draw(n):
        drawn.append(n)
        return 2

    monkeypatch.setattr("scoring.games.secrets.randbelow", draw)
    assert scorer_client.post(url, {"players": players, "draw_dealer": "on"}).status_code == 302
    assert drawn == [4]  # one card drawn among the four players
    game = Game.objects.get(game_key="fyrtioett")
    assert game.setup["first_dealer"] == "s2"
    assert game.snapshot["dealer"] == "s2"


def test_without_the_draw_the_first_seat_deals(scorer_client, club, scorer, member, monkeypatch):
    url = reverse("scoring:game-start", args=[club.slug, "fyrtioett"])
    others = [make_member(club, f"Fyra {i}", login=False) for i in range(2)]
    monkeypatch.setattr("scoring.games.secrets.randbelow", lambda n: pytest.fail("drew a dealer"))
    players = [scorer.pk, member.pk, *[o.pk for o in others]]
    assert scorer_client.post(url, {"players": players}).status_code == 302
    game = Game.objects.get(game_key="fyrtioett")
    assert "first_dealer" not in game.setup
    assert game.snapshot["dealer"] == "s0"


# --- a double tap on "Start the game" ----------------------------------------------------------


def start_page_key(client, url) -> str:
    return client.get(url).context["form"].initial["submission"]


def test_a_double_tap_on_start_makes_one_game(scorer_client, club, scorer, member):
    url = reverse("scoring:game-start", args=[club.slug, "cribbage"])
    page = scorer_client.get(url)
    key = page.context["form"].initial["submission"]
    assert f'type="hidden" name="submission" value="{key}"' in page.content.decode()
    data = start_form([scorer, member]) | {"submission": key}
    first = scorer_client.post(url, data)
    second = scorer_client.post(url, data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Game.objects.count() == 1
    assert Game.objects.get().start_key == key
    # A fresh page is a fresh key: another game.
    again = start_form([scorer, member]) | {"submission": start_page_key(scorer_client, url)}
    assert scorer_client.post(url, again).status_code == 302
    assert Game.objects.count() == 2


def test_a_double_tap_on_starting_a_pot_game_opens_the_first_not_a_refusal(
    scorer_client, club, scorer, players
):
    url = reverse("scoring:game-start", args=[club.slug, "kille"])
    data = start_form(players) | {"submission": start_page_key(scorer_client, url)}
    first = scorer_client.post(url, data)
    second = scorer_client.post(url, data)  # not "a Kille game is already open"
    assert first["Location"] == second["Location"]
    assert Game.objects.filter(game_key="kille").count() == 1


@pytest.mark.parametrize("key", ["ab\x00cd", "x" * 65, "<script>"])
def test_a_damaged_start_key_is_refused(toy, scorer_client, club, scorer, member, key):
    url = reverse("scoring:game-start", args=[club.slug, "toy"])
    response = scorer_client.post(url, start_form([scorer, member]) | {"submission": key})
    assert response.status_code == 422
    assert response.context["form"].has_error("submission")
    assert not Game.objects.exists()


def test_the_start_key_is_unique_per_club_in_the_database(toy, club, other_club, scorer, member):
    game = recording.start_game(club, "toy", [scorer, member], None, key="k1")
    assert recording.start_game(club, "toy", [scorer, member], None, key="k1") == game
    guests = ["Gäst A", "Gäst B"]
    assert recording.start_game(other_club, "toy", guests, None, key="k1") != game
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(club=club, game_key="toy", start_key="k1")
    # No key, no uniqueness: games started without the form.
    recording.start_game(club, "toy", [scorer, member], None)
    recording.start_game(club, "toy", [scorer, member], None)
    assert Game.objects.filter(club=club, start_key__isnull=True).count() == 2


# --- money options on the start form -----------------------------------------------------------


def test_a_stake_above_the_ceiling_is_a_field_error_naming_it(scorer_client, club, players):
    url = reverse("scoring:game-start", args=[club.slug, "cribbage"])
    data = start_form(players[:2], stake_ore="1000000,01") | {"submission": "k"}
    response = scorer_client.post(url, data)
    assert response.status_code == 422
    assert response.context["form"].has_error("rule_stake_ore", code="too_large")
    assert "högst 1\u00a0000\u00a0000,00\u00a0kr" in response.content.decode()
    assert not Game.objects.exists()


def test_a_lowered_ceiling_bounds_the_stakes_too(scorer_client, club, players, settings):
    settings.MAX_AMOUNT_ORE = 10_000
    url = reverse("scoring:game-start", args=[club.slug, "whist"])
    data = start_form([*players, make_member(club, "Fjärde")], stake_ore="100,01")
    response = scorer_client.post(url, data | {"submission": "k"})
    assert response.context["form"].has_error("rule_stake_ore", code="too_large")
    data = start_form([*players, make_member(club, "Femte")], stake_ore="100")
    assert scorer_client.post(url, data | {"submission": "k2"}).status_code == 302


# --- hostile input: read once at the edge (core.inputs), refused with the pad ------------------


def post_raw(client, game, **fields):
    data = {"type": "stake", "expected_seq": "0", "idempotency_key": "h", **fields}
    return client.post(event_url(game), data, **HTMX)


@pytest.mark.parametrize("seq", ["²", "١", "０", "--0", "9" * 5000, "\x00"])
def test_polling_with_a_seq_that_is_no_number_gets_the_pad(scorer_client, game, seq):
    url = reverse("scoring:game-poll", args=[game.club.slug, game.pk])
    response = scorer_client.get(url, {"seq": seq}, **HTMX)
    assert response.status_code == 200
    assert 'id="pad"' in response.content.decode()


@pytest.mark.parametrize("amount", ["²", "١٢", "１２", "--5", "1e3"])
def test_a_number_in_another_script_reaches_the_engine_as_text_and_is_refused(
    scorer_client, game, amount
):
    response = post_raw(scorer_client, game, p_player="s0", p_amount=amount)
    assert response.status_code == 422
    assert 'id="pad"' in response.content.decode()
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"expected_seq": "²"},
        {"expected_seq": "9" * 5000},
        {"expected_seq": ""},
        {"idempotency_key": "a\x00b"},
        {"idempotency_key": "k" * 65},
        {"type": "stake\x00"},
        {"type": "x" * 31},
        {"p_amount": "9" * 5000},
        {"payload": "[" * 5000 + "]" * 5000},
        {"payload": '{"player": "s0", "amount": NaN}'},
        {"payload": '{"player": "s0\\u0000", "amount": 5}'},
        {"payload": '{"amount": 5}', "p_amount": "5"},
        {"p_amount": "5", "p_amount.x": "5"},
        {"p_note": "x" * 10_000},
        {"p_" + "k" * 300: "1"},
    ],
)
def test_what_the_database_or_a_parser_cannot_hold_is_refused_with_the_pad(
    scorer_client, game, fields
):
    response = post_raw(scorer_client, game, **({"p_player": "s0", "p_amount": "5"} | fields))
    assert response.status_code == 422
    page = response.content.decode()
    assert 'id="pad"' in page
    assert 'class="error' in page or "error" in page
    assert not Event.objects.exists()
    game.refresh_from_db()
    assert game.seq == 0


def test_a_body_larger_than_any_form_is_refused_before_the_view(scorer_client, game):
    response = post_raw(scorer_client, game, p_player="s0", p_amount="5", p_junk="x" * 2_000_000)
    assert response.status_code == 400
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("order", "guests", "problem"),
    [
        ("²,١,--5," + "9" * 30, "", None),
        ("9" * 5000, "", "order"),
        ("", "G" * 101, "guests"),
        ("", "Gäst\x00", "guests"),
        ("", "Gäst\x1b[31m", "guests"),
    ],
)
def test_the_start_form_reads_the_seat_order_and_guests_safely(
    toy, scorer_client, club, scorer, member, order, guests, problem
):
    url = reverse("scoring:game-start", args=[club.slug, "toy"])
    data = start_form([scorer, member]) | {"order": order, "guests": guests}
    response = scorer_client.post(url, data)
    if problem is None:
        assert response.status_code == 302
        assert Game.objects.count() == 1
    else:
        assert response.status_code == 422
        assert not Game.objects.exists()


@pytest.mark.parametrize("value", ["١٢", "１２", "²", "9" * 5000, "10000000000"])
def test_a_whole_number_option_is_read_in_ascii_digits_within_bounds(
    scorer_client, club, players, value
):
    url = reverse("scoring:game-start", args=[club.slug, "stopp"])
    response = scorer_client.post(url, start_form(players) | {"rule_capital": value})
    assert response.status_code == 422
    assert "rule_capital" in response.context["form"].errors
    assert not Game.objects.exists()


@pytest.mark.parametrize(("language", "name"), [("sv", "Nittionio"), ("en", "Ninety-nine")])
def test_the_start_page_names_the_game_in_the_readers_language(scorer_client, club, language, name):
    url = reverse("scoring:game-start", args=[club.slug, "nittionio"])
    page = scorer_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<h1>{name}</h1>" in page
    assert f"<title>{name} ·" in page
