"""Polskt pass at the table: the pad's forms through the Django test client, the ledger equal
to the engine after every event, the pot and betar carried into the next evening, bad input
refused with nothing stored, the calculator and the help pages."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

import ledger
from ledger.models import Account, AccountKind, Transaction
from scoring import games, recording
from scoring.games import polskt_pass as hooks
from scoring.models import Event, Game
from tests.conftest import client_for
from tests.factories import make_member
from tests.scoring.pad import HTMX, p_fields, pad_url, post_event, start_form

# The refusals are read word for word, in English.
pytestmark = pytest.mark.usefixtures("in_english")


@pytest.fixture
def people(club, scorer):
    others = [make_member(club, name, login=False) for name in ("Anna Berg", "Bo Ek", "Cia Dahl")]
    return [scorer, *others]


def start(club, people, user, rules=None):
    """Start as the start view does: the club's pot and the hook's betar as setup."""
    setup = games.start_setup(club, "polskt_pass")
    return recording.start_game(
        club, "polskt_pass", people, user, rules=rules or {"stake_ore": 1000}, setup=setup
    )


def ledger_state(club) -> tuple[int, dict[int, int]]:
    pot = Account.objects.filter(club=club, key="pot:polskt_pass").first()
    bets = {
        int(a.key.rsplit(":", 1)[1]): a.balance_ore
        for a in Account.objects.filter(club=club, kind=AccountKind.BET)
    }
    return (pot.balance_ore if pot else 0), bets


class Pad:
    """Posts what the pad's forms post, and checks the ledger against the engine after each."""

    def __init__(self, client, game):
        self.client, self.game = client, game

    def post(self, type_, status=200, payload=None, **fields):
        fields = p_fields(**fields)
        response = post_event(self.client, self.game, type_, fields, payload=payload, status=status)
        self.assert_ledger_equals_engine()
        return response

    @property
    def state(self):
        return self.game.snapshot

    def assert_ledger_equals_engine(self):
        pot, bets = ledger_state(self.game.club)
        assert pot == self.state["pot_ore"]
        engine_bets = {b["id"]: b["amount_ore"] for b in self.state["betar"]}
        assert {i: a for i, a in bets.items() if a} == engine_bets
        assert all(amount >= 0 for amount in bets.values())
        assert ledger.verify_balances(self.game.club) == []


@pytest.fixture
def pad(club, people, scorer, scorer_client):
    return Pad(scorer_client, start(club, people, scorer.user))


def test_an_evening_on_the_pad_keeps_the_ledger_equal_to_the_engine(pad, club, people):
    # Seats s0..s3 = Sune, Anna, Bo, Cia; s0 deals first, s3 cuts, s1 is förhand. Stake 10 kr.
    pad.post("deal", payload={"suit": "H", "rank": "other"})
    assert pad.state["phase"] == "bidding"
    assert pad.state["pot_ore"] == 1000
    pad.post("all_pass")
    pad.post("bid", player="s2", suit="S")  # Bo plays in spades in the wieder round
    for winner in ("s1", "s1", "s1"):  # Anna takes three: Bo sets a bet of 10
        pad.post("trick", winner=winner)
    assert pad.state["phase"] == "deal"
    assert pad.state["betar"] == [{"id": 1, "amount_ore": 1000, "owners": ["s2"], "deal": 1}]

    # Deal 2: Anna deals; Sune (the cutter) took a jack, so Anna takes the turned 9♣ and both
    # play. Played for 10 + bet 1 = 20. Cia wins by counts; Anna and Sune each set 20.
    pad.post("deal", payload={"suit": "C", "rank": "other"}, cutter_jack="true")
    assert pad.state["current"]["spelforare"] == ["s1", "s0"]
    pad.post("tricks", **{"counts.s3": "3", "counts.s0": "1", "counts.s2": "1"})
    assert [(b["id"], b["amount_ore"]) for b in pad.state["betar"]] == [(2, 2000), (3, 2000)]

    # Deal 3: Bo deals and takes a turned ace; he takes two, says la vola and wins all five:
    # pot 10 + bet 2 (the older of two 20s) = 30, and 30 from each other player.
    pad.post("deal", payload={"suit": "D", "rank": "A", "dealer_takes": True})
    pad.post("trick", winner="s2")
    pad.post("trick", winner="s2")
    assert "la_vola" in pad.state["expected"]
    pad.post("la_vola", player="s2")
    for _ in range(3):
        pad.post("trick", winner="s2")
    assert pad.state["pot_ore"] == 0
    assert [(b["id"], b["amount_ore"]) for b in pad.state["betar"]] == [(3, 2000)]

    pad.post("end")
    assert pad.state["finished"]
    nets = pad.state["money"]
    # Sune -10 -20 -30, Anna +10 -10 -20 -30, Bo -10 -10 +120, Cia +20 -30; bet 3 holds 20.
    assert nets == {"s0": -6000, "s1": -5000, "s2": 10000, "s3": -1000}
    for seat, member in zip(("s0", "s1", "s2", "s3"), people, strict=True):
        assert ledger.balance(ledger.member_account(member)) == nets[seat]
    assert [s["player"] for s in pad.state["standings"]] == ["s2", "s3", "s1", "s0"]


