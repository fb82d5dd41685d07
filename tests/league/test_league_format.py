"""The league format at the Django level: a season counted from ``GameResult`` rows under the
club's ``LeagueFormat``, the settings form, the league and player pages, and a club that sets
nothing keeping its league exactly as it was.

The hand-worked season (Kille, a season of February 2026; points table "4: 10 6 3 1" and
"3: 8 4 1", best 2 evenings count, 1 point per evening played, at least 2 evenings to be
ranked). An evening is a club day; its points are the sum of its games'. Gun is a guest: she
sits in the field (a table of four is a table of four) but has no line. Two players is a field
the table has no line for: it earns nothing.

  evening  game  field  places (points)
  3 Feb    g1    4      Anna 1 (10), Bo 2 (6), Cilla 3 (3), Dan 4 (1)
           g2    3      Bo 1 (8), Gun 2 (–), Cilla 3 (1)
  10 Feb   g3    4      Cilla 1 (10), Dan 2 (6), Anna 3 (3), Gun 4 (–)
  17 Feb   g4    4      Bo 1 (10), Anna 2 (6), Dan 3 (3), Cilla 4 (1)
           g5    2      Anna 1 (0), Dan 2 (0)          no line for two players
  24 Feb   g6    3      Eva 1 (8), Anna 2 (4), Cilla 3 (1)

  per evening     3 Feb  10 Feb  17 Feb  24 Feb
  Anna            10     3       6       4       best 2: 10 + 6 = 16, dropped 3, 4; +4 → 20
  Bo              14     –       10      –       both count: 24; +2 → 26
  Cilla           4      10      1       1       best 2: 4 + 10 = 14, dropped 1, 1; +4 → 18
  Dan             1      6       3       –       best 2: 6 + 3 = 9, dropped 1; +3 → 12
  Eva             –      –       –       8       one evening, fewer than 2: unranked; 8 + 1 = 9

  table: 1 Bo 26, 2 Anna 20, 3 Cilla 18, 4 Dan 12; then Eva, not ranked (needs 2, has 1).

The same games counted by game with the club's 3-1-0 points, best 3 games, nothing else:
  Anna  g1 3, g3 0, g4 0, g5 3, g6 0  best 3: 3 (g1), 0 (g3, the earlier 0), 3 (g5) → 6
  Bo    g1 0, g2 3, g4 3              → 6; Anna first: equal best single result (3), more games
  Cilla g1 0, g2 0, g3 3, g4 0, g6 0  best 3: 0 (g1), 0 (g2), 3 (g3) → 3
  Eva   g6 3                          → 3; Cilla first: more games
  Dan   g1 0, g3 0, g4 0, g5 0        → 0
"""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import league
from club.models import Season
from league import incremental
from league.intake import PlayerResult
from league.models import LeagueFormat, Standing
from tests.conftest import client_for
from tests.factories import make_member

STOCKHOLM = ZoneInfo("Europe/Stockholm")
TABLE = "4: 10 6 3 1\n3: 8 4 1"
# (day of February, hour, players in finishing order; None: the guest)
GAMES = [
    (3, 19, ["Anna", "Bo", "Cilla", "Dan"]),
    (3, 21, ["Bo", None, "Cilla"]),
    (10, 20, ["Cilla", "Dan", "Anna", None]),
    (17, 19, ["Bo", "Anna", "Dan", "Cilla"]),
    (17, 23, ["Anna", "Dan"]),
    (24, 20, ["Eva", "Anna", "Cilla"]),
]


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="Vinter", start=date(2026, 1, 1), end=date(2026, 3, 31)
    )


@pytest.fixture
def people(club):
    return {
        name: make_member(club, name, login=False) for name in ("Anna", "Bo", "Cilla", "Dan", "Eva")
    }


def record(club, people, capture, games=GAMES, start=0):
    """The games, one by one, as the recording layer sends them: each game's league update
    runs when its transaction commits (``capture``: django_capture_on_commit_callbacks), so
    the second game on is the league's incremental path."""
    for number, (day, hour, order) in enumerate(games, start=start + 1):
        with capture(execute=True):
            league.record_result(
                club,
                f"format:{number}",
                "kille",
                datetime(2026, 2, day, hour, tzinfo=STOCKHOLM),
                [
                    PlayerResult(
                        seat=seat,
                        member=people[name] if name else None,
                        guest_name="" if name else "Gun",
                        placement=seat + 1,
                        score=0,
                    )
                    for seat, name in enumerate(order)
                ],
            )


