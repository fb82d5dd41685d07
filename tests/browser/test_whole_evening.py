"""One whole club evening on a phone: the story and the figures of
tests/evenings/test_whole_evening.py (worked out by hand there), driven through the pages.

The host (scorer and treasurer) opens tonight's evening (table money 10 kr, a Kille pot of 10 kr
from the single-table days), checks in nine members and the guest Greta with one save, seats
two Kille tables by hand (the club's pot shared: 5 kr each), starts Kille at each table from the
evening page and records their deals on the pad (table 1: Bertil knocks, all fold; table 2: a
budrunda, then Gustav knocks and all fold), reads the board, ends both tables, closes the
evening and records two payments of tonight's settle-up. The books agree at the end.
"""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

import ledger
from club.models import Role
from evenings.models import Evening, EveningOptions, PotPolicy, Table
from ledger.models import Account
from scoring.models import Game
from tests.browser.conftest import assert_fits_the_phone, hold_polls, log_in
from tests.evenings.test_whole_evening import KR, MEMBERS, TONIGHT, seed_club_pot
from tests.factories import PASSWORD, make_member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOST = "Vera Värdsson"
TABLE_ONE = ["Anna", "Bertil", "Cecilia"]
TABLE_TWO = ["Ivar", "Greta", "Gustav", "Frida", "Hanna"]
RESULT = TONIGHT  # tonight's result, fee included, in the summary's order


def kr(amount: int) -> str:
    """As the pages write an amount of kronor: −12,00 kr."""
    return f"{'−' if amount < 0 else ''}{abs(amount)},00\u00a0kr"


def full_name(name: str) -> str:
    return name if name == "Greta" else f"{name} {name[0]}son"


def snap(page, output_dir, name: str) -> None:
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / f"{name}.png", full_page=True)


def start_kille_at(page, live_server, output_dir, evening, number: int, seat_order) -> Game:
    """From the evening page, "Starta Kille här" at the table: the start page lists the table's
    players in seat order; start the game and land on its pad."""
    page.goto(f"{live_server.url}/c/{evening.club.slug}/evenings/{evening.pk}/")
    page.get_by_test_id(f"table-{number}").get_by_test_id("start-at-table").click()
    page.wait_for_url(re.compile(r"/play/kille/\?table=\d+$"))
    expect(page.get_by_test_id("start-table")).to_contain_text(f"bord {number}")
    members = [name for name in seat_order if name != "Greta"]
    for name in members:
        seat = page.locator(".seat-choice", has_text=full_name(name))
        expect(seat.locator("input")).to_be_checked()
    expect(page.locator(".seat-choice:has(input:checked)")).to_have_count(len(members))
    if "Greta" in seat_order:  # a guest is no member to tick: she is in the guests' field
        expect(page.get_by_label("Gäster", exact=True)).to_have_value("Greta")
    else:
        for seat_no, name in enumerate(seat_order, start=1):
            seat = page.locator(".seat-choice", has_text=full_name(name))
            expect(seat.locator(".seat-no")).to_have_text(str(seat_no))
    page.screenshot(path=output_dir / f"start-table-{number}.png", full_page=True)
    page.get_by_role("button", name="Starta spelet").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert game.table.number == number
    # The pad's seats in the table's order: s0 deals, s1 is förhand.
    for seat_no, name in enumerate(seat_order):
        expect(page.get_by_test_id(f"seat-s{seat_no}")).to_contain_text(full_name(name))
    expect(page.get_by_test_id("kille-pot")).to_contain_text(kr(5))
    return game


def tap(page, action: str, seat: int) -> None:
    """Tap a seat's button once it is that seat's turn."""
    button = page.get_by_test_id(f"{action}-s{seat}")
    expect(button).to_be_visible()
    button.click()