def test_the_pad_shows_each_step_with_the_pot_and_betar(pad, club, scorer):
    url = pad_url(pad.game)
    client = client_for(scorer)
    page = client.get(url).content.decode()
    assert 'data-testid="pp-turn-ace_left-H"' in page
    assert "pp-end" not in page  # nothing to end before the first deal
    pad.post("deal", payload={"suit": "H", "rank": "9"})
    page = client.get(url, **HTMX).content.decode()
    assert 'data-testid="pp-bid-s1"' in page
    assert 'data-testid="pp-all-pass"' in page
    pad.post("all_pass")
    page = client.get(url, **HTMX).content.decode()
    # Wieder: förhand (s1) may name hearts, the others not.
    assert 'data-testid="pp-bid-s1-H"' in page
    assert 'data-testid="pp-bid-s2-H"' not in page
    assert 'data-testid="pp-bid-s2-S"' in page
    # The wieder grid names each bidder by first name (unique here), so four suits fit beside it.
    names = re.findall(r'<span class="pp-bid-name">([^<]*)', page)
    assert len(names) == 4
    assert all(" " not in name.strip() for name in names), names
    pad.post("bid", player="s3", suit="C")
    page = client.get(url, **HTMX).content.decode()
    assert 'data-testid="pp-trick-s0"' in page
    assert 'data-testid="pp-count-s0"' in page
    pad.post("trick", winner="s0")
    pad.post("trick", winner="s0")
    page = client.get(url, **HTMX).content.decode()
    assert 'data-testid="pp-la-vola"' in page
    pad.post("trick", winner="s0")
    page = client.get(url, **HTMX).content.decode()
    assert 'data-testid="pp-bet-1"' in page
    assert "Cia Dahl" in page  # the owner of bet 1, by name


def test_a_member_who_cannot_record_sees_the_pot_and_betar_but_no_buttons(pad, club, member):
    pad.post("deal", payload={"suit": "H", "rank": "9"})
    page = client_for(member).get(pad_url(pad.game))
    text = page.content.decode()
    assert 'data-testid="pp-pot"' in text
    assert 'data-testid="pp-betar"' in text
    assert "pp-bid-s1" not in text


