"""``league.ratings.rate_plackett_luce`` is openskill's Plackett-Luce, without its objects.

The league rates tens of thousands of games on a recompute; openskill's ``rate`` deep-copies
its rating objects and draws a uuid for every player of every game. The league's own function
must give the same numbers: checked against openskill on random games (teams of one to three,
ties, old and new players).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from league.ratings import MU, SIGMA, rate_plackett_luce

MODEL = PlackettLuce()

ratings = st.tuples(
    st.floats(min_value=-20, max_value=70, allow_nan=False),
    st.floats(min_value=0.05, max_value=12, allow_nan=False),
)
# A rating far from the default now and then, the default itself often (a new player).
player = st.one_of(st.just((MU, SIGMA)), ratings)


@st.composite
def games(draw):
    teams = draw(st.integers(2, 7))
    size = draw(st.sampled_from([1, 1, 1, 2, 3]))  # one-a-side mostly; partners sometimes
    lineup = [
        draw(st.lists(player, min_size=size, max_size=size if size > 1 else 1))
        for _ in range(teams)
    ]
    ranks = draw(st.lists(st.integers(1, teams), min_size=teams, max_size=teams))
    return lineup, ranks


def openskill_rate(teams, ranks):
    rated = MODEL.rate([[MODEL.rating(mu=m, sigma=s) for m, s in team] for team in teams], ranks)
    return [[(p.mu, p.sigma) for p in team] for team in rated]


def assert_close(ours, theirs):
    assert len(ours) == len(theirs)
    for our_team, their_team in zip(ours, theirs, strict=True):
        for (mu, sigma), (their_mu, their_sigma) in zip(our_team, their_team, strict=True):
            assert mu == pytest.approx(their_mu, rel=0, abs=1e-9)
            assert sigma == pytest.approx(their_sigma, rel=0, abs=1e-9)


@settings(max_examples=400, deadline=None)
@given(game=games())
def test_rating_a_game_agrees_with_openskill(game):
    teams, ranks = game
    assert_close(rate_plackett_luce(teams, ranks), openskill_rate(teams, ranks))


def test_a_worked_example_with_a_shared_place_and_partners():
    teams = [[(MU, SIGMA), (30.0, 5.0)], [(20.0, 7.0)], [(25.0, 1.0), (MU, SIGMA)], [(40.0, 2.0)]]
    ranks = [2, 1, 2, 4]
    ours = rate_plackett_luce(teams, ranks)
    assert_close(ours, openskill_rate(teams, ranks))
    # The winner gains, the last loses, partners move together.
    assert ours[1][0][0] > 20.0
    assert ours[3][0][0] < 40.0
    assert (ours[0][0][0] - MU > 0) == (ours[0][1][0] - 30.0 > 0)


def test_a_game_of_one_team_is_refused_as_openskill_refuses_it():
    with pytest.raises(ValueError, match="at least 2 teams"):
        rate_plackett_luce([[(MU, SIGMA)]], [1])
    with pytest.raises(ValueError, match="at least 2 teams"):
        openskill_rate([[(MU, SIGMA)]], [1])


def test_the_rating_maths_needs_no_django():
    """``league.ratings`` (and the rows it reads) can be imported, tested and benchmarked
    without Django or a database."""
    code = (
        "import sys; import league.ratings; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'django', 'celery', 'club'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env={k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "[]"
