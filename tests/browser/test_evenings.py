"""A club evening on phones (issue 17): the host opens tonight's evening from the club home,
checks people in, forms Kille tables by hand and by draw, and starts Kille at a table; a second
phone has the evening's board open all along and sees it change by itself (htmx polls it every
5 s), without a reload. The evening, the board and the big-screen view fit a 390×844 phone and
every tap target on them is thumb-sized."""

from __future__ import annotations

import re
from datetime import date

import pytest
from playwright.sync_api import expect

import evenings
from club.demo import DEMO_MEMBERS, DEMO_PASSWORD, DEMO_USERNAME
from club.models import Member
from evenings.models import Evening, Table
from ledger.models import Transaction
from scoring.models import Game
from tests.browser.conftest import assert_fits_the_phone, hold_polls, log_in
from tests.browser.test_tap_targets import _MEASURE, MIN_PX
from tests.demo import demo_members
from tests.factories import PASSWORD, make_member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOST = "Astrid Lindqvist"  # the demo login: admin, treasurer and scorer of the demo club
PHONE_TWO = "Mia Mobil"  # a plain member with a login of her own: the second phone
CHECKED_IN = ["Bertil Holm", "Cecilia Berg", "Doris Ek", "Einar Sjöberg", "Frida Nyström"]
# By hand: the ticked are seated in the order they checked in (the host last).
TABLE_ONE = ["Bertil Holm", "Cecilia Berg", PHONE_TWO, HOST]
TABLE_TWO = ["Doris Ek", "Einar Sjöberg", "Frida Nyström"]  # drawn: everyone left
# One poll longer than the board's 5 s, and then some.
ONE_POLL = 12_000


def is_board_poll(response) -> bool:
    """The board's own poll (htmx), not a page load of the board."""
    return "/board/" in response.url and response.request.headers.get("hx-request") == "true"


def between_polls(board) -> None:
    """Wait until the board's next poll is answered. (Browser tests run on PostgreSQL only,
    tests/conftest.py: a poll and a tap may meet at the live server, so the host need not wait
    for a quiet moment between polls.)"""
    with board.expect_response(is_board_poll, timeout=ONE_POLL) as poll:
        pass
    assert poll.value.status == 200


def small_targets(page) -> list[dict]:
    return page.evaluate(_MEASURE, MIN_PX)


def assert_phone_ready(page, output_dir, name: str) -> None:
    """Fits the phone, thumb-sized targets, and a screenshot to look at."""
    assert_fits_the_phone(page)
    page.screenshot(path=output_dir / f"{name}.png", full_page=True)
    small = small_targets(page)
    assert not small, f"{name}: targets under {MIN_PX} px: {small}"


