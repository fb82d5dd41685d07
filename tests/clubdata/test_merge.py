"""``clubdata.merge``: a guest into the member he became, a duplicate into the member he is —
seats, results, attendances and money moved, the league recomputed, the books green."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

import evenings
import ledger
from club.models import Member, Role
from clubdata import merge
from evenings.models import Attendee, EveningOptions
from league.models import GameResult, Standing
from ledger.models import Account, Source, Transaction
from scoring import audit, recording
from scoring.models import Seat
from tests.conftest import client_for
from tests.evenings.test_evenings import tap
from tests.factories import make_member
from tests.scoring import conftest as scoring_fixtures

FEE = 1_000
STAKE = 200
EVENINGS = [date(2026, 10, 1) + timedelta(weeks=n) for n in range(3)]

toy = scoring_fixtures.toy  # the toy game, as a fixture here too


def evening_with_greta(club, bo, day):
    """An evening: Greta (a guest) and Bo at a toy table; Greta stakes, Bo takes the pot."""
    evening = evenings.open_evening(club, None, date=day)
    greta = evenings.check_in(evening, None, guest_name="Greta")
    here = evenings.check_in(evening, None, member=bo)
    (table,) = evenings.form_tables(evening, "toy", [[greta, here]], None)
    game = recording.start_game(club, "toy", ["Greta", bo], None, table=table)
    tap(game, "stake", player="s0", amount=STAKE)
    tap(game, "win", player="s1")
    evenings.close_evening(evening, None)
    return game


@pytest.fixture
def greta_came_three_times(club, toy, django_capture_on_commit_callbacks):
    EveningOptions.objects.create(club=club, fee_ore=FEE)
    bo = make_member(club, "Bo Ek")
    with django_capture_on_commit_callbacks(execute=True):
        games = [evening_with_greta(club, bo, day) for day in EVENINGS]
    return bo, games


def balance(club, key):
    return Account.objects.filter(club=club, key=key).values_list("balance_ore", flat=True).first()


def test_the_guest_list_counts_games_and_evenings(club, greta_came_three_times):
    assert merge.guests(club) == [merge.Guest("Greta", games=3, evenings=3)]


@pytest.mark.usefixtures("in_english")
def test_a_guest_who_came_three_times_is_merged_into_the_member_he_became(
    club, greta_came_three_times, django_capture_on_commit_callbacks
):
    bo, games = greta_came_three_times
    greta = make_member(club, "Greta Gran")
    found = merge.plan(club, greta, guest="Greta")
    assert (len(found.seats), len(found.results), len(found.attendees)) == (3, 3, 3)
    assert found.money_ore == -3 * (FEE + STAKE)
    assert not found.refusals

    with django_capture_on_commit_callbacks(execute=True):
        merge.merge(club, greta, guest="Greta", submission="k1", by=None)

    assert Seat.objects.filter(member=greta).count() == 3
    assert not Seat.objects.filter(guest_name="Greta").exists()
    assert GameResult.objects.filter(member=greta).count() == 3
    assert Attendee.objects.filter(member=greta).count() == 3
    # The seats' attendees stay: who sat there among that evening's attendees.
    assert all(s.attendee_id for s in Seat.objects.filter(member=greta))
    assert balance(club, ledger.member_account_key(greta.pk)) == -3 * (FEE + STAKE)
    for attendee in Attendee.objects.filter(member=greta):
        assert balance(club, ledger.guest_account_key(attendee.pk)) == 0
    (tx,) = Transaction.objects.filter(club=club, source=Source.MERGE)
    assert tx.memo == "Greta merged into Greta Gran"
    # The league: Greta's three games count for her now.
    line = Standing.objects.get(member=greta, game_key="toy")
    assert (line.played, line.won) == (3, 0)
    assert Standing.objects.get(member=bo, game_key="toy").won == 3
    assert merge.guests(club) == []
    assert ledger.verify_books(club) == []


def test_a_double_tap_merges_once(club, greta_came_three_times):
    greta = make_member(club, "Greta Gran")
    assert merge.merge(club, greta, guest="Greta", submission="same", by=None) is not None
    assert merge.merge(club, greta, guest="Greta", submission="same", by=None) is None
    assert Transaction.objects.filter(club=club, source=Source.MERGE).count() == 1
    assert balance(club, ledger.member_account_key(greta.pk)) == -3 * (FEE + STAKE)


def bertil_twice(club, toy):
    """Bertil played twice as "Bertil" before someone added him again as "Bertil Berg"."""
    old = make_member(club, "Bertil")
    anna = make_member(club, "Anna")
    games = []
    for winner in ("s1", "s0"):
        game = recording.start_game(club, "toy", [old, anna], None)
        tap(game, "stake", player="s0", amount=300)
        tap(game, "stake", player="s1", amount=500)
        tap(game, "win", player=winner)
        games.append(game)
    return old, anna, games


def test_a_duplicate_member_with_a_balance_is_merged(
    club,
    toy,
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks(execute=True):
        old, anna, games = bertil_twice(club, toy)
    assert balance(club, ledger.member_account_key(old.pk)) == -300 + 500
    new = make_member(club, "Bertil Berg", roles=[Role.SCORER])
    old_user = old.user_id
    new.user = None
    new.save(update_fields=["user"])
    with django_capture_on_commit_callbacks(execute=True):
        merge.merge(club, new, duplicate=old, submission="dup", by=None)

    old.refresh_from_db()
    new.refresh_from_db()
    assert not old.active
    assert old.left_at is not None
    assert old.user_id is None
    assert new.user_id == old_user  # his login passes to the member he is
    assert Account.objects.get(key=ledger.member_account_key(old.pk)).closed_at is not None
    assert balance(club, ledger.member_account_key(old.pk)) == 0
    assert balance(club, ledger.member_account_key(new.pk)) == 200
    assert Seat.objects.filter(member=new).count() == 2
    assert not Standing.objects.filter(member=old).exists()
    line = Standing.objects.get(member=new, game_key="toy")
    assert (line.played, line.won) == (2, 1)
    assert ledger.verify_books(club) == []


@pytest.mark.usefixtures("in_english")
def test_a_merge_is_refused_while_his_game_is_open_or_both_sat_in_one_game(club, toy):
    old = make_member(club, "Bertil")
    anna = make_member(club, "Anna")
    game = recording.start_game(club, "toy", [old, anna], None)
    tap(game, "stake", player="s0", amount=300)
    with pytest.raises(ValidationError, match="open games"):
        merge.merge(club, anna, duplicate=old, submission="x", by=None)
    tap(game, "win", player="s0")
    with pytest.raises(ValidationError, match="same game"):
        merge.merge(club, anna, duplicate=old, submission="y", by=None)
    assert Seat.objects.get(game=game, position=0).member == old
    assert old.active


@pytest.mark.usefixtures("in_english")
def test_two_attendances_at_one_evening_are_refused(club, greta_came_three_times):
    bo, _games = greta_came_three_times
    with pytest.raises(ValidationError, match="both came"):
        merge.merge(club, bo, guest="Greta", submission="z", by=None)
    assert Seat.objects.filter(guest_name="Greta").count() == 3


@pytest.mark.books_tampered
def test_a_seat_changed_behind_the_apps_back_is_still_caught(club, toy):
    old, anna, games = bertil_twice(club, toy)
    new = make_member(club, "Bertil Berg")
    other = make_member(club, "Cilla")
    merge.merge(club, new, duplicate=old, submission="m", by=None)
    assert audit.check_game_money(club) == []
    # A seat nobody merged, given to someone else in the database: its money is elsewhere.
    Seat.objects.filter(game=games[0], member=anna).update(member=other)
    problems = audit.check_game_money(club)
    assert any(f"member:{other.pk} should hold" in p for p in problems)
    Seat.objects.filter(game=games[0], member=other).update(member=anna)
    # A merged seat, given to someone else afterwards: the merge's record says whose it is.
    Seat.objects.filter(game=games[1], member=new).update(member=other)
    problems = audit.check_game_money(club)
    assert any("changed behind the app's back" in p for p in problems)


def test_the_merge_pages(club, admin_member, greta_came_three_times):
    greta = make_member(club, "Greta Gran")
    client = client_for(admin_member)
    url = reverse("clubdata:member-merge", args=[club.slug])
    page = client.get(url)
    assert page.status_code == 200
    assert "Greta" in page.content.decode()
    confirm = client.get(url, {"guest": "Greta", "into": greta.pk})
    assert confirm.status_code == 200
    submission = confirm.context["form"].initial["submission"]
    data = {"guest": "Greta", "into": greta.pk, "submission": submission, "confirm": "1"}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302  # the double tap
    assert Transaction.objects.filter(club=club, source=Source.MERGE).count() == 1
    assert Seat.objects.filter(member=greta).count() == 3


def test_only_admins_merge_and_another_clubs_people_are_unknown(
    club, member_client, admin_member, outsider, greta_came_three_times
):
    url = reverse("clubdata:member-merge", args=[club.slug])
    assert member_client.get(url).status_code == 403
    client = client_for(admin_member)
    assert client.get(url, {"guest": "Greta", "into": outsider.pk}).status_code == 404
    assert Member.objects.get(pk=outsider.pk).active
