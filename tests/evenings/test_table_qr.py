"""A QR code per table (evenings.table_links, scoring.views_guest.table_follow): the evening page
and the board show each table's stable link; a member lands on the table's pad, anyone else
follows its game read-only."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

import evenings
from evenings import table_links
from evenings.models import Table
from scoring import recording
from tests.factories import make_member
from tests.scoring.conftest import toy  # noqa: F401 - the toy game's fixture
from tests.scoring.pad import HTMX


@pytest.fixture
def evening(club):
    return evenings.open_evening(club, None)


@pytest.fixture
def tables(toy, club, evening, scorer, member):  # noqa: F811 - the fixture imported above
    """Table 1: the scorer and the member; table 2: Olle and Petra."""
    first = [evenings.check_in(evening, None, member=m) for m in (scorer, member)]
    people = [make_member(club, name) for name in ("Olle Annansson", "Petra Annansson")]
    second = [evenings.check_in(evening, None, member=m) for m in people]
    return evenings.form_tables(evening, "toy", [first, second], None)


def start(table: Table, by):
    players = [seat.attendee.member for seat in table.seats.order_by("position")]
    return recording.start_game(table.evening.club, "toy", players, by.user, table=table)


def finish(game) -> None:
    for type_, payload in (("stake", {"player": "s1", "amount": 100}), ("win", {"player": "s0"})):
        game.refresh_from_db()
        recording.append_event(
            game, type_, payload, expected_seq=game.seq, idempotency_key=type_, by=None
        )


def table_urls(html: str) -> list[str]:
    return re.findall(r'data-table-url="([^"]+)"', html)


def path_of(url: str) -> str:
    return url.removeprefix("http://testserver")


def test_the_evening_page_and_the_board_show_each_tables_qr_and_link(
    club, evening, tables, member_client
):
    for name in ("detail", "board"):
        page = member_client.get(reverse(f"evenings:{name}", args=[club.slug, evening.pk]))
        html = page.content.decode()
        urls = table_urls(html)
        assert len(urls) == 2
        # What the QR code encodes is the link beside it: the table's signed address.
        for table, url in zip(tables, urls, strict=True):
            assert url == f"http://testserver/t/{table_links.token_for(table)}/"
            assert table_links.table_for(url.split("/")[-2]) == table
        assert html.count('<div class="qr"><svg') == 2


def test_a_member_who_opens_the_link_lands_on_the_tables_pad(
    club, evening, tables, member_client, scorer
):
    link = reverse("scoring:table-follow", args=[table_links.token_for(tables[0])])
    before = member_client.get(link)
    assert before["Location"] == reverse("evenings:detail", args=[club.slug, evening.pk])
    game = start(tables[0], scorer)
    to_pad = reverse("scoring:game-detail", args=[club.slug, game.pk])
    assert member_client.get(link)["Location"] == to_pad
    finish(game)
    assert member_client.get(link)["Location"] == to_pad  # the latest, when none is open
    newer = start(tables[0], scorer)
    assert member_client.get(link)["Location"].endswith(f"/games/{newer.pk}/")


def test_a_member_not_logged_in_logs_in_from_the_follow_page_and_lands_on_the_pad(
    club, tables, scorer, member
):
    game = start(tables[0], scorer)
    link = reverse("scoring:table-follow", args=[table_links.token_for(tables[0])])
    phone = Client()
    html = phone.get(link).content.decode()
    login = re.search(r'href="([^"]+)" data-testid="follow-login"', html)[1]
    assert login == reverse("login") + "?next=" + link.replace("/", "%2F")
    phone.force_login(member.user)
    assert phone.get(link)["Location"] == reverse("scoring:game-detail", args=[club.slug, game.pk])


def test_anyone_else_follows_the_game_read_only_with_nothing_of_the_club(
    club, tables, scorer, outsider
):
    game = start(tables[0], scorer)
    start(tables[1], scorer)
    recording.append_event(
        game, "stake", {"player": "s1", "amount": 200}, expected_seq=0, idempotency_key="s", by=None
    )
    token = table_links.token_for(tables[0])
    anonymous, other_club = Client(), Client()
    other_club.force_login(outsider.user)
    for phone in (anonymous, other_club):
        page = phone.get(reverse("scoring:table-follow", args=[token]))
        assert page.status_code == 200
        html = page.content.decode()
        assert 'data-seq="1"' in html  # the history
        assert "<form" not in html.replace(
            f'<form action="{reverse("set_language")}"', ""
        )  # nothing posts but the language switch
        assert "<button" not in html.split('id="pad"')[1]
        assert 'class="tabbar"' not in html
        assert f"/c/{club.slug}/" not in html
        assert "Olle" not in html  # the other table's players
        assert "Petra" not in html
        poll = reverse("scoring:table-follow-poll", args=[token, game.pk])
        assert f'hx-get="{poll}?seq=1' in html


def test_the_followers_poll_answers_204_brings_news_and_reloads_for_a_new_game(
    club, tables, scorer
):
    game = start(tables[0], scorer)
    token = table_links.token_for(tables[0])
    phone = Client()
    poll = reverse("scoring:table-follow-poll", args=[token, game.pk])
    assert phone.get(poll + "?seq=0", **HTMX).status_code == 204
    recording.append_event(
        game, "score", {"player": "s0", "points": 4}, expected_seq=0, idempotency_key="p", by=None
    )
    news = phone.get(poll + "?seq=0", **HTMX)
    assert news.status_code == 200
    assert "<form" not in news.content.decode()
    finish(game)
    start(tables[0], scorer)
    assert phone.get(poll + "?seq=3", **HTMX)["HX-Refresh"] == "true"
    waiting = reverse("scoring:table-follow-poll", args=[table_links.token_for(tables[1]), 0])
    assert phone.get(waiting, **HTMX).status_code == 204  # table 2: no game yet


def test_a_table_without_a_game_says_so_to_a_follower(club, tables):
    page = Client().get(reverse("scoring:table-follow", args=[table_links.token_for(tables[1])]))
    assert page.status_code == 200
    assert 'data-testid="follow-wait"' in page.content.decode()


@pytest.mark.parametrize(
    "token",
    ["1", "1-abc", "1:abc", "9" * 30 + "-x", "x" * 200, "ä-ö", "%00", "-1-AAAA", "01-0", "١-٢"],
)
def test_a_forged_or_spoilt_table_link_is_a_plain_404(client, tables, token):
    assert client.get(reverse("scoring:table-follow", args=[token])).status_code == 404
    poll = reverse("scoring:table-follow-poll", args=[token, 1])
    assert client.get(poll).status_code == 404


def test_another_tables_signature_does_not_open_this_table(tables):
    first, second = (table_links.token_for(t) for t in tables)
    swapped = first.split("-")[0] + "-" + second.split("-")[1]
    assert table_links.table_for(swapped) is None