def table(season):
    return [
        (row.member.name, row.points, row.extra["league_format"]["rank"])
        for row in Standing.objects.filter(season=season, game_key="kille").select_related("member")
    ]


def results(season, name):
    line = Standing.objects.get(season=season, game_key="kille", member__name=name)
    shape = line.extra["league_format"]
    return shape["counted"], shape["dropped"]


def evening_format(club):
    return LeagueFormat.objects.create(
        club=club, best=2, unit="evening", participation=1, points_table=TABLE, minimum=2
    )


def test_best_two_evenings_match_the_hand_worked_season(
    club, people, season, django_capture_on_commit_callbacks
):
    evening_format(club)
    record(club, people, django_capture_on_commit_callbacks)
    assert table(season) == [
        ("Bo", 26, 1),
        ("Anna", 20, 2),
        ("Cilla", 18, 3),
        ("Dan", 12, 4),
        ("Eva", 9, 0),
    ]
    assert results(season, "Anna") == (
        [["2026-02-03", 10], ["2026-02-17", 6]],
        [["2026-02-10", 3], ["2026-02-24", 4]],
    )
    assert results(season, "Bo") == ([["2026-02-03", 14], ["2026-02-17", 10]], [])
    assert results(season, "Cilla") == (
        [["2026-02-03", 4], ["2026-02-10", 10]],
        [["2026-02-17", 1], ["2026-02-24", 1]],
    )
    assert results(season, "Dan") == (
        [["2026-02-10", 6], ["2026-02-17", 3]],
        [["2026-02-03", 1]],
    )
    eva = Standing.objects.get(season=season, member=people["Eva"])
    assert eva.rank == 5  # listed last, below the ranked
    assert eva.extra["league_format"]["appearances"] == 1
    # Played and won still count games: the format changes the points and the order only.
    anna = Standing.objects.get(season=season, member=people["Anna"])
    assert (anna.played, anna.won) == (5, 2)
    # A recompute (the settings saved) builds the same table from scratch.
    incremental.recompute_club(club)
    assert table(season)[0] == ("Bo", 26, 1)
    assert results(season, "Anna")[1] == [["2026-02-10", 3], ["2026-02-24", 4]]