@pytest.mark.parametrize(
    ("before", "type_", "fields", "message"),
    [
        ([], "deal", {"payload": {"suit": "H", "rank": "K", "dealer_takes": True}}, "only if"),
        ([], "deal", {"payload": {"suit": "H", "rank": "8"}}, "24-card"),
        ([("deal", {"payload": {"suit": "H", "rank": "9"}}), ("all_pass", {})], "bid",
         {"player": "s2", "suit": "H"}, "förhand"),
        ([("deal", {"payload": {"suit": "H", "rank": "9"}}), ("bid", {"player": "s1"})],
         "tricks", {"counts.s0": "3", "counts.s1": "1"}, "add up"),
        ([("deal", {"payload": {"suit": "H", "rank": "9"}}), ("bid", {"player": "s1"})],
         "tricks", {"counts.s1": "5", "counts.s0": "1", "la_vola": "s1"}, "add up to 6"),
        ([("deal", {"payload": {"suit": "H", "rank": "9"}}), ("bid", {"player": "s1"}),
          ("trick", {"winner": "s0"}), ("trick", {"winner": "s2"})],
         "la_vola", {"player": "s0"}, "first two tricks"),
    ],
)  # fmt: skip
def test_bad_input_gets_422_and_nothing_is_stored(pad, club, before, type_, fields, message):
    for kind, given in before:
        pad.post(kind, **given)
    events = Event.objects.filter(game=pad.game).count()
    transactions = Transaction.objects.filter(club=club).count()
    response = pad.post(type_, status=422, **fields)
    assert message in response.content.decode()
    assert Event.objects.filter(game=pad.game).count() == events
    assert Transaction.objects.filter(club=club).count() == transactions


def test_undo_takes_back_a_bet_in_the_ledger(pad, club):
    pad.post("deal", payload={"suit": "H", "rank": "9"})
    pad.post("bid", player="s1")
    pad.post("tricks", **{"counts.s0": "3", "counts.s1": "2"})
    assert ledger_state(club) == (0, {1: 1000})
    pad.post("undo")
    assert pad.state["phase"] == "play"
    assert ledger_state(club) == (1000, {1: 0})


def test_a_second_evening_starts_with_the_first_ones_pot_and_betar(pad, club, people, scorer):
    # Evening 1: deal 1 sets bet 1 (Anna, 10); deal 2 passes (pot 10); then the evening ends.
    pad.post("deal", payload={"suit": "H", "rank": "9"})
    pad.post("bid", player="s1")
    pad.post("tricks", **{"counts.s0": "3", "counts.s1": "2"})
    pad.post("deal", payload={"suit": "S", "rank": "9"})
    pad.post("all_pass")
    pad.post("all_pass")
    pad.post("end")
    assert ledger_state(club) == (1000, {1: 1000})

    # Evening 2, started from the Play page as a scorer does; other seating.
    client = client_for(scorer)
    order = [people[2], people[0], people[1], people[3]]  # Bo, Sune, Anna, Cia
    response = client.post(
        reverse("scoring:game-start", args=[club.slug, "polskt_pass"]),
        start_form(order, stake_ore="10", bet_size="single"),
    )
    assert response.status_code == 302
    second = Game.objects.exclude(pk=pad.game.pk).get()
    assert second.setup == {
        "pot_ore": 1000,
        "betar": [{"id": 1, "amount_ore": 1000, "owners": ["Anna Berg"]}],
        "next_bet_id": 2,
    }
    assert second.snapshot["pot_ore"] == 1000
    assert second.snapshot["played_for_ore"] == 3000  # pot 10 + stake 10 + bet 1
    page = client.get(pad_url(second)).content
    assert "Anna Berg" in page.decode()

    # Bo (s0) deals; Sune (s1) plays and loses to Cia (s3), who takes pot 20 + bet 1 (10).
    # Sune sets 30 as bet 2: the carried id 1 is not reused.
    pad2 = Pad(client, second)
    pad2.post("deal", payload={"suit": "D", "rank": "9"})
    pad2.post("bid", player="s1")
    pad2.post("tricks", **{"counts.s3": "3", "counts.s1": "2"})
    assert ledger_state(club) == (0, {1: 0, 2: 3000})
    assert second.snapshot["betar"] == [{"id": 2, "amount_ore": 3000, "owners": ["s1"], "deal": 1}]


