"""The season's honours (members) and the club's hand prizes (treasurer or admin)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import ledger
from club.models import Season
from honours import services
from honours.models import HandPrize, HonourPaid
from ledger.models import Transaction
from tests.conftest import client_for
from tests.honours.helpers import (
    PRIZE,
    cut_five,
    fund,
    pot_balance,
    prize,
    show_29,
    start_cribbage,
)


@pytest.fixture
def a_29(club, scorer, member):
    prize(club)
    fund(club, 50_000)
    game = start_cribbage(club, [scorer, member])
    cut_five(game)
    _result, player = show_29(game)
    return game.seats_by_key[player].member


def test_the_seasons_honours_list_who_held_which_hand_and_what_was_paid(
    club, a_29, member_client, in_english
):
    response = member_client.get(reverse("honours:season", args=[club.slug]))
    text = response.content.decode()
    assert response.status_code == 200
    assert a_29.name in text
    assert "a 29 hand" in text
    assert "SEK 100.00" in text


def test_the_honours_page_is_swedish_by_default(club, a_29, member_client):
    text = member_client.get(reverse("honours:season", args=[club.slug])).content.decode()
    assert "29-hand" in text or "29 på handen" in text
    assert "100,00\u00a0kr" in text


def test_an_earlier_season_shows_its_own_honours(club, a_29, member_client):
    today = timezone.localdate()
    earlier = Season.objects.create(
        club=club, name="Förr", start=today - timedelta(days=400), end=today - timedelta(days=300)
    )
    url = reverse("honours:season", args=[club.slug])
    text = member_client.get(url, {"season": earlier.pk}).content.decode()
    assert a_29.name not in text.split("<main")[-1].split("Förr")[-1]
    assert member_client.get(url, {"season": 999_999}).status_code == 404


def test_another_clubs_member_sees_nothing(club, a_29, outsider):
    url = reverse("honours:season", args=[club.slug])
    assert client_for(outsider).get(url).status_code == 404


def test_the_start_page_shows_the_latest_honours(club, a_29, member_client, in_english):
    text = member_client.get(reverse("club:club-home", args=[club.slug])).content.decode()
    assert 'data-testid="honours-panel"' in text
    assert reverse("honours:season", args=[club.slug]) in text


def test_only_a_treasurer_or_an_admin_sets_the_prizes(
    club, member_client, treasurer_client, admin_client_
):
    url = reverse("honours:prizes", args=[club.slug])
    assert member_client.get(url).status_code == 403
    assert treasurer_client.get(url).status_code == 200
    assert admin_client_.get(url).status_code == 200


def test_the_prizes_page_says_why_kille_has_no_three_of_a_kind(club, treasurer_client, in_english):
    text = treasurer_client.get(reverse("honours:prizes", args=[club.slug])).content.decode()
    assert "three of a kind" in text.lower()
    assert "two cards of each rank" in text


def test_a_treasurer_sets_a_prize_and_its_pot_opens(club, treasurer_client):
    url = reverse("honours:prize", args=[club.slug, "cribbage:28:crib"])
    data = {"active": "on", "amount": "50", "pot_name": "Kribbpotten"}
    response = treasurer_client.post(url, data)
    assert response.status_code == 302
    saved = HandPrize.objects.get(club=club)
    assert (saved.kind, saved.amount_ore, saved.pot_key) == (
        "cribbage:28:crib",
        5000,
        "hands-kribbpotten",
    )
    assert pot_balance(club, "Kribbpotten") == 0
    assert treasurer_client.get(url).status_code == 200  # the form again, filled in


def test_a_prize_without_an_amount_or_the_whole_pot_is_refused(club, treasurer_client):
    url = reverse("honours:prize", args=[club.slug, "cribbage:29:hand"])
    response = treasurer_client.post(url, {"active": "on", "pot_name": "P"})
    assert response.status_code == 422
    assert not HandPrize.objects.exists()


def test_an_unknown_hand_is_404(club, treasurer_client):
    url = reverse("honours:prize", args=[club.slug, "kille:three"])
    assert treasurer_client.get(url).status_code == 404


def test_money_into_the_pot_from_the_treasury_once_per_form(club, treasurer_client):
    prize(club)
    url = reverse("honours:fund", args=[club.slug])
    page = treasurer_client.get(url)
    submission = page.context["form"].initial["submission"]
    data = {
        "pot": services.pot_key("Handpotten"),
        "source": "treasury",
        "amount": "250",
        "submission": submission,
    }
    assert treasurer_client.post(url, data).status_code == 302
    assert treasurer_client.post(url, data).status_code == 302  # a double tap
    assert pot_balance(club) == 25_000
    assert Transaction.objects.filter(key=f"hands-fund:{submission}").count() == 1


def test_money_into_a_pot_that_is_not_a_hand_pot_is_refused(club, treasurer_client):
    prize(club)
    url = reverse("honours:fund", args=[club.slug])
    data = {"pot": "pot:kille", "source": "treasury", "amount": "10", "submission": "k"}
    assert treasurer_client.post(url, data).status_code == 422
    assert pot_balance(club) == 0


def test_the_prize_is_paid_as_set_on_the_page(club, scorer, member):
    prize(club, amount=PRIZE)
    fund(club, PRIZE)
    game = start_cribbage(club, [scorer, member])
    cut_five(game)
    show_29(game)
    assert HonourPaid.objects.get().amount_ore == PRIZE


def test_switching_a_prize_off_keeps_its_amount(club, treasurer_client):
    prize(club, amount=PRIZE)
    url = reverse("honours:prize", args=[club.slug, "cribbage:29:hand"])
    assert treasurer_client.post(url, {"pot_name": "Handpotten"}).status_code == 302
    saved = HandPrize.objects.get()
    assert (saved.active, saved.amount_ore) == (False, PRIZE)
    # A hand with no prize switched off stays without one.
    other = reverse("honours:prize", args=[club.slug, "cribbage:24:crib"])
    assert treasurer_client.post(other, {"pot_name": "Handpotten"}).status_code == 302
    assert HandPrize.objects.count() == 1


def test_the_service_refuses_money_into_a_pot_that_is_not_a_hand_pot(club):
    kille_pot = ledger.game_pot(club, "kille")
    with pytest.raises(ledger.LedgerError):
        services.fund_pot(club, kille_pot, "treasury", 100, None, key="x")


def test_the_seasons_page_reads_the_same_number_of_queries_for_more_honours(
    club, scorer, member, member_client
):
    url = reverse("honours:season", args=[club.slug])
    member_client.get(url)  # the season is made on the first visit
    with CaptureQueriesContext(connection) as none:
        member_client.get(url)
    prize(club)
    fund(club, 50_000)
    for n in range(2):
        game = start_cribbage(club, [scorer, member])
        cut_five(game)
        show_29(game, key=f"show-{n}")
    with CaptureQueriesContext(connection) as two:
        text = member_client.get(url).content.decode()
    assert text.count("29") >= 2
    assert len(two) == len(none)
