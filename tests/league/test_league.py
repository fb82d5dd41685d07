from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

import league
from club import seasons
from club.models import PlacementScheme, Role, Season
from league.intake import PlayerResult
from league.models import HeadToHead, RatingPoint, Standing
from tests.concurrency import at_once, postgres_only
from tests.conftest import client_for
from tests.factories import make_club, make_member

# The books' end-of-test check: results are recorded by hand for games that are not there.
# Also on SQLite (tests/conftest.py): rating points: COPY on PostgreSQL, a bulk insert on SQLite.
pytestmark = [pytest.mark.sqlite, pytest.mark.books_by_hand]

STOCKHOLM = ZoneInfo("Europe/Stockholm")


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="Höst 2026", start=date(2026, 8, 1), end=date(2026, 12, 31)
    )


@pytest.fixture
def four(club):
    return [make_member(club, name, login=False) for name in ("Anna", "Bo", "Cilla", "Dan")]


def finished(day: int, hour: int = 20) -> datetime:
    return datetime(2026, 9, day, hour, tzinfo=STOCKHOLM)


def play(club, ref, key, when, placements, scores=None, teams=None, nets=None):
    """placements: member → placement (1 best)."""
    results = [
        PlayerResult(
            seat=i,
            member=m,
            guest_name="",
            placement=p,
            score=(scores or {}).get(m, 0),
            net_ore=(nets or {}).get(m, 0),
            team=(teams or {}).get(m),
        )
        for i, (m, p) in enumerate(placements.items())
    ]
    league.record_result(club, ref, key, when, results)


def table(season, key):
    return [
        (s.member.name, s.played, s.won, s.points)
        for s in Standing.objects.filter(season=season, game_key=key).select_related("member")
    ]


def test_n_minus_one_points_on_a_worked_example(
    club, season, four, django_capture_on_commit_callbacks
):
    a, b, c, d = four
    with django_capture_on_commit_callbacks(execute=True):
        # Kille, four players: Anna 1st (3 points), Bo and Cilla share 2nd (1 each: Dan is below
        # them), Dan last (0).
        play(club, "game:1", "kille", finished(5), {a: 1, b: 2, c: 2, d: 4})
        # Then Bo wins a three-player game: Bo 2, Cilla 1, Anna 0.
        play(club, "game:2", "kille", finished(6), {b: 1, c: 2, a: 3})
    # Anna and Bo are level on points, points per game and wins; the better rating (Bo won
    # the later game, against Anna) breaks the tie.
    assert table(season, "kille") == [
        ("Bo", 2, 1, 3),
        ("Anna", 2, 1, 3),
        ("Cilla", 2, 0, 2),
        ("Dan", 1, 0, 0),
    ]
    rows = list(Standing.objects.filter(season=season, game_key="kille"))
    assert rows[0].rating > rows[1].rating


def test_three_one_zero_gives_one_point_for_a_shared_win(
    club, season, four, django_capture_on_commit_callbacks
):
    club.placement_scheme = PlacementScheme.THREE_ONE_ZERO
    club.save()
    a, b, c, _d = four
    with django_capture_on_commit_callbacks(execute=True):
        play(club, "game:1", "cribbage", finished(5), {a: 1, b: 2})
        play(club, "game:2", "fantan", finished(5), {a: 1, b: 1, c: 3})
    assert table(season, "cribbage") == [("Anna", 1, 1, 3), ("Bo", 1, 0, 0)]
    assert table(season, "fantan") == [("Anna", 1, 1, 1), ("Bo", 1, 1, 1), ("Cilla", 1, 0, 0)]


def test_the_game_score_scheme_sums_the_scores(
    club, season, four, django_capture_on_commit_callbacks
):
    club.placement_scheme = PlacementScheme.GAME_SCORE
    club.save()
    a, b, *_ = four
    with django_capture_on_commit_callbacks(execute=True):
        play(club, "game:1", "cribbage", finished(5), {a: 1, b: 2}, scores={a: 121, b: 98})
        play(club, "game:2", "cribbage", finished(6), {b: 1, a: 2}, scores={a: 110, b: 121})
    assert table(season, "cribbage") == [("Anna", 2, 1, 231), ("Bo", 2, 1, 219)]


