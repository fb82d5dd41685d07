"""Club evenings: check-in and the fee, tables, a pot per table, the two pot policies across
evenings, closing, and tonight's money and settle-up."""

from __future__ import annotations

import itertools
import uuid
from datetime import date

import pytest
from django.db.models import Sum
from hypothesis import given, settings
from hypothesis import strategies as st

import evenings
import ledger
from evenings.models import Attendee, EveningOptions, PotPolicy
from ledger.models import Account, AccountKind, Entry, Source, Transaction
from scoring import games, recording
from scoring.recording import EventRefused
from tests.concurrency import at_once, postgres_only
from tests.factories import make_club, make_member

THURSDAY, NEXT_THURSDAY = date(2026, 11, 19), date(2026, 11, 26)


def seed_club_pot(club, amount):
    """The Kille pot left from the single-table days, as the app fills it: a Kille game at
    the club (no evening) whose players each pay the opening stake, then end for the night.
    ``amount`` is split among two to six savers (it must divide)."""
    savers = next(n for n in range(2, 7) if amount % n == 0)
    players = [make_member(club, f"Sparare {uuid.uuid4().hex[:6]}") for _n in range(savers)]
    setup = games.start_setup(club, "kille")
    rules = {"base_stake_ore": amount // savers, "opening_stake_each_evening": True}
    game = recording.start_game(club, "kille", players, None, rules=rules, setup=setup)
    before = balance(club, "pot:kille")
    tap(game, "ante")
    finish_for_tonight(game)
    assert balance(club, "pot:kille") == before + amount


def policy(club, pot_policy, fee_ore=0):
    EveningOptions.objects.update_or_create(
        club=club, defaults={"pot_policy": pot_policy, "fee_ore": fee_ore}
    )


def evening_with(club, people, day=THURSDAY):
    evening = evenings.open_evening(club, None, date=day, games=["kille"])
    return evening, [evenings.check_in(evening, None, member=m) for m in people]


def start_at(table, by=None):
    """A Kille game at the table, as the start page starts one (its pot from the table)."""
    players = [seat.attendee.member for seat in table.seats.order_by("position")]
    setup = games.start_setup(table.evening.club, "kille", table=table.number)
    return recording.start_game(table.evening.club, "kille", players, by, setup=setup, table=table)


def tap(game, event_type, **payload):
    game.refresh_from_db()
    return recording.append_event(
        game,
        event_type,
        payload,
        expected_seq=game.seq,
        idempotency_key=uuid.uuid4().hex,
        by=None,
    )


def knock_and_walk_over(game):
    """Förhand (s1) knocks and everyone folds: he takes the pot, everyone pays the small stake."""
    if "ante" in recording.current_state(game)[0].expected:
        tap(game, "ante")
    tap(game, "knock", player="s1")
    tap(game, "fold", player="s2")
    tap(game, "fold", player="s0")


def finish_for_tonight(game):
    """The table ends its Kille evening between deals (the pot stays where the last deal
    left it)."""
    tap(game, "end_evening")
    game.refresh_from_db()
    assert game.status == "finished"


def balance(club, key):
    account = Account.objects.filter(club=club, key=key).first()
    return account.balance_ore if account else 0


def assert_money_is_conserved(club):
    assert Entry.objects.filter(account__club=club).aggregate(s=Sum("amount_ore"))["s"] in (0, None)
    assert sum(Account.objects.filter(club=club).values_list("balance_ore", flat=True)) == 0
    for account in Account.objects.filter(club=club):
        entries = Entry.objects.filter(account=account).aggregate(s=Sum("amount_ore"))["s"] or 0
        assert account.balance_ore == entries, account.key


@pytest.fixture
def six(club):
    return [make_member(club, f"Spelare {n}") for n in range(6)]


def test_two_kille_tables_play_at_once_each_from_its_own_pot(club, six):
    seed_club_pot(club, 1000)
    evening, here = evening_with(club, six)

    one, two = evenings.form_tables(evening, "kille", [here[:3], here[3:]], None)

    # The old club pot is shared between the tables that open.
    assert balance(club, "pot:kille") == 0
    assert (balance(club, "pot:kille:1"), balance(club, "pot:kille:2")) == (500, 500)
    first, second = start_at(one), start_at(two)  # both open together: no "pot in use"
    assert first.setup["pot_ore"] == second.setup["pot_ore"] == 500
    knock_and_walk_over(first)
    tap(second, "bud", player="s1")  # table two's deal is still going
    # Each table's pot is its own game's pot; the other table's is untouched.
    first.refresh_from_db()
    second.refresh_from_db()
    assert balance(club, "pot:kille:1") == first.snapshot["pot_ore"]
    assert balance(club, "pot:kille:2") == second.snapshot["pot_ore"] == 500
    assert first.snapshot["pot_ore"] != 500
    # One pot, one open game: a second game at table one waits for the first.
    with pytest.raises(EventRefused) as refusal:
        start_at(one)
    assert refusal.value.code == "pot_in_use"
    assert_money_is_conserved(club)


def test_the_tables_names_and_the_ledger_show_every_move(club, six, in_english):
    seed_club_pot(club, 900)
    evening, here = evening_with(club, six)
    evenings.form_tables(evening, "kille", [here[:3], here[3:]], None)
    pot_two = Account.objects.get(club=club, key="pot:kille:2")
    assert pot_two.label == "Pot: Kille, table 2"
    split = pot_two.entries.get().transaction
    assert split.ref.startswith(f"{evening.ref}:split:kille")
    assert sorted(e.amount_ore for e in split.entries.all()) == [-900, 450, 450]


def test_merge_policy_brings_the_pots_home_and_shares_them_out_next_time(club, six):
    policy(club, PotPolicy.MERGE)
    seed_club_pot(club, 2001)
    evening, here = evening_with(club, six)
    one, two = evenings.form_tables(evening, "kille", [here[:3], here[3:]], None)
    assert balance(club, "pot:kille") == 1  # the odd öre waits in the club's pot
    game = start_at(one)
    knock_and_walk_over(game)
    game.refresh_from_db()
    left_at_one = game.snapshot["pot_ore"]
    with pytest.raises(evenings.EveningError) as refusal:
        evenings.close_evening(evening, None)
    assert refusal.value.code == "open_games"
    finish_for_tonight(game)

    evenings.close_evening(evening, None)
    evenings.close_evening(evening, None)  # twice: nothing moves twice

    assert balance(club, "pot:kille:1") == balance(club, "pot:kille:2") == 0
    home = balance(club, "pot:kille")
    assert home == 1 + left_at_one + 1000
    # Next Thursday three tables open: the club's pot is split three ways.
    nine = six + [make_member(club, f"Ny {n}") for n in range(3)]
    evening2, here2 = evening_with(club, nine, day=NEXT_THURSDAY)
    evenings.form_tables(evening2, "kille", [here2[0:3], here2[3:6], here2[6:9]], None)
    share = home // 3
    assert [balance(club, f"pot:kille:{n}") for n in (1, 2, 3)] == [share] * 3
    assert balance(club, "pot:kille") == home - 3 * share
    assert_money_is_conserved(club)


def test_carry_policy_keeps_each_pot_with_its_table(club, six):
    policy(club, PotPolicy.CARRY)
    seed_club_pot(club, 1000)
    evening, here = evening_with(club, six)
    one, two = evenings.form_tables(evening, "kille", [here[:3], here[3:]], None)
    game = start_at(one)
    knock_and_walk_over(game)
    game.refresh_from_db()
    left_at_one = game.snapshot["pot_ore"]
    finish_for_tonight(game)
    evenings.close_evening(evening, None)
    kept_one, kept_two = balance(club, "pot:kille:1"), balance(club, "pot:kille:2")
    assert (kept_one, kept_two) == (left_at_one, 500)
    assert balance(club, "pot:kille") == 0

    # Next time only one Kille table: table one goes on from its own pot; table two's waits.
    evening2, here2 = evening_with(club, six[:3], day=NEXT_THURSDAY)
    (table,) = evenings.form_tables(evening2, "kille", [here2], None)
    assert table.number == 1
    assert start_at(table).setup["pot_ore"] == kept_one
    assert balance(club, "pot:kille:2") == kept_two
    assert_money_is_conserved(club)


def test_the_fee_is_posted_once_for_each_attendee(club, six):
    policy(club, PotPolicy.CARRY, fee_ore=2000)
    evening = evenings.open_evening(club, None, date=THURSDAY)
    first = evenings.check_in(evening, None, member=six[0])
    again = evenings.check_in(evening, None, member=six[0])  # a double tap
    guest = evenings.check_in(evening, None, guest_name="Gästen Greta")
    evenings.check_in(evening, None, guest_name=" Gästen Greta ")
    assert first.pk == again.pk
    assert Attendee.objects.filter(evening=evening).count() == 2
    assert balance(club, f"member:{six[0].pk}") == -2000
    assert balance(club, "treasury") == 4000
    # The guest's fee is on the guest's account for the evening, settled on the spot.
    assert balance(club, f"guest:{guest.pk}") == -2000
    assert balance(club, "cash") == 0
    assert guest.fee_id is not None
    assert_money_is_conserved(club)


def test_an_entry_fee_goes_to_tonights_prizes(club, six):
    EveningOptions.objects.create(club=club, fee_ore=5000, fee_kind="entry")
    evening, _here = evening_with(club, six[:4])
    assert evenings.prize_pool(evening).balance_ore == 4 * 5000


@pytest.mark.django_db(transaction=True)
def test_a_fee_tapped_from_twenty_phones_at_once_is_posted_once():
    postgres_only()
    club = make_club()
    member = make_member(club, "Anna")
    EveningOptions.objects.create(club=club, fee_ore=2000)
    evening = evenings.open_evening(club, None, date=THURSDAY)

    attendees = at_once(lambda _n: evenings.check_in(evening, None, member=member).pk, range(20))

    assert len(set(attendees)) == 1
    assert balance(club, f"member:{member.pk}") == -2000


def test_tables_are_drawn_for_the_games_player_counts(club, six):
    evening, here = evening_with(club, six + [make_member(club, "Sjunde")])
    groups = evenings.draw_groups(here, "kille")
    # Kille seats 2-6: seven people make two tables, as even as can be.
    assert sorted(len(g) for g in groups) == [3, 4]
    assert {a.pk for g in groups for a in g} == {a.pk for a in here}
    assert evenings.table_sizes(13, "kille") == [5, 4, 4]
    assert evenings.table_sizes(8, "whist") == [4, 4]
    with pytest.raises(evenings.EveningError):
        evenings.table_sizes(5, "whist")
    tables = evenings.form_tables(evening, "kille", groups, None)
    with pytest.raises(evenings.EveningError) as refusal:
        evenings.form_tables(evening, "kille", [here[:2]], None)
    assert refusal.value.messages == ["Någon av de valda sitter redan vid ett bord."]
    assert [t.number for t in tables] == [1, 2]


def test_tonights_money_leaves_old_deposits_out(club, six):
    anna, bo, cissi = six[:3]
    # An old deposit: Anna paid 300 kr into her account last month.
    cash = ledger.system_account(club, AccountKind.CASH)
    ledger.post(
        club,
        [(cash, -30000), (ledger.member_account(anna), 30000)],
        "Insättning",
        Source.MANUAL,
        None,
    )
    evening, here = evening_with(club, [anna, bo, cissi])
    (table,) = evenings.form_tables(evening, "kille", [here], None)
    knock_and_walk_over(start_at(table))

    nets = evenings.tonight_nets(evening)

    assert sum(nets.values()) == 0
    assert nets.get(f"member:{anna.pk}", 0) < 30000 - 1000  # no deposit in tonight's money
    plan = evenings.tonight_plan(evening)
    settled = dict(nets)
    for payment in plan:
        settled[payment.payer] += payment.amount_ore
        settled[payment.payee] -= payment.amount_ore
    assert not any(settled.values())


def fewest_payments_by_brute_force(balances: list[int]) -> int:
    """n − the most disjoint zero-sum groups, over every partition of the balances."""
    items = [b for b in balances if b]
    best = 0
    for labels in itertools.product(range(len(items)), repeat=len(items)):
        groups: dict[int, int] = {}
        for item, label in zip(items, labels, strict=True):
            groups[label] = groups.get(label, 0) + item
        if all(total == 0 for total in groups.values()):
            best = max(best, len(groups))
    return len(items) - best


@pytest.mark.books_by_hand
@pytest.mark.django_db
@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-5, 5).map(lambda n: n * 100), min_size=1, max_size=5))
def test_tonights_settle_up_is_the_fewest_payments(nets):
    club = make_club()
    members = [make_member(club, f"M{n}", login=False) for n in range(len(nets))]
    evening = evenings.open_evening(club, None, date=THURSDAY)
    for n, (member, amount) in enumerate(zip(members, nets, strict=True)):
        if amount:
            ledger.post(
                club,
                [(ledger.member_account(member), amount), (evenings.prize_pool(evening), -amount)],
                "Kvällens pengar",
                Source.EVENING,
                None,
                date=THURSDAY,
                ref=f"{evening.ref}:test:{n}",
            )
    tonight = evenings.tonight_nets(evening)
    plan = evenings.tonight_plan(evening)
    assert len(plan) == fewest_payments_by_brute_force(list(tonight.values()))


def test_the_evenings_memos_read_in_the_readers_language(club, six):
    from django.utils import translation

    policy(club, PotPolicy.CARRY, fee_ore=1000)
    seed_club_pot(club, 600)
    evening, here = evening_with(club, six[:3])
    evenings.form_tables(evening, "kille", [here], None)
    shown = list(Transaction.objects.filter(ref__startswith=evening.ref).order_by("pk"))
    with translation.override("en"):
        ledger.describe(shown)
        english = [tx.memo for tx in shown]
    assert english[0].startswith("Evening ")
    assert english[0].endswith(": fee, Spelare 0")
    assert english[-1].endswith("the club's pot shared among tables 1 (Kille)")
    with translation.override("sv"):
        ledger.describe(shown)
        assert shown[0].memo.startswith("Klubbkväll ")
        assert shown[-1].memo.endswith("klubbens pott delad mellan bord 1 (Kille)")