def test_counted_by_game_with_the_club_s_points_matches_the_hand_worked_season(
    member_client, club, people, season, django_capture_on_commit_callbacks
):
    club.placement_scheme = "3-1-0"
    club.save(update_fields=["placement_scheme"])
    LeagueFormat.objects.create(club=club, best=3, unit="game")
    record(club, people, django_capture_on_commit_callbacks)
    assert table(season) == [
        ("Anna", 6, 1),
        ("Bo", 6, 2),
        ("Cilla", 3, 3),
        ("Eva", 3, 4),
        ("Dan", 0, 5),
    ]
    counted, dropped = results(season, "Anna")
    assert [points for _day, points in counted] == [3, 0, 3]  # g1, g3, g5
    assert [points for _day, points in dropped] == [0, 0]  # g4, g6
    text = member_client.get(
        reverse("league:standings", args=[club.slug]),
        {"season": season.pk, "game": "kille"},
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert "Best 3 of 6 games.</p>" in text


def _snapshot(season):
    return [
        (
            row.member.name,
            row.rank,
            row.played,
            row.won,
            row.points,
            row.net_ore,
            row.form,
            row.rating,
            row.rated_games,
            row.extra,
        )
        for row in Standing.objects.filter(season=season).select_related("member")
    ]


def test_a_format_left_at_its_defaults_changes_no_standing(
    club, other_club, people, season, django_capture_on_commit_callbacks
):
    """Two clubs, the same games: one never opened the format, the other saved it untouched
    (by games, which matters only with other options). Their tables are the same, appended
    game by game and rebuilt from scratch."""
    twin_season = Season.objects.create(
        club=other_club, name="Vinter", start=date(2026, 1, 1), end=date(2026, 3, 31)
    )
    twins = {name: make_member(other_club, name, login=False) for name in people}
    LeagueFormat.objects.create(club=other_club, unit="game")
    record(club, people, django_capture_on_commit_callbacks)
    record(other_club, twins, django_capture_on_commit_callbacks, start=len(GAMES))
    before = _snapshot(season)
    assert before[0][1] == 1
    assert "league_format" not in before[0][-1]
    assert _snapshot(twin_season) == before
    incremental.recompute_club(other_club)
    assert _snapshot(twin_season) == before


# --- The settings page -----------------------------------------------------------------------


def _post(admin_member, club, language="sv", **fields):
    data = {
        "form": "format",
        "best": "",
        "unit": "evening",
        "participation": "0",
        "points_table": "",
        "minimum": "0",
    }
    data.update(fields)
    return client_for(admin_member).post(
        reverse("league:settings", args=[club.slug]), data, HTTP_ACCEPT_LANGUAGE=language
    )


def test_an_admin_saves_a_format_and_the_tables_are_rebuilt(
    admin_member, club, people, season, django_capture_on_commit_callbacks
):
    record(club, people, django_capture_on_commit_callbacks)
    assert "league_format" not in Standing.objects.filter(season=season).first().extra
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(
            admin_member,
            club,
            best="2",
            participation="1",
            points_table="4: 10, 6, 3, 1\n\n3: 8 4 1\n",
            minimum="2",
        )
    assert response.status_code == 302
    page = client_for(admin_member).get(reverse("league:settings", args=[club.slug]))
    # One line per number of players, so the table is typed in a text area, and shown back.
    assert '<textarea name="points_table"' in page.content.decode()
    saved = LeagueFormat.objects.get(club=club)
    assert (saved.best, saved.participation, saved.minimum) == (2, 1, 2)
    assert saved.table() == {4: (10, 6, 3, 1), 3: (8, 4, 1)}
    assert table(season)[:2] == [("Bo", 26, 1), ("Anna", 20, 2)]
    # The page shows it back; saving it again changes the row, never adds one.
    page = client_for(admin_member).get(reverse("league:settings", args=[club.slug]))
    assert "4: 10, 6, 3, 1" in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        _post(admin_member, club)  # back to the defaults: the league as it was
    assert LeagueFormat.objects.filter(club=club).count() == 1
    assert "league_format" not in Standing.objects.filter(season=season).first().extra


BAD_TABLES = [
    ("4: 10 6\n4 10 6", 'line 2 ("4 10 6"): write the number of players, a colon',
     'rad 2 ("4 10 6"): skriv antalet spelare, ett kolon'),
    ("x: 1", 'line 1 ("x: 1"): "x" is not a whole number',
     'rad 1 ("x: 1"): "x" är inte ett heltal'),
    ("4: ١٠ 6", 'line 1 ("4: ١٠ 6"): "١٠" is not a whole number',
     'rad 1 ("4: ١٠ 6"): "١٠" är inte ett heltal'),
    ("0: 1", 'line 1 ("0: 1"): a game has 1 to 100 players, not 0',
     'rad 1 ("0: 1"): ett parti har 1 till 100 spelare, inte 0'),
    ("4: 3 1\n\n4: 2", 'line 3 ("4: 2"): 4 players already have line 1',
     'rad 3 ("4: 2"): 4 spelare har redan rad 1'),
    ("4:", 'line 1 ("4:"): no points after the colon',
     'rad 1 ("4:"): inga poäng efter kolonet'),
    ("3: 5 4 3 2", 'line 1 ("3: 5 4 3 2"): 4 places for 3 players',
     'rad 1 ("3: 5 4 3 2"): 4 placeringar för 3 spelare'),
    ("4: 20000 1", 'line 1 ("4: 20000 1"): at most 10000 points for a place',
     'rad 1 ("4: 20000 1"): högst 10000 poäng för en placering'),
    ("4: 1 6", 'line 1 ("4: 1 6"): a lower place cannot earn more points',
     'rad 1 ("4: 1 6"): en lägre placering kan inte ge fler poäng'),
]  # fmt: skip


@pytest.mark.parametrize(("text", "english", "swedish"), BAD_TABLES)
def test_a_bad_points_table_is_refused_naming_its_line_in_both_languages(
    admin_member, club, text, english, swedish
):
    for language, expected in (("sv", swedish), ("en", english)):
        response = _post(admin_member, club, language, points_table=text)
        assert response.status_code == 422
        errors = response.context["format_form"].errors.as_data()["points_table"]
        assert [e.code for e in errors] == ["points_table"]
        assert expected in errors[0].message, (language, errors[0].message)
    assert not LeagueFormat.objects.filter(club=club).exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [("best", "0"), ("best", "٣"), ("best", "9" * 5000), ("participation", "-1"),
     ("participation", "1001"), ("minimum", "1e3"), ("unit", "month")],
)  # fmt: skip
def test_bad_numbers_and_units_are_refused(admin_member, club, field, value):
    response = _post(admin_member, club, **{field: value})
    assert response.status_code == 422
    assert response.context["format_form"].has_error(field)
    assert not LeagueFormat.objects.filter(club=club).exists()


