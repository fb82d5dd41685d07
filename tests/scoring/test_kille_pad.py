"""Recording Kille through the pad's forms: the pot account holds the engine's pot, every stake
and payout is posted as it happens, bad input is refused with nothing stored, and the next
evening starts with the pot the last one left."""

from __future__ import annotations

import pytest
from django.urls import reverse

import ledger
from club.models import Role
from league.models import GameResult
from ledger.models import Account
from scoring import recording
from scoring.models import Event, Game, GameStatus
from scoring.recording import replay
from tests.conftest import client_for
from tests.factories import make_member
from tests.scoring.pad import HTMX, balances, p_fields, pad_url, post_event, start_from_form


@pytest.fixture
def players(club):
    anna = make_member(club, "Anna Andersson", roles=[Role.SCORER])
    return [anna, *(make_member(club, name) for name in ("Bo Berg", "Cilla Carlsson", "Dan Dahl"))]


@pytest.fixture
def scorer_client(players):
    return client_for(players[0])


def start(client, club, players, **rules) -> Game:
    """Start a game as the start page does (which passes the club's pot to the engine)."""
    return start_from_form(client, club, "kille", players, two_player_rule="on", **rules)


def tap(client, game, type_, status=200, **fields):
    """Post one form of the pad: a button with ``type``, and the form's ``p_`` fields."""
    return post_event(client, game, type_, p_fields(**fields), status=status)


def calls(client, game, *pairs):
    for pair in pairs:
        player, kind = pair.split()
        tap(client, game, kind, player=player)


def reveal(client, game, status=200, **cards):
    fields = {f"cards.{player}": card for player, card in cards.items()}
    return tap(client, game, "reveal", status=status, **fields)


def pot_account(club):
    return Account.objects.get(club=club, key="pot:kille")


