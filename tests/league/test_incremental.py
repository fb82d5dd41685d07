"""A finished game updates only the rows it touches, and gives exactly what a rebuild gives.

``league.incremental.update_game`` appends a game newer than everything rated (its players'
ratings, lines and head-to-head pairs, then the ranks) and rebuilds from the change for
anything else: a late entry, an undone or voided game, a corrected result. A random history
of such steps, applied one by one, must leave the same ``Standing``, ``HeadToHead`` and
``RatingPoint`` rows as ``recompute_club`` from scratch after every step.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import league
from club.models import PlacementScheme, Season
from league import incremental
from league.intake import PlayerResult
from league.models import HeadToHead, LeagueProgress, RatingPoint, Standing
from tests.concurrency import at_once, postgres_only
from tests.factories import make_club, make_member

STOCKHOLM = ZoneInfo("Europe/Stockholm")
START = datetime(2026, 1, 10, 19, tzinfo=STOCKHOLM)
PEOPLE = 6


def snapshot(club):
    standings = list(
        Standing.objects.filter(season__club=club)
        .order_by("season", "game_key", "rank")
        .values_list(
            "season_id",
            "game_key",
            "rank",
            "member_id",
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
        HeadToHead.objects.filter(season__club=club).values_list(
            "season_id", "game_key", "member_id", "opponent_id", "wins", "losses", "draws"
        )
    )
    # In id order: a member's latest point is the one with the highest id.
    points = list(
        RatingPoint.objects.filter(club=club)
        .order_by("game_key", "id")
        .values_list(
            "game_key", "member_id", "game_ref", "finished_at", "mu", "sigma", "change", "games"
        )
    )
    return standings, h2h, points


def rebuilt(club):
    """What a recompute from scratch gives, without keeping it."""
    with transaction.atomic():
        league.recompute_club(club)
        result = snapshot(club)
        transaction.set_rollback(True)
    return result


@st.composite
def games(draw):
    """(game key, [(person index or None for a guest, placement, team, net, details)])."""
    key = draw(st.sampled_from(["kille", "kille", "cribbage", "whist"]))
    if key == "whist":
        people = draw(st.permutations(range(PEOPLE)))[:4]
        first = draw(st.sampled_from([[1, 2], [2, 1], [1, 1]]))  # team 0's and team 1's place
        seats = [(p, first[i % 2], i % 2) for i, p in enumerate(people)]
        details = [{"rubbers_won": 1} if place == 1 else {} for _p, place, _t in seats]
    else:
        size = 2 if key == "cribbage" else draw(st.integers(2, 5))
        people = list(draw(st.permutations(range(PEOPLE)))[:size])
        if key == "kille" and draw(st.booleans()):
            people[-1] = None  # a guest
        seats = [(p, draw(st.integers(1, size)), None) for p in people]
        if key == "cribbage":
            skunk = draw(st.sampled_from([0, 0, 1, 2]))
            details = [{"skunk": skunk, "hand_points": 7.5} for _ in seats]
        else:
            details = [{"pots_won": draw(st.integers(0, 2))} for _ in seats]
    nets = draw(st.lists(st.integers(-500, 500), min_size=len(seats), max_size=len(seats)))
    return key, [
        (person, place, team, net, detail)
        for (person, place, team), net, detail in zip(seats, nets, details, strict=True)
    ]


steps = st.lists(
    st.one_of(
        # Minutes after the last game; now and then recorded while no update runs (a broker
        # down, a worker behind), to be appended with the next ones.
        st.tuples(
            st.just("newest"), games(), st.integers(1, 20_000), st.sampled_from([0, 0, 0, 1])
        ),
        st.tuples(st.just("newest"), games(), st.integers(1, 20_000), st.just(0)),
        st.tuples(st.just("late"), games(), st.floats(0, 1)),  # somewhere in the history
        st.tuples(st.just("remove"), st.integers(0, 10**6)),
        st.tuples(st.just("correct"), st.integers(0, 10**6), games()),
    ),
    min_size=1,
    max_size=14,
)


def results_of(people, seats):
    return [
        PlayerResult(
            seat=seat,
            member=people[person] if person is not None else None,
            guest_name="" if person is not None else "Gäst",
            placement=place,
            score=place * 10,
            net_ore=net,
            team=team,
            details=detail,
        )
        for seat, (person, place, team, net, detail) in enumerate(seats)
    ]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    history=steps,
    scheme=st.sampled_from(PlacementScheme.values),
    skunks=st.booleans(),
)
def test_any_history_of_games_updates_to_what_a_rebuild_gives(
    db, django_capture_on_commit_callbacks, monkeypatch, history, scheme, skunks
):
    club = make_club()
    club.placement_scheme = scheme
    club.skunks_in_league = skunks
    club.save()
    # Two seasons with a summer between them: games may fall outside every season.
    Season.objects.create(club=club, name="Vår", start=date(2026, 1, 1), end=date(2026, 6, 30))
    Season.objects.create(club=club, name="Höst", start=date(2026, 8, 1), end=date(2026, 12, 31))
    people = [make_member(club, f"Spelare {n}", login=False) for n in range(PEOPLE)]
    rebuilds = []
    rebuild = incremental._rebuild
    monkeypatch.setattr(
        incremental, "_rebuild", lambda *a, **kw: rebuilds.append(a[1]) or rebuild(*a, **kw)
    )
    played: dict[str, datetime] = {}  # game ref → when it finished
    prefix = f"game:{club.pk}:"  # refs are unique across clubs
    last = START
    for number, step in enumerate(history):
        kind = step[0]
        if kind in ("remove", "correct") and not played:
            continue
        rebuilds.clear()
        appends = False
        quiet = kind == "newest" and step[3]
        with django_capture_on_commit_callbacks(execute=not quiet):
            if kind == "newest":
                _kind, (key, seats), minutes, _quiet = step
                last += timedelta(minutes=minutes)
                progress = LeagueProgress.objects.filter(club=club, game_key=key).first()
                appends = progress is not None and progress.through is not None
                league.record_result(
                    club, f"{prefix}{number}", key, last, results_of(people, seats)
                )
                played[f"{prefix}{number}"] = last
            elif kind == "late":
                _kind, (key, seats), share = step
                when = START + (last - START) * share
                league.record_result(
                    club, f"{prefix}{number}", key, when, results_of(people, seats)
                )
                played[f"{prefix}{number}"] = when
            elif kind == "remove":
                ref = sorted(played)[step[1] % len(played)]
                league.remove_results(ref)
                del played[ref]
            else:
                _kind, index, (key, seats) = step
                ref = sorted(played)[index % len(played)]
                league.record_result(club, ref, key, played[ref], results_of(people, seats))
        if appends:
            assert rebuilds == [], f"a newest game was rebuilt, not appended: {step}"
        if quiet:
            continue
        for other in ("kille", "cribbage", "whist"):  # games recorded quietly before
            league.update_game(club, other)
        assert snapshot(club) == rebuilt(club), f"after step {number}: {step}"
    for key in ("kille", "cribbage", "whist"):
        league.update_game(club, key)
    assert snapshot(club) == rebuilt(club)
    # Running an update again changes nothing (and finds nothing to do where there are games).
    before = snapshot(club)
    for key in ("kille", "cribbage", "whist"):
        seasons = league.update_game(club, key)
        assert seasons == 0 or not RatingPoint.objects.filter(club=club, game_key=key).exists()
    assert snapshot(club) == before


# --- the paths, one by one ---------------------------------------------------------------


@pytest.fixture
def autumn(club):
    return Season.objects.create(
        club=club, name="Höst", start=date(2026, 8, 1), end=date(2026, 12, 31)
    )


@pytest.fixture
def four(club):
    return [make_member(club, name, login=False) for name in ("Anna", "Bo", "Cilla", "Dan")]


def at(day: int) -> datetime:
    return datetime(2026, 9, day, 20, tzinfo=STOCKHOLM)


def play(club, ref, when, order, key="kille"):
    results = [
        PlayerResult(seat=i, member=m, guest_name="", placement=i + 1, score=0, net_ore=10 - i)
        for i, m in enumerate(order)
    ]
    league.record_result(club, ref, key, when, results)


@pytest.fixture
def finish(club, django_capture_on_commit_callbacks):
    """Record a finished game and run its update after commit, as the tasks do (eager)."""

    def finish(ref, when, order, key="kille"):
        with django_capture_on_commit_callbacks(execute=True):
            play(club, ref, when, order, key)

    return finish


@pytest.fixture
def undo(django_capture_on_commit_callbacks):
    def undo(ref):
        with django_capture_on_commit_callbacks(execute=True):
            league.remove_results(ref)

    return undo


@pytest.fixture
def paths(monkeypatch):
    """Which way each update went: "append" or "rebuild"."""
    taken = []
    append, rebuild = incremental._append, incremental._rebuild
    monkeypatch.setattr(
        incremental, "_append", lambda *a, **kw: taken.append("append") or append(*a, **kw)
    )
    monkeypatch.setattr(
        incremental, "_rebuild", lambda *a, **kw: taken.append("rebuild") or rebuild(*a, **kw)
    )
    return taken


def test_a_newest_game_is_appended_and_the_rest_rebuild(club, autumn, four, paths, finish, undo):
    a, b, c, d = four
    finish("g1", at(5), [a, b, c])  # the first game of a kind: nothing to append to
    finish("g2", at(6), [b, c, d])
    finish("g3", at(7), [d, a])
    assert paths == ["rebuild", "append", "append"]
    assert snapshot(club) == rebuilt(club)

    paths.clear()
    finish("late", at(4), [c, d, a, b])  # before every other game
    assert paths == ["rebuild"]
    assert snapshot(club) == rebuilt(club)

    finish("g4", at(8), [a, b, c, d])
    with_g4 = snapshot(club)
    paths.clear()
    undo("g4")  # the newest game undone
    assert paths == ["rebuild"]
    assert snapshot(club) == rebuilt(club)
    assert snapshot(club) != with_g4

    paths.clear()
    finish("g2", at(6), [d, c, b])  # a correction of a game in the middle
    assert paths == ["rebuild"]
    assert snapshot(club) == rebuilt(club)
    progress = LeagueProgress.objects.get(club=club, game_key="kille")
    assert (progress.through, progress.stale_from) == (at(7), None)


def test_removing_the_newest_game_restores_the_table_before_it(club, autumn, four, finish, undo):
    a, b, c, d = four
    finish("g1", at(5), [a, b, c, d])
    finish("g2", at(6), [d, c, b])
    before = snapshot(club)
    finish("g3", at(7), [c, a])
    assert snapshot(club) != before
    undo("g3")
    assert snapshot(club) == before


def test_a_full_re_rate_or_season_rebuild_before_an_update_counts_nothing_twice(
    club, autumn, four, finish
):
    a, b, c, d = four
    finish("g1", at(5), [a, b, c, d])
    # Recorded while no update ran (a broker down, say), then a recompute by hand.
    play(club, "g2", at(6), [d, c, b])
    play(club, "g3", at(7), [b, a])
    league.recompute_ratings(club, "kille")
    league.update_game(club, "kille")
    assert snapshot(club) == rebuilt(club)
    play(club, "g4", at(8), [c, d])
    league.recompute_season(autumn)
    league.update_game(club, "kille")
    assert snapshot(club) == rebuilt(club)


def test_a_tie_in_everything_keeps_the_order_the_players_first_played_in(
    club, autumn, paths, finish
):
    a, b, c, d, e, f = (make_member(club, name, login=False) for name in "ABCDEF")
    finish("g1", at(5), [a, c])
    finish("g2", at(6), [b, d])  # A and B level in everything, rating too
    finish("g3", at(7), [b, e])  # B ahead
    finish("g4", at(8), [a, f])  # level again: A played first, A first
    assert paths == ["rebuild", "append", "append", "append"]
    table = list(
        Standing.objects.filter(season=autumn, game_key="kille").values_list(
            "member__name", "points", "played", "won", "rating"
        )
    )
    assert [name for name, *_ in table[:2]] == ["A", "B"]
    assert table[0][1:] == table[1][1:]
    assert snapshot(club) == rebuilt(club)


def test_games_waiting_in_two_seasons_are_appended_each_to_its_own(
    club, autumn, four, paths, finish
):
    spring = Season.objects.create(
        club=club, name="Vår", start=date(2026, 1, 1), end=date(2026, 6, 30)
    )
    a, b, c, d = four
    finish("g1", datetime(2026, 6, 1, 20, tzinfo=STOCKHOLM), [a, b, c])
    # Three games while no update ran: two in spring, one in autumn.
    play(club, "g2", datetime(2026, 6, 2, 20, tzinfo=STOCKHOLM), [b, a, d])
    play(club, "g3", datetime(2026, 6, 30, 23, tzinfo=STOCKHOLM), [c, a])
    play(club, "g4", at(1), [d, a, b, c])
    paths.clear()
    assert league.update_game(club, "kille") == 2
    assert paths == ["append"]
    assert snapshot(club) == rebuilt(club)
    # Anna's spring row shows her rating after her last spring game, not after autumn's.
    spring_anna = Standing.objects.get(season=spring, game_key="kille", member=a)
    assert spring_anna.rated_games == 3
    assert spring_anna.rating == RatingPoint.objects.get(member=a, game_ref="g3").ordinal


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_games_finished_at_once_each_land_once():
    """Twelve games finished at the same moment, in and out of order, each with its update
    after commit (eager): the progress row's lock lets none slip past an update."""
    postgres_only()
    club = make_club()
    autumn = Season.objects.create(
        club=club, name="Höst", start=date(2026, 8, 1), end=date(2026, 12, 31)
    )
    people = [make_member(club, f"Spelare {n}", login=False) for n in range(6)]
    order = [5, 0, 11, 3, 8, 1, 10, 2, 7, 4, 9, 6]  # when each thread's game finished

    def finish_one(n):
        players = [people[(n + i) % 6] for i in range(3 + n % 3)]
        play(club, f"race:{club.pk}:{n}", at(1) + timedelta(hours=order[n]), players)

    at_once(finish_one, range(12))
    assert Standing.objects.filter(season=autumn, game_key="kille").count() == 6
    assert sum(
        Standing.objects.filter(season=autumn, game_key="kille").values_list("played", flat=True)
    ) == sum(3 + n % 3 for n in range(12))
    assert snapshot(club) == rebuilt(club)