def test_bet_ids_are_never_reused_and_owners_skip_voided_games(club, people, scorer):
    first = Pad(client_for(scorer), start(club, people, scorer.user))
    first.post("deal", payload={"suit": "H", "rank": "9"})
    first.post("bid", player="s2")
    first.post("tricks", **{"counts.s0": "3", "counts.s2": "2"})  # Bo sets bet 1
    assert hooks.start_setup(club) == {
        "betar": [{"id": 1, "amount_ore": 1000, "owners": ["Bo Ek"]}],
        "next_bet_id": 2,
    }
    first.post("end")  # one table at a time plays from the club's pot
    # A second game pays bet 1 out and is then voided: bet 1 is back, owned by Bo.
    second = Pad(client_for(scorer), start(club, list(reversed(people)), scorer.user))
    second.post("deal", payload={"suit": "H", "rank": "9"})
    second.post("bid", player="s2")  # Anna, in the reversed seating
    second.post("tricks", **{"counts.s1": "3", "counts.s2": "2"})  # Bo takes pot and bet 1
    assert hooks.start_setup(club)["betar"] == [
        {"id": 2, "amount_ore": 2000, "owners": ["Anna Berg"]}
    ]
    assert hooks.start_setup(club)["next_bet_id"] == 3
    recording.void_game(second.game, "Fel spel", scorer.user)
    assert hooks.start_setup(club) == {
        "betar": [{"id": 1, "amount_ore": 1000, "owners": ["Bo Ek"]}],
        "next_bet_id": 3,  # bet 2's account exists, so 2 is never handed out again
    }


# --- the calculator and the help pages -----------------------------------------------------


def test_the_calculator_says_who_pays_what_without_login(client):
    url = reverse("scoring:calc-polskt_pass-deal")
    assert client.get(url).status_code == 200
    response = client.get(
        url,
        {"pot": "30", "bet": ["20", "50", ""], "players": "4", "bet_size": "single",
         "outcome": "other"},
    )  # fmt: skip
    result = response.context["result"]
    assert result["amount_ore"] == 5000
    assert [(p["payer"], p["payee"], p["amount_ore"]) for p in result["payments"]] == [
        ("pot", "winner", 3000),
        ("bet:1", "winner", 2000),
        ("sp", "bet:3", 5000),
    ]
    assert result["pot_after_ore"] == 0
    assert [b["amount_ore"] for b in result["betar_after"]] == [5000, 5000]


def test_the_calculator_groups_the_others_paying_a_la_vola(client):
    url = reverse("scoring:calc-polskt_pass-deal")
    response = client.get(
        url, {"pot": "10", "players": "5", "bet_size": "double", "outcome": "la_vola_won"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    assert response.content.decode().lstrip().startswith('<section id="result"')
    payments = response.context["result"]["payments"]
    assert [(p["payer"], p["amount_ore"], p["count"]) for p in payments] == [
        ("pot", 1000, 1),
        ("others", 1000, 4),
    ]


def test_the_calculator_explains_bad_input(client):
    url = reverse("scoring:calc-polskt_pass-deal")
    for params in (
        {"pot": "", "outcome": "other"},
        {"pot": "abc", "outcome": "other"},
        {"pot": "10", "outcome": "no_winner", "players": "4"},
        {"pot": "0", "outcome": "other"},
        {"pot": "10", "outcome": "whatever"},
    ):
        response = client.get(url, params)
        assert response.status_code == 200
        assert response.context["error"], params
        assert "result" not in response.context


@pytest.mark.parametrize("language", ["sv", "en"])
def test_the_help_page_explains_the_options(client, language):
    client.cookies["django_language"] = language
    response = client.get(reverse("scoring:game-help", args=["polskt_pass"]))
    assert response.status_code == 200
    text = response.content.decode()
    assert "la vola" in text
    assert ("dubbelt" if language == "sv" else "twice") in text


def test_the_calculators_page_links_the_polskt_pass_calculator(client):
    page = client.get(reverse("scoring:calculators")).content.decode()
    assert reverse("scoring:calc-polskt_pass-deal") in page


def test_a_second_table_cannot_open_the_same_pot(club, scorer, member):
    from scoring.recording import EventRefused, start_game
    from tests.factories import make_member

    others = [make_member(club) for _ in range(2)]
    start_game(club, "polskt_pass", [scorer, member, *others], scorer.user, setup={"pot_ore": 0})
    with pytest.raises(EventRefused) as refused:
        start_game(club, "polskt_pass", [*others, member], scorer.user, setup={"pot_ore": 0})
    assert refused.value.code == "pot_in_use"
