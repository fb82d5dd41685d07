from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import league
from club.models import Club, Season
from league.intake import PlayerResult
from league.models import Standing
from tests.conftest import client_for
from tests.factories import make_member

STOCKHOLM = ZoneInfo("Europe/Stockholm")


@pytest.fixture
def season(club):
    today = timezone.localdate()
    return Season.objects.create(
        club=club, name="Säsong", start=date(today.year, 1, 1), end=date(today.year, 12, 31)
    )


def seed(club, players, games, key="kille", captured=None):
    today = timezone.localdate()
    for n in range(games):
        order = players[n % len(players) :] + players[: n % len(players)]
        results = [
            PlayerResult(
                seat=i,
                member=m,
                guest_name="",
                placement=i + 1,
                score=0,
                net_ore=(300 if i == 0 else -100),
            )
            for i, m in enumerate(order[:4])
        ]
        league.record_result(
            club,
            f"game:{key}{n}",
            key,
            datetime(today.year, 1, 1 + n % 27, 20, tzinfo=STOCKHOLM),
            results,
        )


def test_the_standings_page_shows_the_table(
    member_client, club, member, season, django_capture_on_commit_callbacks
):
    others = [make_member(club, f"Spelare {i}", login=False) for i in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        seed(club, [member, *others], 4)
    response = member_client.get(reverse("league:standings", args=[club.slug]), {"game": "kille"})
    text = response.content.decode()
    assert response.status_code == 200
    assert member.name in text
    assert "Spelare 2" in text
    fragment = member_client.get(
        reverse("league:standings", args=[club.slug]), {"game": "kille"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert fragment.lstrip().startswith('<div id="table">')


def test_the_standings_query_count_does_not_grow_with_the_rows(
    member_client, club, member, season, django_capture_on_commit_callbacks
):
    url = reverse("league:standings", args=[club.slug])

    def queries_for_page() -> int:
        with CaptureQueriesContext(connection) as captured:
            member_client.get(url, {"game": "kille"})
        return len(captured)

    with django_capture_on_commit_callbacks(execute=True):
        seed(club, [member, *[make_member(club, f"P{i}", login=False) for i in range(3)]], 4)
    queries_for_page()  # the first visit also remembers the club in the session
    few = queries_for_page()
    with django_capture_on_commit_callbacks(execute=True):
        seed(club, [member, *[make_member(club, f"Q{i}", login=False) for i in range(24)]], 30)
    assert queries_for_page() == few
    assert few <= 12


def test_the_player_page_and_head_to_head(
    member_client, club, member, season, django_capture_on_commit_callbacks
):
    others = [make_member(club, f"Motståndare {i}", login=False) for i in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        seed(club, [member, *others], 8)
    page = member_client.get(
        reverse("league:player", args=[club.slug, member.pk]), {"game": "kille"}
    )
    assert page.status_code == 200
    assert b"<svg" in page.content
    h2h = member_client.get(reverse("league:h2h", args=[club.slug]), {"game": "kille"})
    assert "Motståndare 1" in h2h.content.decode()


def test_the_head_to_head_matrix_shows_each_pair_from_the_row_s_side(
    member_client, club, member, season, django_capture_on_commit_callbacks
):
    bo = make_member(club, "Bo <b>Ek</b>", login=False)
    cilla = make_member(club, "Cilla", login=False)
    today = timezone.localdate()
    with django_capture_on_commit_callbacks(execute=True):
        for n, order in enumerate([[member, bo], [member, bo], [bo, member], [cilla, bo]]):
            results = [
                PlayerResult(seat=i, member=m, guest_name="", placement=i + 1, score=0)
                for i, m in enumerate(order)
            ]
            when = datetime(today.year, today.month, today.day, 10 + n, tzinfo=STOCKHOLM)
            league.record_result(club, f"h2h:{n}", "cribbage", when, results)
    page = member_client.get(reverse("league:h2h", args=[club.slug]), {"game": "cribbage"})
    html = page.content.decode()
    rows = {
        name: html.split(f'<th scope="row">{name}</th>', 1)[1].split("</tr>", 1)[0]
        for name in (member.name, "Bo &lt;b&gt;Ek&lt;/b&gt;", "Cilla")
    }
    # The columns follow the table's order.
    columns = list(
        Standing.objects.filter(game_key="cribbage").values_list("member__name", flat=True)
    )
    cells = {name: row.split("</td>")[:-1] for name, row in rows.items()}
    maja, bo_ek = member.name, "Bo &lt;b&gt;Ek&lt;/b&gt;"
    assert cells[maja][columns.index(bo.name)] == '<td class="num good">2–1'
    assert cells[bo_ek][columns.index(member.name)] == '<td class="num neg">1–2'
    assert cells[bo_ek][columns.index("Cilla")] == '<td class="num neg">0–1'
    assert cells[maja][columns.index("Cilla")] == '<td class="muted">–'
    assert cells["Cilla"][columns.index("Cilla")] == '<td class="self">·'
    assert "<b>Ek</b>" not in html  # names are escaped as ever


def test_a_shared_link_shows_the_table_without_login_until_revoked(
    admin_member, club, member, season, django_capture_on_commit_callbacks
):
    others = [make_member(club, f"X{i}", login=False) for i in range(2)]
    with django_capture_on_commit_callbacks(execute=True):
        seed(club, [member, *others], 3)
    admin = client_for(admin_member)
    admin.post(reverse("league:share", args=[club.slug]), {"action": "share"})
    token = Club.objects.get(pk=club.pk).league_share_token
    assert len(token) >= 40
    anonymous = Client()
    page = anonymous.get(reverse("league:shared", args=[token]), {"game": "kille"})
    assert page.status_code == 200
    assert member.name in page.content.decode()
    admin.post(reverse("league:share", args=[club.slug]), {"action": "revoke"})
    assert anonymous.get(reverse("league:shared", args=[token])).status_code == 404
    assert anonymous.get(reverse("league:shared", args=["x" * 43])).status_code == 404


def test_only_admins_share(member_client, club):
    assert (
        member_client.post(
            reverse("league:share", args=[club.slug]), {"action": "share"}
        ).status_code
        == 403
    )


def test_an_admin_sets_league_points_and_adds_a_season(admin_member, club):
    client = client_for(admin_member)
    url = reverse("league:settings", args=[club.slug])
    response = client.post(
        url, {"form": "settings", "placement_scheme": "3-1-0", "provisional_games": 3}
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.placement_scheme == "3-1-0"
    client.post(url, {"form": "season", "name": "Vår", "start": "2027-01-01", "end": "2027-06-30"})
    overlapping = client.post(
        url, {"form": "season", "name": "X", "start": "2027-06-01", "end": "2027-08-01"}
    )
    assert overlapping.context["season_form"].has_error("__all__", code="overlap")
    assert list(Season.objects.filter(club=club).values_list("name", flat=True)) == ["Vår"]


@pytest.mark.books_by_hand
def test_a_pot_statement_links_to_the_game_that_moved_it(member_client, club, member):
    import ledger

    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    ledger.post(
        club,
        ledger.legs_for_transfer(ledger.member_account(member), pot, 200),
        "Kille #7: insats",
        "game",
        None,
        ref="game:7:event:1",
    )
    page = member_client.get(reverse("ledger:account", args=[club.slug, pot.pk])).content.decode()
    assert "/games/7/" in page


@pytest.mark.parametrize("token", ["\x00", "a\x00" * 25, "x" * 300, "٣" * 43, ""])
def test_a_shared_link_the_app_never_made_is_not_found(client, club, token):
    club.league_share_token = "a" * 43
    club.save(update_fields=["league_share_token"])
    response = client.get(f"/league/{token}/")
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (
            {"form": "settings", "placement_scheme": "n-1", "provisional_games": "١٢"},
            "provisional_games",
        ),
        (
            {"form": "settings", "placement_scheme": "n-1", "provisional_games": "9" * 5000},
            "provisional_games",
        ),
        ({"form": "season", "name": "Vår", "start": "0001-01-01", "end": "2026-06-30"}, "start"),
        ({"form": "season", "name": "Vår", "start": "2026-01-01", "end": "9999-12-31"}, "end"),
        ({"form": "season", "name": "Vår\x00", "start": "2026-01-01", "end": "2026-06-30"}, "name"),
    ],
)
def test_league_settings_read_numbers_dates_and_names_safely(admin_member, club, data, field):
    response = client_for(admin_member).post(reverse("league:settings", args=[club.slug]), data)
    assert response.status_code == 422
    form = response.context["settings_form" if data["form"] == "settings" else "season_form"]
    assert form.has_error(field)
    assert not Season.objects.filter(club=club, name__startswith="Vår").exists()
