from club.demo import DEMO_USERNAME, load_demo
from club.models import Member, Standing, Transaction, User
from scoring.demo import record_evenings
from scoring.models import Game, GameStatus


def load():
    club = load_demo()
    record_evenings(club, User.objects.get(username=DEMO_USERNAME))
    return club


def test_the_demo_club_loads_once_with_recorded_evenings(db, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        club = load()
    games = Game.objects.filter(club=club)
    assert Member.objects.filter(club=club).count() == 12
    assert Member.objects.get(club=club, user__username=DEMO_USERNAME).is_admin
    assert games.count() >= 3
    assert set(games.values_list("status", flat=True)) == {GameStatus.FINISHED}
    assert Standing.objects.filter(season__club=club).exists()
    counts = (games.count(), Transaction.objects.count())
    with django_capture_on_commit_callbacks(execute=True):
        load()
    assert (Game.objects.filter(club=club).count(), Transaction.objects.count()) == counts