def test_the_host_forms_tables_and_a_second_phone_sees_the_board_update(
    phones, live_server, output_dir
):
    club = demo_members()
    mia = make_member(club, PHONE_TWO)
    # Both phones block service workers: after a save pad.js has the worker fetch the pad
    # again, which would still be running when the test's tables are flushed.
    host = phones(service_workers="block")
    hold_polls(host)  # the host's pad polls; this test is about the board's polls

    # The host opens tonight's evening from the club home.
    log_in(host, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    host.wait_for_url(re.compile(rf"/c/{club.slug}/$"))
    host.get_by_test_id("evenings-link").click()
    host.wait_for_url(re.compile(r"/evenings/$"))
    assert_phone_ready(host, output_dir, "evening-list")
    host.get_by_role("button", name="Öppna kvällens klubbkväll").click()
    host.wait_for_url(re.compile(r"/evenings/\d+/$"))
    evening = Evening.objects.get(club=club)
    expect(host.get_by_test_id("attendees")).to_contain_text("Ingen än")

    # He ticks the others, the second phone's member too, and saves once; then himself.
    attendees = host.get_by_test_id("attendees")
    check_in = host.get_by_test_id("check-in")
    for name in [*CHECKED_IN, PHONE_TWO]:
        check_in.get_by_label(name, exact=True).check()
    check_in.get_by_role("button", name="Skriv in dem").click()
    for name in [*CHECKED_IN, PHONE_TWO]:
        expect(attendees).to_contain_text(name)
        # Someone checked in is shown as here, no longer offered.
        expect(host.locator(".is-here", has_text=name)).to_have_count(1)
    host.get_by_test_id("im-here").click()
    expect(attendees).to_contain_text(HOST)
    expect(host.get_by_test_id("im-here")).to_have_count(0)
    assert evening.attendees.count() == 7

    # Table 1 by hand: tick four players, Kille, "Placera dem vid ett bord".
    tables = host.get_by_test_id("table-form")
    tables.get_by_label("Spel").select_option("kille")
    for name in TABLE_ONE:
        tables.get_by_label(name, exact=True).check()
    host.get_by_test_id("seat-table").click()
    table_one = host.get_by_test_id("table-1")
    expect(table_one).to_contain_text("Bord 1 · Kille")
    expect(table_one).to_contain_text(", ".join(TABLE_ONE))
    expect(table_one.get_by_test_id("table-pot")).to_contain_text("0,00")
    # The seated are no longer offered for a table.
    for name in TABLE_ONE:
        expect(host.get_by_test_id("table-form").get_by_label(name, exact=True)).to_have_count(0)

    # Table 2 drawn by the app: nobody ticked seats everyone not yet at a table.
    host.get_by_test_id("table-form").get_by_label("Spel").select_option("kille")
    host.get_by_test_id("draw-tables").click()
    table_two = host.get_by_test_id("table-2")
    expect(table_two).to_contain_text("Bord 2 · Kille")
    for name in TABLE_TWO:
        expect(table_two).to_contain_text(name)
    expect(host.get_by_test_id("start-at-table")).to_have_count(2)
    assert Table.objects.filter(evening=evening).count() == 2
    assert_phone_ready(host, output_dir, "evening-host")

    # The second phone opens the board before anything is started.
    board = phones(service_workers="block")
    log_in(board, live_server, mia.user.username, PASSWORD)
    board.wait_for_url(re.compile(rf"/c/{club.slug}/$"))
    board.goto(f"{live_server.url}/c/{club.slug}/evenings/{evening.pk}/board/")
    expect(board.get_by_test_id("board")).to_be_visible()
    board_one = board.get_by_test_id("table-1")
    expect(board_one).to_contain_text(", ".join(TABLE_ONE))
    expect(board_one.get_by_test_id("table-pot")).to_contain_text("0,00")
    expect(board_one.get_by_role("link", name="Öppna protokollet")).to_have_count(0)
    expect(board.get_by_test_id("start-at-table")).to_have_count(0)  # she is no host
    board.evaluate("window.sameBoard = true")  # gone if the page is loaded again
    between_polls(board)  # the board polls by itself
    assert_phone_ready(board, output_dir, "board-before")

    # The host starts Kille at table 1: the start page is the table's.
    host.get_by_test_id("table-1").get_by_test_id("start-at-table").click()
    host.wait_for_url(re.compile(r"/play/kille/\?table=\d+$"))
    expect(host.get_by_test_id("start-table")).to_contain_text("bord 1")
    ticked = host.locator(".seat-choice:has(input:checked)")
    expect(ticked).to_have_count(4)
    for name in TABLE_ONE:
        expect(host.locator(".seat-choice", has_text=name).locator("input")).to_be_checked()
    assert_phone_ready(host, output_dir, "start-at-table")
    host.get_by_role("button", name="Starta spelet").click()
    host.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(club=club)
    assert game.table.number == 1

    # The board shows the game at table 1 by itself.
    pad_link = board_one.get_by_role("link", name="Öppna protokollet")
    expect(pad_link).to_be_visible(timeout=ONE_POLL)
    expect(pad_link).to_have_attribute("href", re.compile(rf"/games/{game.pk}/$"))
    expect(board_one.get_by_test_id("table-leader")).to_be_visible()
    expect(board.get_by_test_id("table-2")).not_to_contain_text("Öppna protokollet")

    # The host taps a Kille event: the stakes are in. Table 1's pot grows on the board; table
    # 2's pot is its own and stays empty.
    host.get_by_test_id("ante").click()
    expect(host.get_by_test_id("kille-pot")).to_contain_text("8,00")
    expect(board_one.get_by_test_id("table-pot")).to_contain_text("8,00", timeout=ONE_POLL)
    expect(board.get_by_test_id("table-2").get_by_test_id("table-pot")).to_contain_text("0,00")
    assert board.evaluate("window.sameBoard === true"), "the board was loaded again"
    assert_phone_ready(board, output_dir, "board-after")

    # The big-screen view: the same board, larger, polling too.
    board.get_by_role("link", name="Storbild").click()
    board.wait_for_url(re.compile(r"\?tv=1$"))
    expect(board.locator("#board.tv")).to_have_attribute("hx-trigger", "every 5s, live")
    expect(board.get_by_test_id("table-1").get_by_test_id("table-pot")).to_contain_text("8,00")
    expect(board.get_by_role("link", name="Öppna protokollet")).to_have_count(0)
    assert_phone_ready(board, output_dir, "tv-phone")
    # On the room's TV the tables stand beside the ranking.
    board.set_viewport_size({"width": 1920, "height": 1080})
    tables_box = board.get_by_test_id("board-tables").bounding_box()
    ranking_box = board.get_by_test_id("ranking").bounding_box()
    assert ranking_box["x"] >= tables_box["x"] + tables_box["width"], (tables_box, ranking_box)
    board.screenshot(path=output_dir / "tv-1920.png", full_page=True)

    # Back on the host's evening page, table 1 shows its game instead of the start button.
    host.goto(f"{live_server.url}/c/{club.slug}/evenings/{evening.pk}/")
    host_one = host.get_by_test_id("table-1")
    expect(host_one.get_by_role("link", name="Öppna protokollet")).to_be_visible()
    expect(host.get_by_test_id("start-at-table")).to_have_count(1)  # table 2's
    assert_phone_ready(host, output_dir, "evening-host-playing")

    # Stop the board's polls before the test's tables are flushed.
    board.goto("about:blank")


def test_the_host_checks_in_nine_members_and_a_guest_with_ten_ticks_and_one_save(
    phones, live_server, output_dir
):
    club = demo_members()
    evenings.options_for(club)
    evenings.save_options(club, None, fee_ore=2000)
    # Greta came as a guest last time: tonight she is a regular, a tick away.
    earlier = evenings.open_evening(club, None, date=date(2020, 1, 1))
    evenings.check_in(earlier, None, guest_name="Greta Gäst")
    evening = evenings.open_evening(club, None)
    came = [name for name, _roles, _swish in DEMO_MEMBERS[1:10]]
    host = phones(service_workers="block")
    log_in(host, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    host.wait_for_url(re.compile(rf"/c/{club.slug}/$"))
    host.goto(f"{live_server.url}/c/{club.slug}/evenings/{evening.pk}/")
    check_in = host.get_by_test_id("check-in")
    expect(check_in).to_be_visible()
    assert_phone_ready(host, output_dir, "check-in-before")
    host.evaluate("window.taps = 0; document.addEventListener('click', () => window.taps++, true)")
    for name in came:
        check_in.get_by_label(name, exact=True).check()
    host.get_by_test_id("regulars").get_by_label("Greta Gäst", exact=True).check()
    taps = host.evaluate("window.taps")
    with host.expect_navigation():
        check_in.get_by_role("button", name="Skriv in dem").click()
    assert taps + 1 == 11  # ten ticks and one save
    attendees = host.get_by_test_id("attendees")
    for name in [*came, "Greta Gäst"]:
        expect(attendees).to_contain_text(name)
        expect(host.locator(".is-here", has_text=name)).to_have_count(1)
    assert sorted(a.name for a in evening.attendees.all()) == sorted([*came, "Greta Gäst"])
    # The fee once per attendee: nine members' and the guest's at the door.
    assert Transaction.objects.filter(ref__startswith=f"{evening.ref}:fee:").count() == 10
    assert_phone_ready(host, output_dir, "check-in-after")
    # Only the two members who did not come (and the host) are still offered.
    offered = host.locator("input[name=members]:not([disabled])")
    expect(offered).to_have_count(len(DEMO_MEMBERS) - 9)


def test_a_table_is_started_in_its_seat_order(phones, live_server):
    """The table's first seat deals first (a drawn table's seed order): the start page numbers
    the table's players in seat order, and the game is seated so."""
    club = demo_members()
    evening = evenings.open_evening(club, None)
    names = ["Frida Nyström", "Doris Ek", "Einar Sjöberg"]  # not in name order
    here = [
        evenings.check_in(evening, None, member=Member.objects.get(club=club, name=name))
        for name in names
    ]
    (table,) = evenings.form_tables(evening, "kille", [here], None)
    host = phones(service_workers="block")
    hold_polls(host)
    log_in(host, live_server, DEMO_USERNAME, DEMO_PASSWORD)
    host.wait_for_url(re.compile(rf"/c/{club.slug}/$"))
    host.goto(f"{live_server.url}/c/{club.slug}/play/kille/?table={table.pk}")
    for number, name in enumerate(names, start=1):
        seat = host.locator(".seat-choice", has_text=name).locator(".seat-no")
        expect(seat).to_have_text(str(number), timeout=2_000)
    host.get_by_role("button", name="Starta spelet").click()
    host.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(club=club)
    assert [seat.member.name for seat in game.seats.all()] == names


# --- The big screen fits any evening (issue 22) ------------------------------------------------

TV_SCREENS = [{"width": 1280, "height": 720}, {"width": 1920, "height": 1080}]
FIRST = ["Karl-Gustav", "Anna-Karin", "Bo", "Ulla-Britt", "Sven-Erik", "Mia", "Per", "Lisa"]
LAST = ["Andersson-Wikström", "Berg", "Öhman", "Lindqvist", "Sjöberg", "Ek", "Nyström"]

# The board, measured as the TV draws it: the viewport, whatever lies outside it, and any element
# whose content is cut (more to scroll than it shows).
_MEASURE_BOARD = """() => {
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.left >= -0.5 && r.top >= -0.5
      && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  };
  const describe = (el) => `${el.tagName}.${el.className} «${el.textContent.trim().slice(0, 40)}»`;
  const board = document.getElementById("board");
  return {
    scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
    view: [innerWidth, innerHeight],
    names: [...board.querySelectorAll("[data-testid=ranked] td.name")].map((td) => td.textContent),
    outside: [...board.querySelectorAll("[data-testid=ranked], .table-card")]
      .filter((el) => !inside(el)).map(describe),
    cut: [board, ...board.querySelectorAll("*")]
      .filter((el) => el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
      .filter((el) => el.clientHeight > 0 || el.clientWidth > 0)
      .map(describe),
    fontPx: parseFloat(getComputedStyle(board).fontSize),
  };
}"""


def an_evening_of(club, people: int, tables: list[tuple[str, int]]):
    """Tonight with ``people`` attendees (members with long and short names, one guest), seated
    at ``tables`` (game, players) with a game started at each, and a Kille ante in."""
    from scoring import games, recording

    evening = evenings.open_evening(club, None)
    names = [f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}" for i in range(people - 1)]
    members = [make_member(club, name) for name in names]
    here = [evenings.check_in(evening, None, member=m) for m in members]
    here.append(evenings.check_in(evening, None, guest_name="Gästen Greta Grönqvist"))
    start = 0
    for game_key, size in tables:
        group = here[start : start + size]
        start += size
        (table,) = evenings.form_tables(evening, game_key, [group], None)
        players = [a.member or a.guest_name for a in group]
        setup = games.start_setup(club, game_key, table.number)
        game = recording.start_game(club, game_key, players, None, setup=setup, table=table)
        if game_key == "kille":
            recording.append_event(game, "ante", {}, expected_seq=0, idempotency_key="a", by=None)
    return evening


@pytest.mark.parametrize(
    ("people", "tables"),
    [
        (4, [("kasino", 2), ("kasino", 2)]),
        (10, [("kille", 4), ("kille", 3), ("kille", 3)]),
        (40, [("kille", 4)] * 6 + [("whist", 4)] * 4),
    ],
    ids=["4-people", "10-people", "40-people"],
)
def test_the_big_screen_shows_every_table_and_everyone_without_scrolling(
    browser, live_server, output_dir, people, tables
):
    club = demo_members()
    evening = an_evening_of(club, people, tables)
    for screen in TV_SCREENS:
        context = browser.new_context(viewport=screen, locale="sv-SE", service_workers="block")
        tv = context.new_page()
        try:
            log_in(tv, live_server, DEMO_USERNAME, DEMO_PASSWORD)
            tv.goto(f"{live_server.url}/c/{club.slug}/evenings/{evening.pk}/board/?tv=1")
            expect(tv.locator("#board.tv")).to_be_visible()
            expect(tv.locator(".table-card")).to_have_count(len(tables))
            size = f"{screen['width']}x{screen['height']}"
            tv.screenshot(path=output_dir / f"tv-{people}-{size}.png")
            seen = tv.evaluate(_MEASURE_BOARD)
            assert seen["scroll"] == seen["view"], f"{size}: the page scrolls: {seen}"
            assert sorted(seen["names"]) == sorted(a.name for a in evening.attendees.all())
            assert not seen["outside"], f"{size}: outside the screen: {seen['outside']}"
            assert not seen["cut"], f"{size}: cut: {seen['cut']}"
            # Readable from the sofa: at least 1.6 % of the screen's height.
            assert seen["fontPx"] >= 0.016 * screen["height"] - 0.1, seen["fontPx"]
        finally:
            tv.goto("about:blank")  # the board polls: stop it before the tables are flushed
            context.close()
