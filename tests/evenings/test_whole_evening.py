"""One whole club evening, step by step, with every figure worked out by hand below, under each
pot policy — and the books checked (``check_ledger``) after every step.

The club: table money 10 kr a head to the treasury; a Kille pot of 10 kr from before (two
savers paid 5 kr each at a Kille game of the single-table days). Nine members and Greta, a
guest, come. Kille stakes: base 2 kr (never needed: the pots are not empty), small 1 kr.

1. Check-in: 10 × 10 kr = 100 kr to the treasury; each member −10 kr, Greta's guest account
   −10 kr.
2. Table 1, seated by hand: Anna, Bertil, Cecilia. It is the only Kille table: it gets the whole
   club pot, 10 kr.
3. Table 2, seated later: Ivar, Greta, Gustav, Frida, Hanna (in that order). Table 1 has not
   started: the club's pot is shared again, 5 kr each (the rule on the evening page).
4. Table 1 plays (pot 5 kr; dealer Anna s0, förhand Bertil s1): Bertil knocks, Cecilia and Anna
   fold: Bertil takes the 5 kr and everyone pays the small stake (K6): Bertil +4, Anna −1,
   Cecilia −1; pot 3 kr. The table ends for the night.
5. Table 2 plays (pot 5 kr; dealer Ivar s0, förhand Greta s1): all bud, a budrunda: everyone
   pays 1 kr (pot 10 kr), the deal passes; förhand is Gustav (s2): he knocks, Frida, Hanna,
   Ivar and Greta fold: Gustav takes 10 kr and everyone pays 1 kr: Gustav +8 over the night,
   the other four −2 each; pot 5 kr. The table ends for the night.
6. A whist drive round (the first eight members, two tables, one round): no money (table
   money, not an entry fee: the prize pool is empty).
7. Tonight's result, fee included: Gustav −2, Bertil −6, David −10, Erik −10, Anna −11,
   Cecilia −11, Frida −12, Greta −12, Hanna −12, Ivar −12 (sum −98 kr; the club +98 kr = the
   treasury's 100 kr less the 2 kr the pots lost). Ranked by result, then games won, then name.
8. Tonight's settle-up: everyone pays the club their result: 10 payments. Frida and Greta pay
   (12 kr each): the result does not move; 8 payments are left; Frida's and Greta's accounts
   are at 0.
9. Closing. *carry*: the tables keep 3 kr and 5 kr, the club's pot 0. *merge*: all 8 kr go
   back to the club's pot, the tables' pots 0.
10. Next Thursday: Anna, Bertil, Cecilia at table 1. *carry*: table 1 plays from its own 3 kr
    (the club's pot is empty). *merge*: table 1 gets the club's 8 kr. Table 1 starts; then
    David, Erik and Frida form table 2, which finds table 1 playing: it shares only what the
    club's pot still holds (0 kr under both policies).
"""

from __future__ import annotations

from datetime import date

import pytest

import evenings
import ledger
from engine import whist_drive
from evenings import drive_page, drives
from evenings.models import EveningOptions, PotPolicy
from ledger.models import Account
from ledger.payments import record_settlement
from scoring import games, recording
from tests.evenings.test_evenings import tap
from tests.factories import make_member

# Also on SQLite (tests/conftest.py): the whole evening.
pytestmark = pytest.mark.sqlite

THURSDAY, NEXT_THURSDAY = date(2026, 11, 19), date(2026, 11, 26)
KR = 100
MEMBERS = ["Anna", "Bertil", "Cecilia", "David", "Erik", "Frida", "Gustav", "Hanna", "Ivar"]
# Step 7: tonight's result in kronor, fee included, in the ranking's order.
TONIGHT = {
    "Gustav": -2,
    "Bertil": -6,
    "David": -10,
    "Erik": -10,
    "Anna": -11,
    "Cecilia": -11,
    "Frida": -12,
    "Greta": -12,
    "Hanna": -12,
    "Ivar": -12,
}


def balance(club, key):
    account = Account.objects.filter(club=club, key=key).first()
    return account.balance_ore if account else 0


def assert_books_agree(club):
    """What ``manage.py check_ledger`` asks, after each step."""
    assert ledger.verify_books(club) == []


def start_at(table):
    """A Kille game at the table, its players in the table's seats (guests too)."""
    players = [
        seat.attendee.member or seat.attendee.guest_name
        for seat in table.seats.order_by("position")
    ]
    setup = games.start_setup(table.evening.club, "kille", table=table.number)
    return recording.start_game(
        table.evening.club,
        "kille",
        players,
        None,
        rules={"base_stake_ore": 2 * KR, "small_stake_ore": 1 * KR},
        setup=setup,
        table=table,
    )


def seed_club_pot(club):
    """10 kr in the club's Kille pot, as the single-table days left it."""
    savers = [make_member(club, f"Sparare {n}") for n in range(2)]
    game = recording.start_game(
        club, "kille", savers, None, rules={"base_stake_ore": 5 * KR}, setup={"pot_ore": 0}
    )
    tap(game, "ante")
    tap(game, "end_evening")


@pytest.fixture(params=[PotPolicy.CARRY, PotPolicy.MERGE])
def pot_policy(request, club):
    EveningOptions.objects.create(club=club, fee_ore=10 * KR, pot_policy=request.param)
    seed_club_pot(club)
    return request.param


