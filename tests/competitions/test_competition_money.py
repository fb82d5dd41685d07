"""A competition's money (C1): the entry fee into the pool once per entrant, the prizes out
of it once, ties sharing, every öre paid; the books' check of the pools; hostile input to
the services refused with a code and nothing written; races on PostgreSQL."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

import ledger
from competitions import money, running, tables
from competitions.models import Competition, Entrant, Kind, Round, Status
from ledger.models import AccountKind, Source, Transaction
from tests.competitions.playing import play_cribbage
from tests.concurrency import at_once, postgres_only
from tests.factories import make_member

FEE = 3333


def cup(club, by, **extra):
    options = {
        "name": "Vårcupen",
        "kind": Kind.SWISS,
        "game_key": "cribbage",
        "rounds": 1,
        "entry_fee_ore": FEE,
        "prize_percents": [50, 30, 20],
    } | extra
    return running.announce(club, by, **options)


def cash(club):
    return ledger.balance(ledger.system_account(club, AccountKind.CASH))


def test_the_fee_is_posted_once_from_the_members_account_or_the_cash_box(club, scorer):
    competition = cup(club, scorer.user)
    anna = make_member(club, "Anna")
    first = running.enter(competition, scorer.user, member=anna)
    again = running.enter(competition, scorer.user, member=anna)  # a double tap
    assert again == first
    assert ledger.balance(ledger.member_account(anna)) == -FEE
    running.enter(competition, scorer.user, guest_name="Gustav")
    assert cash(club) == -FEE  # the cash box took the guest's fee (shown negated)
    assert tables.pool_ore(competition) == 2 * FEE
    keys = set(Transaction.objects.filter(club=club).values_list("key", flat=True))
    assert keys == {f"{competition.ref}:entrant:{e.pk}" for e in competition.entrants.all()}


def test_a_withdrawn_entrants_fee_stays_in_the_pool(club, scorer):
    competition = cup(club, scorer.user)
    anna = running.enter(competition, scorer.user, member=make_member(club, "Anna"))
    running.withdraw(anna, scorer.user)
    anna.refresh_from_db()
    assert anna.dropped_after == 0
    assert tables.pool_ore(competition) == FEE
    assert not Transaction.objects.filter(reverses__isnull=False).exists()


def four_played(club, scorer):
    """A, C win 121–100; B, D lose: A and C tie for first, B and D for third."""
    competition = cup(club, scorer.user)
    for name in "ABC":
        running.enter(competition, scorer.user, member=make_member(club, name))
    running.enter(competition, scorer.user, guest_name="D")
    first = running.start(competition, scorer.user)
    for table in first.tables.order_by("number"):
        play_cribbage(table, 121, 100)
    return competition


def test_the_prizes_are_paid_once_ties_sharing_and_every_ore_paid(club, scorer):
    competition = four_played(club, scorer)
    pool = tables.pool_ore(competition)
    assert pool == 4 * FEE == 13332
    before_cash = cash(club)
    running.finish(competition, scorer.user)
    running.finish(competition, scorer.user)  # a second finish pays nothing more
    competition.refresh_from_db()
    assert competition.status == Status.FINISHED
    assert Transaction.objects.filter(key=f"{competition.ref}:prizes").count() == 1
    # Places 50/30/20 of 13332: 6666+1, 3999, 2666. A and C share 1st and 2nd (10666),
    # B and D share 3rd and 4th (2666 + 0).
    assert [(e.name, place, amount) for e, place, amount in tables.winners(competition)] == [
        ("A", 1, 5333),
        ("C", 1, 5333),
        ("B", 3, 1333),
        ("D", 3, 1333),
    ]
    assert tables.pool_ore(competition) == 0
    assert sum(amount for _e, _p, amount in tables.winners(competition)) == pool
    by_name = {e.name: e for e in competition.entrants.select_related("member")}
    assert ledger.balance(ledger.member_account(by_name["A"].member)) == 5333 - FEE
    assert cash(club) - before_cash == 1333  # the guest's prize out of the cash box
    assert money.check_competition_money(club) == []


@pytest.mark.books_tampered
def test_the_books_check_sees_money_moved_into_a_pool_by_hand(club, scorer, admin_member):
    competition = four_played(club, scorer)
    pool = money.pool_account(competition)
    ledger.post(
        club,
        ledger.legs_for_transfer(ledger.member_account(admin_member), pool, 100),
        "by hand",
        Source.MANUAL,
        None,
    )
    problems = money.check_competition_money(club)
    assert any("moved the pool" in p for p in problems)
    assert any("fees less prizes" in p for p in problems)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"game_key": "no-such-game"}, "game"),
        ({"prize_percents": [50, 30]}, "prizes"),
        ({"prize_percents": []}, "prizes"),
        ({"kind": Kind.CHAMPIONSHIP, "game_key": "femhundra", "table_size": 1}, "table_size"),
        ({"table_size": 1}, "table_size"),
        ({"game_key": "kille"}, "pot_game"),
        ({"kind": "knockout"}, "kind"),
        ({"name": "  "}, "name"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": -1}, "number"),
        ({"entry_fee_ore": -5}, "number"),
        ({"entry_fee_ore": True}, "number"),
        ({"rules": {"target": 99}}, "rules"),
        ({"rules": {"nonsense": 1}}, "rules"),
        ({"rules": "target"}, "rules"),
        ({"game_key": "whist"}, "players"),
        ({"kind": Kind.CHAMPIONSHIP, "game_key": "whist", "table_size": 4, "rounds": 0}, "rounds"),
    ],
)
def test_hostile_announcements_are_refused_with_a_code(club, scorer, change, code):
    with pytest.raises(ValidationError) as refused:
        cup(club, scorer.user, **change)
    assert refused.value.code == code
    assert not Competition.objects.exists()


def test_a_member_of_another_club_cannot_enter(club, scorer, outsider):
    competition = cup(club, scorer.user)
    with pytest.raises(ValidationError) as refused:
        running.enter(competition, scorer.user, member=outsider)
    assert refused.value.code == "club"
    with pytest.raises(ValidationError) as refused:
        running.enter(competition, scorer.user)
    assert refused.value.code == "who"
    assert not Entrant.objects.exists()
    assert not Transaction.objects.exists()


# --- races (PostgreSQL) ---------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_finishes_at_once_pay_the_prizes_once(club, scorer):
    postgres_only()
    competition = four_played(club, scorer)
    at_once(lambda _n: running.finish(competition, scorer.user), range(2))
    assert Transaction.objects.filter(key=f"{competition.ref}:prizes").count() == 1
    assert tables.pool_ore(competition) == 0
    assert money.check_competition_money(club) == []


@pytest.mark.django_db(transaction=True)
def test_next_round_twice_at_once_makes_one_round(club, scorer):
    postgres_only()
    competition = cup(club, scorer.user, rounds=3)
    for name in "ABCD":
        running.enter(competition, scorer.user, member=make_member(club, name))
    first = running.start(competition, scorer.user)
    for table in first.tables.order_by("number"):
        play_cribbage(table, 121, 100)

    def tap(_n):
        try:
            return running.next_round(competition, scorer.user)
        except ValidationError as error:
            return error.code

    made = at_once(tap, range(2))
    assert Round.objects.filter(competition=competition).count() == 2
    assert sorted(map(str, made))[0] != sorted(map(str, made))[1]
    assert "unfinished" in made


@pytest.mark.django_db(transaction=True)
def test_enter_twice_at_once_enters_once_and_posts_one_fee(club, scorer):
    postgres_only()
    competition = cup(club, scorer.user)
    anna = make_member(club, "Anna")
    at_once(lambda _n: running.enter(competition, scorer.user, member=anna), range(5))
    assert competition.entrants.count() == 1
    assert ledger.balance(ledger.member_account(anna)) == -FEE


def test_the_fee_and_prize_memos_read_in_the_readers_language(club, scorer):
    from django.utils import translation

    with translation.override("sv"):
        competition = four_played(club, scorer)
        running.finish(competition, scorer.user)
    shown = list(Transaction.objects.filter(key__startswith=competition.ref).order_by("pk"))
    assert shown[-1].memo == "Vårcupen: priser"
    with translation.override("en"):
        ledger.describe(shown)
    assert shown[0].memo == "Vårcupen: entry fee, A"
    assert shown[-1].memo == "Vårcupen: prizes"


def test_a_pools_account_reads_as_the_competitions_prize_pool_in_either_language(settings):
    from django.utils import translation

    from ledger.models import Account, AccountKind

    pool = Account(kind=AccountKind.POT, key="competition:7", name="Vårcupen")
    with translation.override("sv"):
        assert pool.label == "Prispott: Vårcupen"
    with translation.override("en"):
        assert pool.label == "Prize pool: Vårcupen"