def test_a_count_of_none_is_refused_in_both_languages(admin_member, club):
    for language, expected in (
        ("sv", "Skriv ett heltal från 1 till 32767."),
        ("en", "Enter a whole number from 1 to 32767."),
    ):
        response = _post(admin_member, club, language, best="0")
        assert response.context["format_form"].errors["best"] == [expected]


def test_only_admins_set_the_format(member, club):
    response = client_for(member).post(
        reverse("league:settings", args=[club.slug]), {"form": "format", "best": "2"}
    )
    assert response.status_code == 403
    assert not LeagueFormat.objects.exists()


# --- The pages -------------------------------------------------------------------------------


def test_the_league_page_says_the_format_and_shows_counted_and_dropped(
    member_client, club, people, season, django_capture_on_commit_callbacks
):
    evening_format(club)
    record(club, people, django_capture_on_commit_callbacks)
    url = reverse("league:standings", args=[club.slug])
    text = member_client.get(
        url, {"season": season.pk, "game": "kille"}, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert (
        "Best 2 of 4 evenings; points from the table for the number of players; "
        "1 point per evening played; at least 2 evenings to be ranked." in text
    )
    assert "counted 10, 6 · dropped 3, 4" in text  # Anna
    assert "counted 14, 10</div>" in text  # Bo: nothing dropped
    assert "counted 8 · needs 2, has 1" in text  # Eva
    assert "<td>–</td>" in text  # Eva has no place
    swedish = member_client.get(url, {"season": season.pk, "game": "kille"}).content.decode()
    assert "Bästa 2 av 4 kvällar" in swedish
    assert "räknas 10, 6 · stryks 3, 4" in swedish
    assert "behöver 2, har 1" in swedish
    # The player page lists them by day.
    page = member_client.get(
        reverse("league:player", args=[club.slug, people["Anna"].pk]), {"game": "kille"}
    ).content.decode()
    assert 'data-testid="format-results"' in page
    assert "3 feb" in page
    assert "24 feb" in page


def test_a_default_club_s_page_says_nothing_about_a_format(
    member_client, club, people, season, django_capture_on_commit_callbacks
):
    record(club, people, django_capture_on_commit_callbacks)
    text = member_client.get(
        reverse("league:standings", args=[club.slug]), {"season": season.pk, "game": "kille"}
    ).content.decode()
    assert 'data-testid="league-format"' not in text
    assert 'data-testid="format-note"' not in text


def test_the_league_page_s_queries_do_not_grow_with_a_format(
    member_client, club, people, season, django_capture_on_commit_callbacks
):
    evening_format(club)
    url = reverse("league:standings", args=[club.slug])

    def queries_for_page() -> int:
        with CaptureQueriesContext(connection) as captured:
            member_client.get(url, {"season": season.pk, "game": "kille"})
        return len(captured)

    record(club, people, django_capture_on_commit_callbacks)
    queries_for_page()  # the first visit also remembers the club in the session
    few = queries_for_page()
    more = {f"P{i}": make_member(club, f"P{i}", login=False) for i in range(20)}
    names = list(more)
    games = [(d, 20, names[(d % 5) * 4 : (d % 5) * 4 + 4]) for d in range(1, 28)]
    record(club, more, django_capture_on_commit_callbacks, games, start=len(GAMES))
    assert Standing.objects.filter(season=season).count() == 25
    assert queries_for_page() == few