def test_results_fall_into_the_season_of_their_day(
    club, season, four, django_capture_on_commit_callbacks
):
    spring = Season.objects.create(
        club=club, name="Vår", start=date(2026, 1, 1), end=date(2026, 7, 31)
    )
    a, b, *_ = four
    with django_capture_on_commit_callbacks(execute=True):
        # 23:30 on 31 July in Stockholm is 21:30 UTC: still the spring season.
        play(
            club,
            "game:1",
            "cribbage",
            datetime(2026, 7, 31, 23, 30, tzinfo=STOCKHOLM),
            {a: 1, b: 2},
        )
        play(
            club, "game:2", "cribbage", datetime(2026, 8, 1, 0, 30, tzinfo=STOCKHOLM), {b: 1, a: 2}
        )
    assert table(spring, "cribbage") == [("Anna", 1, 1, 1), ("Bo", 1, 0, 0)]
    assert table(season, "cribbage") == [("Bo", 1, 1, 1), ("Anna", 1, 0, 0)]


def test_ratings_move_in_the_right_direction(
    club, season, four, django_capture_on_commit_callbacks
):
    a, b, c, _ = four
    with django_capture_on_commit_callbacks(execute=True):
        play(club, "game:1", "kille", finished(5), {a: 1, b: 2, c: 3})
    points = {p.member: p for p in RatingPoint.objects.filter(game_key="kille")}
    assert points[a].change > 0 > points[c].change
    assert points[a].ordinal > points[b].ordinal > points[c].ordinal
    with django_capture_on_commit_callbacks(execute=True):
        play(club, "game:2", "kille", finished(6), {c: 1, b: 2, a: 3})
    latest = {s.member: s for s in Standing.objects.filter(season=season, game_key="kille")}
    assert latest[c].rating_change > 0 > latest[a].rating_change
    assert latest[a].rated_games == 2


def test_partners_rise_and_fall_together(club, season, four, django_capture_on_commit_callbacks):
    a, b, c, d = four
    with django_capture_on_commit_callbacks(execute=True):
        play(
            club,
            "game:1",
            "whist",
            finished(5),
            {a: 1, b: 2, c: 1, d: 2},
            teams={a: 0, c: 0, b: 1, d: 1},
        )
    points = {p.member: p for p in RatingPoint.objects.filter(game_key="whist")}
    assert points[a].ordinal == pytest.approx(points[c].ordinal)
    assert points[b].ordinal == pytest.approx(points[d].ordinal)
    assert points[a].ordinal > points[b].ordinal
    # Partners are not each other's opponents.
    assert not HeadToHead.objects.filter(member=a, opponent=c).exists()
    assert HeadToHead.objects.get(member=a, opponent=b).wins == 1


def test_head_to_head_counts_wins_losses_and_draws(
    club, season, four, django_capture_on_commit_callbacks
):
    a, b, c, _ = four
    with django_capture_on_commit_callbacks(execute=True):
        play(club, "game:1", "kille", finished(5), {a: 1, b: 2, c: 2})
        play(club, "game:2", "kille", finished(6), {b: 1, a: 2})
    ab = HeadToHead.objects.get(member=a, opponent=b, game_key="kille")
    bc = HeadToHead.objects.get(member=b, opponent=c, game_key="kille")
    assert (ab.wins, ab.losses, ab.draws) == (1, 1, 0)
    assert (bc.wins, bc.losses, bc.draws) == (0, 0, 1)


def snapshot_tables(season):
    standings = list(
        Standing.objects.filter(season=season)
        .order_by("game_key", "rank")
        .values(
            "game_key",
            "member",
            "rank",
            "played",
            "won",
            "points",
            "net_ore",
            "form",
            "rating",
            "rating_change",
            "rated_games",
            "extra",
        )
    )
    h2h = sorted(
        HeadToHead.objects.filter(season=season).values_list(
            "game_key", "member", "opponent", "wins", "losses", "draws"
        )
    )
    ratings = list(
        RatingPoint.objects.order_by("game_key", "finished_at", "member").values_list(
            "game_key", "member", "game_ref", "ordinal", "change"
        )
    )
    return standings, h2h, ratings