def test_a_deal_with_a_showing_posts_every_stake_and_payout(scorer_client, club, players):
    game = start(scorer_client, club, players)
    assert game.snapshot["phase"] == "ante"
    tap(scorer_client, game, "ante")
    assert pot_account(club).balance_ore == 800
    assert balances(players) == [-200] * 4

    # Deal 1 (Anna deals): a budrunda, 1 kr each.
    calls(scorer_client, game, "s1 bud", "s2 bud", "s3 bud", "s0 bud")
    assert pot_account(club).balance_ore == 1200
    # Deal 2 (Bo deals, Cilla förhand): Cilla knocks, Dan folds, Anna and Bo stay; Cilla knocks
    # again, Anna takes
    # the fourth trick and says bud, Bo lays up first with 3 against Anna's blompottan.
    calls(scorer_client, game, "s2 knock", "s3 fold", "s0 stay", "s1 stay", "s2 knock")
    tap(scorer_client, game, "fourth_trick", player="s0")
    calls(scorer_client, game, "s0 bud", "s1 show")
    assert game.snapshot["phase"] == "reveal"
    reveal(scorer_client, game, s0="blompottan", s1="3", s2="kille")
    state = game.snapshot
    # Anna takes the 12 kr pot and 12 kr from Bo; Bo and Cilla, the losers, pay 2 kr each.
    assert state["pot_ore"] == 400
    assert state["nets"] == {"s0": 2100, "s1": -1700, "s2": -500, "s3": -300, "pot": 400}
    assert pot_account(club).balance_ore == state["pot_ore"]
    assert balances(players) == [2100, -1700, -500, -300]
    assert state["deals"][-1]["winner"] == "s0"
    assert state["pots_won"]["s0"] == 1
    # The deal's line says what Anna won (the 12 kr pot), not her net of the next stake.
    page = scorer_client.get(pad_url(game), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Anna Andersson won the showing and the pot: SEK 12.00" in page
    # The ledger's memo names the players, not the seats.
    memo = Event.objects.filter(game=game).latest("seq").money.memo
    assert "Anna Andersson" in memo
    assert "s0" not in memo


def test_the_pad_offers_the_current_steps_buttons(scorer_client, club, players):
    game = start(scorer_client, club, players)
    url = pad_url(game)
    page = scorer_client.get(url).content.decode()
    assert 'data-testid="ante"' in page
    assert "8,00" not in page  # nothing in the pot yet
    tap(scorer_client, game, "ante")
    page = scorer_client.get(url).content.decode()
    assert 'data-testid="kille-pot"' in page
    assert "8,00" in page
    assert 'data-testid="bud-s1"' in page
    assert 'data-testid="knock-s1"' in page
    assert 'data-testid="bud-s2"' not in page  # only the player on turn has buttons
    calls(scorer_client, game, "s1 knock")
    page = scorer_client.get(url).content.decode()
    # The fold round, from the knocker's left: Cilla first, with a button to stay and one to fold.
    assert 'data-testid="stay-s2"' in page
    assert 'data-testid="fold-s2"' in page
    for seat in ("s3", "s0", "s1"):  # not yet, and never the knocker
        assert f'data-testid="fold-{seat}"' not in page
        assert f'data-testid="stay-{seat}"' not in page
    assert 'data-testid="bud-s1"' not in page  # the second call waits for the fold round
    calls(scorer_client, game, "s2 stay")
    page = scorer_client.get(url).content.decode()
    assert 'data-testid="fold-s3"' in page
    assert 'data-testid="fold-s2"' not in page  # Cilla stayed
    calls(scorer_client, game, "s3 stay", "s0 stay")
    page = scorer_client.get(url).content.decode()
    assert 'data-testid="bud-s1"' in page  # the second call, förhand first
    calls(scorer_client, game, "s1 knock")
    page = scorer_client.get(url).content.decode()
    assert 'data-testid="fourth_trick-s3"' in page
    tap(scorer_client, game, "fourth_trick", player="s3")
    tap(scorer_client, game, "show", player="s3")
    page = scorer_client.get(url, **HTMX).content.decode()
    assert page.lstrip().startswith('<div id="pad"')
    for seat in ("s0", "s1", "s2", "s3"):
        assert f'data-testid="card-{seat}-blaren"' in page
        assert f'name="p_cards.{seat}"' in page


@pytest.mark.usefixtures("in_english")  # the refusals are read word for word, in English
def test_bad_input_is_refused_with_a_message_and_nothing_stored(scorer_client, club, players):
    game = start(scorer_client, club, players)
    tap(scorer_client, game, "ante")
    # Out of turn: Bo is förhand.
    response = tap(scorer_client, game, "bud", status=422, player="s2")
    assert "Bo Berg" in response.content.decode()  # the message names people, not seats
    calls(scorer_client, game, "s1 knock")
    # Out of turn in the fold round: Cilla, on the knocker's left, speaks first.
    response = tap(scorer_client, game, "fold", status=422, player="s0")
    assert "It is Cilla Carlsson&#x27;s turn to stay or fold" in response.content.decode()
    calls(scorer_client, game, "s2 stay", "s3 stay", "s0 stay", "s1 bud")
    # A fold in the second round by a player who stayed.
    response = tap(scorer_client, game, "fold", status=422, player="s3")
    assert "Dan Dahl stayed and cannot fold later" in response.content.decode()
    calls(scorer_client, game, "s2 knock")
    tap(scorer_client, game, "fourth_trick", player="s2")
    calls(scorer_client, game, "s2 show")
    # A knock after the showing started.
    response = tap(scorer_client, game, "knock", status=422, player="s3")
    assert "showing round has begun" in response.content.decode()
    # A card that is not in the Kille deck, and a card left out.
    response = reveal(scorer_client, game, status=422, s0="1", s1="2", s2="3", s3="dam")
    assert "not a Kille card" in response.content.decode()
    response = reveal(scorer_client, game, status=422, s0="1", s1="2", s2="3")
    assert "missing" in response.content.decode()
    seq = game.seq
    assert Event.objects.filter(game=game).count() == seq
    assert pot_account(club).balance_ore == 800
    assert game.snapshot["phase"] == "reveal"


def test_a_second_evening_starts_with_the_pot_the_first_one_left(
    scorer_client, club, players, django_capture_on_commit_callbacks
):
    first = start(scorer_client, club, players)
    tap(scorer_client, first, "ante")
    calls(scorer_client, first, "s1 knock", "s2 fold", "s3 fold", "s0 fold")  # Bo takes 8 kr
    assert pot_account(club).balance_ore == 400
    with django_capture_on_commit_callbacks(execute=True):
        tap(scorer_client, first, "end_evening")
    assert first.status == GameStatus.FINISHED
    standings = {s["player"]: s["placement"] for s in first.snapshot["standings"]}
    assert standings == {"s1": 1, "s0": 2, "s2": 2, "s3": 2}
    results = {r.member.name: r for r in GameResult.objects.filter(game_ref=first.ref)}
    assert results["Bo Berg"].details["pots_won"] == 1
    assert results["Bo Berg"].net_ore == 500
    assert results["Anna Andersson"].net_ore == -300

    second = start(scorer_client, club, players[:3])
    assert second.setup["pot_ore"] == 400
    assert second.snapshot["pot_ore"] == 400
    assert second.snapshot["phase"] == "declare"  # K2: no opening stake on a continued pot
    calls(scorer_client, second, "s1 bud", "s2 bud", "s0 bud")  # budrunda: 1 kr each
    assert second.snapshot["pot_ore"] == 700
    assert pot_account(club).balance_ore == 700
    # Undo takes the budrunda back, in the ledger too.
    post_event(scorer_client, second, "undo", key="undo-1")
    assert second.snapshot["pot_ore"] == 400
    assert pot_account(club).balance_ore == 400
    # The first evening's pot lives on in the second: it can no longer be taken back.
    first.refresh_from_db()
    pad = scorer_client.get(pad_url(first))
    assert not pad.context["can_undo"]
    refused = post_event(scorer_client, first, "undo", key="undo-old")
    assert refused.status_code == 422
    with pytest.raises(recording.EventRefused):
        recording.void_game(first, "fel", None)
    first.refresh_from_db()
    assert first.status == GameStatus.FINISHED
    assert pot_account(club).balance_ore == 400


@pytest.mark.books_tampered
def test_the_club_can_open_every_evening_with_a_stake(scorer_client, club, players):
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    ledger.post(
        club, [(pot, 1000), (ledger.member_account(players[0]), -1000)], "seed", "manual", None
    )
    game = start(scorer_client, club, players, opening_stake_each_evening="on")
    assert game.snapshot["phase"] == "ante"
    tap(scorer_client, game, "ante")
    assert pot_account(club).balance_ore == 1800
    assert game.snapshot["pot_ore"] == 1800


def test_a_game_recorded_before_staying_was_an_event_still_replays(scorer_client, club, players):
    # Such a game's setup says implied_stays (the lead's data migration marks old Kille games):
    # only folds were tapped, the players skipped stayed, and the second call closed the round.
    game = recording.start_game(
        club, "kille", players, players[0].user, setup={"pot_ore": 0, "implied_stays": True}
    )
    tap(scorer_client, game, "ante")
    calls(scorer_client, game, "s1 knock", "s3 fold", "s1 knock")
    assert game.snapshot["phase"] == "tricks"
    assert game.snapshot["stayed"] == ["s2", "s0"]
    replayed = replay._replay(game, list(game.events.order_by("seq")))
    assert replayed.folded == ("s3",)


def test_exchange_counts_and_tricks_come_from_the_forms(scorer_client, club, players):
    game = start(scorer_client, club, players[:3])
    tap(scorer_client, game, "ante")
    calls(scorer_client, game, "s1 knock", "s2 stay", "s0 stay")
    tap(scorer_client, game, "exchange", **{"counts.s1": "2", "counts.s2": "0", "counts.s0": "1"})
    assert game.snapshot["exchanged"] == {"s1": 2, "s2": 0, "s0": 1}
    calls(scorer_client, game, "s1 knock")
    tap(scorer_client, game, "trick", **{"cards.s1": "10", "cards.s2": "kille", "cards.s0": "2"})
    assert game.snapshot["tricks"][0]["winner"] == "s2"
    assert game.snapshot["leader"] == "s2"


# --- Kille (elimination) ----------------------------------------------------------------------


def test_an_elimination_deal_is_recorded_from_the_pad(scorer_client, club, players):
    game = recording.start_game(club, "kille_elimination", players[:3], players[0].user)
    url = pad_url(game)
    page = scorer_client.get(url).content.decode()
    for seat in ("s0", "s1", "s2"):
        assert f'data-testid="fourth_trick-{seat}"' in page
    # s0 deals first, so s1 on his left is förhand, marked as on the Kille pad.
    assert 'data-testid="forhand-s1"' in page
    assert 'data-testid="forhand-s0"' not in page
    assert 'data-testid="forhand-s2"' not in page
    tap(scorer_client, game, "fourth_trick", player="s1")
    page = scorer_client.get(url).content.decode()
    assert 'data-testid="declare-s1"' in page
    assert 'data-testid="pass-s2"' not in page
    tap(scorer_client, game, "declare", status=422, player="s2")  # s1 speaks first
    calls(scorer_client, game, "s1 pass", "s2 declare")
    page = scorer_client.get(url).content.decode()
    assert 'data-testid="card-s0-kille"' in page
    reveal(scorer_client, game, s0="kille", s1="3", s2="blaren")
    assert game.snapshot["scores"] == {"s0": 50, "s1": 3, "s2": 0}
    assert game.snapshot["out"] == ["s0"]
    assert not Account.objects.filter(club=club, key="pot:kille_elimination").exists()
    page = scorer_client.get(url).content.decode()
    assert 'data-testid="score-s0"' in page
    assert 'data-testid="fourth_trick-s0"' not in page  # out


def test_the_start_page_offers_the_clubs_kille_options(scorer_client, club):
    page = scorer_client.get(reverse("scoring:game-start", args=[club.slug, "kille"]))
    text = page.content.decode()
    for name in (
        "base_stake_ore",
        "small_stake_ore",
        "two_player_rule",
        "opening_stake_each_evening",
    ):
        assert f'name="rule_{name}"' in text


def test_the_help_pages_exist_in_both_languages(client, settings):
    for key in ("kille", "kille_elimination"):
        url = reverse("scoring:game-help", args=[key])
        assert "Kille" in client.get(url).content.decode()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        assert "how the app scores it" in client.get(url).content.decode()
        del client.cookies[settings.LANGUAGE_COOKIE_NAME]


def test_a_finished_evening_shows_the_result(scorer_client, club, players):
    game = start(scorer_client, club, players[:2])
    tap(scorer_client, game, "ante")
    calls(scorer_client, game, "s1 knock", "s0 fold")
    tap(scorer_client, game, "end_evening")
    page = scorer_client.get(pad_url(game))
    text = page.content.decode()
    assert "1. Bo Berg" in text
    assert "2. Anna Andersson" in text
    assert 'data-testid="bud-s0"' not in text


def test_a_finished_elimination_game_shows_the_winner(scorer_client, club, players):
    game = recording.start_game(club, "kille_elimination", players[:2], players[0].user)
    tap(scorer_client, game, "fourth_trick", player="s1")
    calls(scorer_client, game, "s1 declare")
    reveal(scorer_client, game, s0="kille", s1="blaren")
    assert game.status == GameStatus.FINISHED
    text = scorer_client.get(pad_url(game))
    assert "1. Bo Berg" in text.content.decode()
