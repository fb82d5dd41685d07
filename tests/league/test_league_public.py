"""The league table by priority, its legend, and members' money on the public page (issue 15).

The public page (the secret link) leaves out the columns that carry money, the Net column, unless
the club turns ``Club.public_league_money`` on; members who log in always see it.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

import league
from club.models import Club, Season
from league.intake import PlayerResult
from tests.conftest import client_for
from tests.factories import make_member

STOCKHOLM = ZoneInfo("Europe/Stockholm")
WON, LOST = "47,13\u00a0kr", "−15,71\u00a0kr"  # what the one game below moves, as the page shows it
PRIORITY = ["#", "Spelare", "P", "S", "Ranking"]  # place, name, points, played, rating


@pytest.fixture
def table(club, member, django_capture_on_commit_callbacks):
    """One finished kille game this season: the member won 47,13 kr, three others lost 15,71."""
    today = timezone.localdate()
    Season.objects.create(
        club=club, name="Säsong", start=date(today.year, 1, 1), end=date(today.year, 12, 31)
    )
    players = [member, *(make_member(club, f"Spelare {i}", login=False) for i in range(3))]
    results = [
        PlayerResult(
            seat=i,
            member=m,
            guest_name="",
            placement=i + 1,
            score=0,
            net_ore=4713 if i == 0 else -1571,
        )
        for i, m in enumerate(players)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        league.record_result(
            club, "game:kille1", "kille", datetime(today.year, 1, 2, 20, tzinfo=STOCKHOLM), results
        )
    return players


def shared_link(club: Club) -> str:
    club.league_share_token = "s" * 43
    club.save(update_fields=["league_share_token"])
    return reverse("league:shared", args=[club.league_share_token])


def headings(page: str) -> list[tuple[str, bool]]:
    """The table's column headings as (visible text, whether it waits for the toggle)."""
    head = page.split("<thead>")[1].split("</thead>")[0]
    cells = re.findall(r"<th scope=\"col\"([^>]*)>(.*?)</th>", head, re.S)
    shown = []
    for attributes, inner in cells:
        text = re.sub(r'<span class="sr-only">.*?</span>', "", inner)
        shown.append((re.sub(r"<[^>]+>", "", text).strip(), "more-col" in attributes))
    return shown


def test_the_public_page_leaves_out_members_money_by_default(club, table):
    page = Client().get(shared_link(club), {"game": "kille"}).content.decode()
    assert table[0].name in page
    assert WON not in page
    assert LOST not in page
    assert 'data-testid="net-heading"' not in page
    assert "Netto" not in page  # nor does the legend explain a column that is not there


def test_the_public_page_shows_money_when_the_club_turns_it_on(club, table):
    club.public_league_money = True
    club.save(update_fields=["public_league_money"])
    page = Client().get(shared_link(club), {"game": "kille"}).content.decode()
    assert WON in page
    assert LOST in page
    assert 'data-testid="net-heading"' in page


def test_members_who_log_in_always_see_the_money(member_client, club, table):
    assert not club.public_league_money
    page = member_client.get(reverse("league:standings", args=[club.slug]), {"game": "kille"})
    assert WON in page.content.decode()


def test_an_admin_turns_the_money_on_for_the_public_page_in_the_league_settings(admin_member, club):
    client = client_for(admin_member)
    url = reverse("league:settings", args=[club.slug])
    assert 'name="public_league_money"' in client.get(url).content.decode()
    settings = {"form": "settings", "placement_scheme": "n-1", "provisional_games": 5}
    client.post(url, {**settings, "public_league_money": "on"})
    club.refresh_from_db()
    assert club.public_league_money
    client.post(url, settings)
    club.refresh_from_db()
    assert not club.public_league_money


def test_the_five_priority_columns_come_first_and_the_rest_wait_for_a_tap(
    member_client, club, table
):
    page = member_client.get(reverse("league:standings", args=[club.slug]), {"game": "kille"})
    text = page.content.decode()
    columns = headings(text)
    assert [name for name, later in columns if not later] == PRIORITY
    assert columns[: len(PRIORITY)] == [(name, False) for name in PRIORITY]
    assert [name for name, later in columns if later] == [
        "V",
        "P/s",
        "Netto",
        "Vunna potter",
        "Form",
    ]
    # Every row has as many cells waiting for the toggle as the heading.
    row = text.split("<tbody>")[1].split("</tr>")[0]
    assert row.count("more-col") == 5
    assert 'data-testid="more-columns"' in text


def test_the_table_explains_itself_without_hover_titles(member_client, club, table):
    page = member_client.get(reverse("league:standings", args=[club.slug]), {"game": "kille"})
    text = page.content.decode()
    table_html = text.split('<div class="league-table">')[1].split("</table>")[0]
    assert "title=" not in table_html
    assert "<abbr" not in table_html
    legend = text.split('data-testid="league-legend"')[1].split("</dl>")[0]
    for abbreviation, meaning in [
        ("#", "placering"),
        ("P", "ligapoäng"),
        ("S", "spelade partier"),
        ("V", "vunna partier"),
        ("P/s", "poäng per spel"),
    ]:
        assert f"<dt>{abbreviation}</dt><dd>{meaning}</dd>" in legend
    # Everyone has one rated game, fewer than the club's five: the mark is shown and explained.
    assert '<span class="provisional" aria-hidden="true">?</span>' in table_html
    assert "<dt>?</dt><dd>preliminär: färre än 5 rankade partier</dd>" in legend


def test_the_legend_leaves_out_the_provisional_mark_when_no_rating_carries_it(
    member_client, club, table
):
    club.provisional_games = 0
    club.save(update_fields=["provisional_games"])
    text = member_client.get(
        reverse("league:standings", args=[club.slug]), {"game": "kille"}
    ).content.decode()
    assert 'class="provisional"' not in text
    assert "<dt>?</dt>" not in text