def test_undoing_the_last_game_restores_the_previous_table_exactly(
    club, season, four, django_capture_on_commit_callbacks
):
    a, b, c, d = four
    with django_capture_on_commit_callbacks(execute=True):
        play(
            club,
            "game:1",
            "kille",
            finished(5),
            {a: 1, b: 2, c: 3, d: 4},
            nets={a: 600, b: -200, c: -200, d: -200},
        )
        play(club, "game:2", "kille", finished(6), {d: 1, c: 2, b: 3})
    before = snapshot_tables(season)
    with django_capture_on_commit_callbacks(execute=True):
        play(club, "game:3", "kille", finished(7), {c: 1, a: 2})
    assert snapshot_tables(season) != before
    with django_capture_on_commit_callbacks(execute=True):
        league.remove_results("game:3")
    assert snapshot_tables(season) == before


def test_a_recompute_from_scratch_agrees_with_the_incremental_tables(
    club, season, four, django_capture_on_commit_callbacks
):
    a, b, c, d = four
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(12):
            order = [a, b, c, d][n % 4 :] + [a, b, c, d][: n % 4]
            play(
                club,
                f"game:{n}",
                "kille" if n % 3 else "cribbage",
                finished(1 + n),
                {m: i + 1 for i, m in enumerate(order[: 2 + n % 3])},
                nets={order[0]: 100, order[1]: -100},
            )
    incremental = snapshot_tables(season)
    Standing.objects.all().delete()
    HeadToHead.objects.all().delete()
    RatingPoint.objects.all().delete()
    league.recompute_club(club)
    assert snapshot_tables(season) == incremental
    league.recompute_club(club)  # idempotent
    assert snapshot_tables(season) == incremental


def test_a_club_without_seasons_gets_this_year(club):
    season = seasons.current_season(club)
    assert season.start.month == 1
    assert season.end == season.start.replace(month=12, day=31)
    assert seasons.current_season(club) == season
    assert season.end - season.start == timedelta(days=364) or season.end.year % 4 == 0


# --- seasons: never overlapping, even when the forms race ----------------------------------


def test_add_season_refuses_an_overlap_and_a_backwards_one(club, season):
    with pytest.raises(ValidationError) as refusal:
        seasons.add_season(club, "Jul", date(2026, 12, 31), date(2027, 1, 6))
    assert refusal.value.code == "overlap"
    with pytest.raises(ValidationError) as refusal:
        seasons.add_season(club, "Bakvänd", date(2027, 2, 1), date(2027, 1, 1))
    assert refusal.value.code == "dates"
    spring = seasons.add_season(club, "Vår 2027", date(2027, 1, 1), date(2027, 6, 30))
    assert list(Season.objects.filter(club=club)) == [spring, season]
    # Another club's seasons are its own business.
    other = seasons.add_season(make_club(), "Vår 2027", date(2027, 1, 1), date(2027, 6, 30))
    assert other.club_id != club.pk


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_identical_season_forms_at_once_add_one_season():
    postgres_only()
    club = make_club()
    admin = make_member(club, "Arne Admin", roles=[Role.ADMIN])
    url = reverse("league:settings", args=[club.slug])
    form = {"form": "season", "name": "Vår 2027", "start": "2027-01-01", "end": "2027-06-30"}
    clients = [client_for(admin) for _ in range(20)]
    statuses = at_once(lambda client: client.post(url, form).status_code, clients)
    assert sorted(statuses) == [302] + [422] * 19
    assert Season.objects.filter(club=club).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_first_visits_at_once_make_one_season_of_this_year():
    postgres_only()
    club = make_club()
    made = at_once(lambda _visit: seasons.current_season(club).pk, range(10))
    assert len(set(made)) == 1
    assert Season.objects.filter(club=club).count() == 1
