from itertools import pairwise

import pytest
from django.db.models import Sum
from django.utils import timezone

import ledger
from club.demo import DEMO_USERNAME, load_demo
from club.models import Member, User
from engine import registry
from league.models import GameResult, Standing
from ledger.models import Account, Entry, Transaction
from scoring.demo import record_evenings
from scoring.models import Event, Game, GameStatus
from tests.demo import demo_club

# Also on SQLite (tests/conftest.py): the demo club that `make run` loads.
pytestmark = pytest.mark.sqlite


def load():
    club = load_demo()
    record_evenings(club, User.objects.get(username=DEMO_USERNAME))
    return club


def test_the_demo_club_loads_once_with_three_evenings_of_every_game(
    db, django_capture_on_commit_callbacks
):
    # The recording of this process (tests/demo.py: the real path, once per process).
    club = demo_club()
    games = Game.objects.filter(club=club)
    assert Member.objects.filter(club=club).count() == 12
    assert Member.objects.get(club=club, user__username=DEMO_USERNAME).is_admin
    assert set(games.values_list("status", flat=True)) == {GameStatus.FINISHED}
    assert {info.key for info in registry.all_games()} <= set(
        games.values_list("game_key", flat=True)
    )
    # Three weekly evenings in the past; every result reached the league.
    days = sorted({timezone.localdate(game.started_at) for game in games})
    assert len(days) == 3
    assert [(b - a).days for a, b in pairwise(days)] == [7, 7]
    assert days[-1] < timezone.localdate()
    assert set(GameResult.objects.filter(club=club).values_list("game_ref", flat=True)) == {
        game.ref for game in games
    }
    assert Standing.objects.filter(season__club=club).exists()

    # Kille: one evening a week, each starting with the pot the last one left.
    kille = list(games.filter(game_key="kille").order_by("started_at"))
    assert len(kille) == 3
    assert kille[0].setup["pot_ore"] == 0
    assert kille[1].setup["pot_ore"] == kille[0].snapshot["pot_ore"] > 0
    assert kille[2].setup["pot_ore"] == kille[1].snapshot["pot_ore"]
    pot = Account.objects.get(club=club, key="pot:kille")
    assert kille[-1].snapshot["pot_ore"] == pot.balance_ore

    # Polskt pass: the second evening starts with the first one's pot and betar.
    first, second = games.filter(game_key="polskt_pass").order_by("started_at")
    assert second.setup["pot_ore"] == first.snapshot["pot_ore"]
    carried = [(b["id"], b["amount_ore"]) for b in second.setup["betar"]]
    assert carried == [(b["id"], b["amount_ore"]) for b in first.snapshot["betar"]]

    # The money adds up: every transaction balances and the books verify.
    assert Entry.objects.filter(transaction__club=club).aggregate(total=Sum("amount_ore")) == {
        "total": 0
    }
    assert ledger.verify_balances(club) == []
    assert ledger.verify_audit(club) == []

    counts = (games.count(), Event.objects.count(), Transaction.objects.count())
    with django_capture_on_commit_callbacks(execute=True):
        load()
    assert (games.count(), Event.objects.count(), Transaction.objects.count()) == counts