def end_the_evening_at(page, live_server, club, game) -> None:
    page.goto(f"{live_server.url}/c/{club.slug}/games/{game.pk}/")
    page.locator("details.kille-end summary").click()
    page.get_by_test_id("end-evening").click()
    expect(page.locator(".kille-deal")).to_contain_text("Kvällen är slut", ignore_case=True)


def test_a_whole_club_evening_in_the_browser(phones, live_server, output_dir, club):
    # The club before the evening: table money 10 kr, 10 kr in the Kille pot, nine members and
    # a host who is scorer and treasurer.
    EveningOptions.objects.create(club=club, fee_ore=10 * KR, pot_policy=PotPolicy.CARRY)
    seed_club_pot(club)
    assert Account.objects.get(club=club, key="pot:kille").balance_ore == 10 * KR
    host = make_member(club, HOST, roles=[Role.SCORER, Role.TREASURER])
    for name in MEMBERS:
        make_member(club, full_name(name))

    page = phones(service_workers="block")
    hold_polls(page)  # the pad's polls; the test reads pages it loads itself
    log_in(page, live_server, host.user.username, PASSWORD)

    # 1. The host opens tonight's evening.
    page.goto(f"{live_server.url}/c/{club.slug}/evenings/")
    page.get_by_test_id("open-evening").get_by_label("Kille", exact=True).check()
    page.get_by_role("button", name="Öppna kvällens klubbkväll").click()
    page.wait_for_url(re.compile(r"/evenings/\d+/$"))
    evening = Evening.objects.get(club=club)
    assert evening.fee_ore == 10 * KR
    expect(page.get_by_test_id("attendees")).to_contain_text("Ingen än")

    # 2. Check-in in one go: nine ticks, the guest's name, one save.
    check_in = page.get_by_test_id("check-in")
    for name in MEMBERS:
        check_in.get_by_label(full_name(name), exact=True).check()
    check_in.locator("input[name=guest_name]").fill("Greta")
    with page.expect_navigation():
        check_in.get_by_role("button", name="Skriv in dem").click()
    attendees = page.get_by_test_id("attendees")
    for name in [*MEMBERS, "Greta"]:
        expect(attendees).to_contain_text(full_name(name))
    assert evening.attendees.count() == 10
    assert Account.objects.get(club=club, key="treasury").balance_ore == 100 * KR
    snap(page, output_dir, "1-checked-in")

    # 3. Table 1 and then table 2 seated by hand, in seat order.
    for number, players in ((1, TABLE_ONE), (2, TABLE_TWO)):
        form = page.get_by_test_id("table-form")
        form.get_by_label("Spel").select_option("kille")
        for name in players:
            form.get_by_label(full_name(name), exact=True).check()
        with page.expect_navigation():
            page.get_by_test_id("seat-table").click()
        table = page.get_by_test_id(f"table-{number}")
        expect(table).to_contain_text(f"Bord {number} · Kille")
        expect(table).to_contain_text(", ".join(full_name(n) for n in players))
    seats = Table.objects.get(evening=evening, number=2).seats.order_by("position")
    assert [s.attendee.name for s in seats] == [full_name(n) for n in TABLE_TWO]
    expect(page.get_by_test_id("pot-rule")).to_contain_text(
        "Klubbens pott delas lika", ignore_case=True
    )
    for number in (1, 2):
        expect(page.get_by_test_id(f"table-{number}").get_by_test_id("table-pot")).to_have_text(
            kr(5)
        )
    snap(page, output_dir, "2-tables")
    page.get_by_test_id("board-link").click()
    page.wait_for_url(re.compile(r"/board/$"))
    for number in (1, 2):
        expect(page.get_by_test_id(f"table-{number}").get_by_test_id("table-pot")).to_have_text(
            kr(5)
        )

    # 4. Table 1 (dealer Anna s0, förhand Bertil s1): Bertil knocks, Cecilia and Anna fold.
    first = start_kille_at(page, live_server, output_dir, evening, 1, TABLE_ONE)
    tap(page, "knock", 1)
    tap(page, "fold", 2)
    tap(page, "fold", 0)
    expect(page.get_by_test_id("kille-pot")).to_contain_text(kr(3))
    expect(page.get_by_test_id("seat-s1")).to_contain_text(kr(4))

    # Table 2 (dealer Ivar s0, förhand Greta s1): the guest keeps her seat. A budrunda; then
    # Gustav (förhand, s2) knocks and Frida, Hanna, Ivar and Greta fold.
    second = start_kille_at(page, live_server, output_dir, evening, 2, TABLE_TWO)
    for seat in (1, 2, 3, 4, 0):
        tap(page, "bud", seat)
    expect(page.get_by_test_id("kille-pot")).to_contain_text(kr(10))
    tap(page, "knock", 2)
    for seat in (3, 4, 0, 1):
        tap(page, "fold", seat)
    expect(page.get_by_test_id("kille-pot")).to_contain_text(kr(5))
    expect(page.get_by_test_id("seat-s2")).to_contain_text(kr(8))
    expect(page.get_by_test_id("seat-s1")).to_contain_text(kr(-2))
    snap(page, output_dir, "3-pad-table-2")

    # 5. The board: each table's leader while its game is open (a finished game has no
    # leader on the board), and tonight's ranking with the guest in it.
    page.goto(f"{live_server.url}/c/{club.slug}/evenings/{evening.pk}/board/")
    expect(page.get_by_test_id("table-1").get_by_test_id("table-leader")).to_have_text(
        full_name("Bertil")
    )
    expect(page.get_by_test_id("table-2").get_by_test_id("table-leader")).to_have_text(
        full_name("Gustav")
    )
    greta = page.get_by_test_id("ranked").filter(has_text="Greta")
    expect(greta).to_have_count(1)
    expect(greta).to_contain_text(kr(-12))
    snap(page, output_dir, "4-board")

    # Both tables end for the night.
    end_the_evening_at(page, live_server, club, first)
    end_the_evening_at(page, live_server, club, second)
    page.goto(f"{live_server.url}/c/{club.slug}/evenings/{evening.pk}/board/")
    expect(page.get_by_test_id("ranked").filter(has_text="Greta")).to_contain_text(kr(-12))
    expect(page.get_by_test_id("ranked").filter(has_text="Gustav")).to_contain_text(kr(-2))

    # 6. Close the evening: the summary and tonight's settle-up.
    page.goto(f"{live_server.url}/c/{club.slug}/evenings/{evening.pk}/")
    page.get_by_test_id("close-evening").click()
    page.wait_for_url(re.compile(r"/summary/$"))

    def result_column() -> list[tuple[str, str]]:
        rows = page.get_by_test_id("summary").locator("tbody tr")
        expect(rows).to_have_count(len(RESULT))
        return [
            (row.locator("td").nth(0).inner_text(), row.locator("td").nth(4).inner_text())
            for row in rows.all()
        ]

    expected = [(full_name(name), kr(amount)) for name, amount in RESULT.items()]
    assert result_column() == expected
    payments = page.get_by_test_id("payment")
    expect(payments).to_have_count(10)
    snap(page, output_dir, "5-summary")
    for payer, left in (("Frida", 9), ("Greta", 8)):
        row = page.get_by_test_id("payment").filter(has_text=full_name(payer))
        expect(row).to_have_count(1)
        expect(row.locator(".say")).to_contain_text(kr(12))
        with page.expect_navigation():
            row.get_by_test_id("record-payment").click()
        expect(page.get_by_test_id("payment")).to_have_count(left)
        assert result_column() == expected  # the result stands
    paid = page.get_by_test_id("paid")
    expect(paid).to_contain_text(full_name("Frida"))
    expect(paid).to_contain_text("Greta")
    snap(page, output_dir, "6-paid")

    # 7. The books agree, as check_ledger asks.
    assert ledger.verify_books(club) == []
    call_command("check_ledger")