def test_a_whole_club_evening_adds_up_at_every_step(
    club, pot_policy, django_capture_on_commit_callbacks
):
    people = {name: make_member(club, f"{name} {name[0]}son") for name in MEMBERS}
    acc = {name: f"member:{member.pk}" for name, member in people.items()}
    assert balance(club, "pot:kille") == 10 * KR
    assert_books_agree(club)

    # 1. Check-in.
    evening = evenings.open_evening(club, None, date=THURSDAY, games=["kille"])
    here = {name: evenings.check_in(evening, None, member=people[name]) for name in MEMBERS}
    here["Greta"] = evenings.check_in(evening, None, guest_name="Greta")
    acc["Greta"] = f"guest:{here['Greta'].pk}"
    assert balance(club, "treasury") == 100 * KR
    assert all(balance(club, acc[name]) == -10 * KR for name in acc)
    assert_books_agree(club)

    # 2. Table 1 by hand: the whole club pot.
    (one,) = evenings.form_tables(
        evening, "kille", [[here["Anna"], here["Bertil"], here["Cecilia"]]], None
    )
    assert (balance(club, "pot:kille"), balance(club, "pot:kille:1")) == (0, 10 * KR)
    assert_books_agree(club)

    # 3. Table 2 later: shared again, table 1 not yet playing.
    order = ["Ivar", "Greta", "Gustav", "Frida", "Hanna"]
    (two,) = evenings.form_tables(evening, "kille", [[here[n] for n in order]], None)
    assert [balance(club, f"pot:kille:{n}") for n in (1, 2)] == [5 * KR, 5 * KR]
    assert balance(club, "pot:kille") == 0
    assert_books_agree(club)

    # 4. Table 1's night.
    with django_capture_on_commit_callbacks(execute=True):
        first = start_at(one)
        assert first.setup["pot_ore"] == 5 * KR
        tap(first, "knock", player="s1")
        tap(first, "fold", player="s2")
        tap(first, "fold", player="s0")
        tap(first, "end_evening")
    assert balance(club, "pot:kille:1") == 3 * KR
    assert_books_agree(club)

    # 5. Table 2's night: the guest keeps her seat (s1) and loses 2 kr.
    with django_capture_on_commit_callbacks(execute=True):
        second = start_at(two)
        assert [s.name for s in second.seats.order_by("position")][1] == "Greta"
        for seat in ("s1", "s2", "s3", "s4", "s0"):
            tap(second, "bud", player=seat)
        tap(second, "knock", player="s2")
        for seat in ("s3", "s4", "s0", "s1"):
            tap(second, "fold", player=seat)
        tap(second, "end_evening")
    assert balance(club, "pot:kille:2") == 5 * KR
    assert balance(club, acc["Greta"]) == -12 * KR
    assert_books_agree(club)

    # 6. A whist drive round: no money moves.
    drive = drives.start_drive(
        evening,
        [here[n] for n in MEMBERS[:8]],
        None,
        rules=whist_drive.Rules(deals_per_round=1, rounds=1),
    )
    drives.report(drive, 1, 1, 8, 5, None, None)
    drives.report(drive, 1, 2, 6, 7, None, None)
    assert drive_page.page(drive)["finished"]
    assert_books_agree(club)

    # 7. Tonight's result and ranking.
    result = TONIGHT
    played = {name: 0 if name in ("David", "Erik") else 1 for name in result}
    expected = [(name, played[name], result[name] * KR) for name in result]
    nights = evenings.summary(evening)
    assert [(n.attendee.name.split()[0], n.games, n.net_ore) for n in nights] == expected
    assert [n.won for n in nights][:2] == [1, 1]  # Gustav and Bertil won their tables
    assert evenings.tonight_result(evening)["cash"] == 98 * KR

    # 8. The settle-up: everyone pays the club; two pay; the result stands.
    plan = evenings.tonight_plan(evening)
    assert sorted((p.payer, p.payee, p.amount_ore) for p in plan) == sorted(
        (acc[name], "cash", -amount * KR) for name, amount in result.items()
    )
    for name in ("Frida", "Greta"):
        record_settlement(
            club,
            acc[name],
            "cash",
            12 * KR,
            None,
            key=f"{evening.ref}:paid:{name}",
            ref=evenings.paid_ref(evening),
        )
    assert [
        (n.attendee.name.split()[0], n.games, n.net_ore) for n in evenings.summary(evening)
    ] == (expected)
    assert len(evenings.tonight_plan(evening)) == 8
    assert balance(club, acc["Frida"]) == balance(club, acc["Greta"]) == 0
    assert [(p.payer, p.amount_ore) for p in evenings.paid_so_far(evening)] == [
        ("Frida Fson", 12 * KR),
        ("Greta (gäst)", 12 * KR),
    ]
    assert_books_agree(club)

    # 9. Closing under the club's policy.
    evenings.close_evening(evening, None)
    kept = {
        PotPolicy.CARRY: {"pot:kille": 0, "pot:kille:1": 3 * KR, "pot:kille:2": 5 * KR},
        PotPolicy.MERGE: {"pot:kille": 8 * KR, "pot:kille:1": 0, "pot:kille:2": 0},
    }[pot_policy]
    assert {key: balance(club, key) for key in kept} == kept
    assert_books_agree(club)

    # 10. Next Thursday.
    evening2 = evenings.open_evening(club, None, date=NEXT_THURSDAY, games=["kille"])
    back = {n: evenings.check_in(evening2, None, member=people[n]) for n in MEMBERS[:6]}
    (one,) = evenings.form_tables(
        evening2, "kille", [[back["Anna"], back["Bertil"], back["Cecilia"]]], None
    )
    from_pot = {PotPolicy.CARRY: 3 * KR, PotPolicy.MERGE: 8 * KR}[pot_policy]
    assert start_at(one).setup["pot_ore"] == from_pot
    (two,) = evenings.form_tables(
        evening2, "kille", [[back["David"], back["Erik"], back["Frida"]]], None
    )
    assert balance(club, "pot:kille:1") == from_pot  # playing: untouched
    assert balance(club, "pot:kille:2") == kept["pot:kille:2"]  # only what the club's pot held
    assert_books_agree(club)
