"""``ledger.statement_pages``: a statement split over pages is the whole statement, line for line
and balance for balance, and a page's queries do not grow with the account."""

from __future__ import annotations

import re
from datetime import date, timedelta
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import resolve, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ledger
from ledger import statement_pages
from ledger.models import AccountKind, Source, Transaction
from ledger.statements import statement_lines

FIRST_DAY = date(2026, 3, 1)


def game_money(club, own, pot, game_id, seq, amount, day):
    ref = f"game:{game_id}:event:{seq}"
    legs = [(own, amount), (pot, -amount)]
    memo = f"Kille #{game_id}: giv {seq}"
    return ledger.post(club, legs, memo, Source.GAME, None, date=day, key=ref, ref=ref)


def payment(club, own, cash, n, amount, day):
    legs = ledger.legs_for_transfer(cash, own, amount)
    return ledger.post(club, legs, f"Swish {n}", "manual", None, date=day)


def shown(lines) -> list[tuple]:
    return [
        (line.title, line.date, line.amount_ore, line.running_ore, [d.text for d in line.deals])
        for line in lines
    ]


def every_page(account, start, end):
    """The pages from the oldest to page 1, checked against each other on the way."""
    pages = [statement_pages.statement_page(account, start, end)]
    while pages[-1].has_older:
        pages.append(statement_pages.statement_page(account, start, end, pages[-1].older))
        assert pages[-1].carried_ore == pages[-2].brought_ore
    pages.reverse()
    beyond = statement_pages.statement_page(account, start, end, len(pages) + 3)
    assert (beyond.number, shown(beyond.lines)) == (len(pages), shown(pages[0].lines))
    return pages


# A posting: a game's deal (game 1–4, so games straddle days and other lines), a payment, or
# the undo of an earlier deal (its reversal is dated today, after everything else).
step = st.one_of(
    st.tuples(st.just("game"), st.integers(1, 4), st.integers(0, 9), st.integers(-900, 900)),
    st.tuples(st.just("pay"), st.just(0), st.integers(0, 9), st.integers(-900, 900)),
    st.tuples(st.just("undo"), st.integers(0, 30), st.just(0), st.just(0)),
)
day_or_none = st.one_of(st.none(), st.integers(0, 9))


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@pytest.mark.books_by_hand
@given(
    steps=st.lists(step, max_size=25),
    per_page=st.integers(1, 4),
    per_line=st.integers(1, 4),
    start=day_or_none,
    end=day_or_none,
)
def test_the_pages_together_are_the_whole_statement(
    club, member, steps, per_page, per_line, start, end
):
    if start is not None and end is not None and start > end:
        start, end = end, start  # the page's form refuses a range that ends before it starts
    start = None if start is None else FIRST_DAY + timedelta(days=start)
    end = None if end is None else FIRST_DAY + timedelta(days=end)
    with transaction.atomic():
        own = ledger.member_account(member)
        pot = ledger.pot_account(club, "pot:kille", "Killepotten")
        cash = ledger.system_account(club, AccountKind.CASH)
        deals = []
        for n, (kind, which, day, amount) in enumerate(steps):
            booked = FIRST_DAY + timedelta(days=day)
            if kind == "game" and amount:
                deals.append(game_money(club, own, pot, which, n, amount, booked))
            elif kind == "pay" and amount:
                payment(club, own, cash, n, amount, booked)
            elif kind == "undo" and deals:
                deal = deals.pop(which % len(deals))
                ledger.reverse(deal, "Ångrat", None, game_recording=True)
        with (
            mock.patch.object(statement_pages, "LINES_PER_PAGE", per_page),
            mock.patch.object(statement_pages, "ENTRIES_PER_LINE", per_line),
        ):
            pages = every_page(own, start, end)
        whole = ledger.statement(own, start, end)
        lines = [line for page in pages for line in page.lines]
        assert shown(lines) == shown(statement_lines(whole))
        assert pages[0].opening_ore == pages[0].brought_ore == whole.opening_ore
        assert pages[-1].closing_ore == pages[-1].carried_ore == whole.closing_ore
        assert [page.number for page in pages] == list(range(len(pages), 0, -1))
        assert [page.is_first for page in pages] == [True] + [False] * (len(pages) - 1)
        assert all(len(page.lines) == per_page for page in pages[1:])
        assert 1 <= len(pages[0].lines) <= per_page or not lines
        transaction.set_rollback(True)


@pytest.mark.books_by_hand
def test_page_one_of_a_long_statement_ends_at_the_books_balance(club, member):
    """The closing balance is the account's, as ``check_ledger`` sees it, and the balance before
    the page is that less the page's lines, whatever lies before them."""
    own = ledger.member_account(member)
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    cash = ledger.system_account(club, AccountKind.CASH)
    for n in range(12):
        game_money(club, own, pot, 1 + n % 3, n, -100 - n, FIRST_DAY + timedelta(days=n))
        payment(club, own, cash, n, 1000, FIRST_DAY + timedelta(days=n))
    with mock.patch.object(statement_pages, "LINES_PER_PAGE", 2):
        page = statement_pages.statement_page(own)
    assert ledger.verify_balances(club) == []
    own.refresh_from_db()
    assert page.closing_ore == page.carried_ore == own.balance_ore
    # The three games each began on the first three days: page 1 is the last two payments.
    assert [line.title for line in page.lines] == ["Swish 10", "Swish 11"]
    assert page.brought_ore == own.balance_ore - 2000
    assert page.has_older


def books(club, member):
    own = ledger.member_account(member)
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    return own, pot, ledger.system_account(club, AccountKind.CASH)


@pytest.mark.books_by_hand
def test_a_game_begun_before_the_latest_lines_is_on_the_page_of_its_first_deal(club, member):
    """Game 1's last deal is the account's latest entry, but its line is the oldest: its first
    deal came before all the payments."""
    own, pot, cash = books(club, member)
    game_money(club, own, pot, 1, 1, 100, FIRST_DAY)
    for n in range(1, 9):
        payment(club, own, cash, n, 10 * n, FIRST_DAY + timedelta(days=n))
    game_money(club, own, pot, 1, 2, 7, FIRST_DAY + timedelta(days=9))
    with (
        mock.patch.object(statement_pages, "LINES_PER_PAGE", 2),
        mock.patch.object(statement_pages, "ENTRIES_PER_LINE", 1),
    ):
        pages = every_page(own, None, None)
    assert [[line.title for line in page.lines] for page in pages] == [
        ["Kille #1"],
        ["Swish 1", "Swish 2"],
        ["Swish 3", "Swish 4"],
        ["Swish 5", "Swish 6"],
        ["Swish 7", "Swish 8"],
    ]
    assert pages[0].lines[0].amount_ore == 107
    assert pages[-1].brought_ore == 107 + 10 * sum(range(1, 7))


@pytest.mark.books_by_hand
def test_a_page_whose_lines_hold_many_entries_reads_back_until_it_is_full(club, member):
    own, pot, cash = books(club, member)
    for n in range(4):
        payment(club, own, cash, n, 1000, FIRST_DAY + timedelta(days=n))
        for seq in range(6):  # six deals a game, against the page's guess of one entry a line
            game_money(club, own, pot, 10 + n, seq, -1, FIRST_DAY + timedelta(days=n))
    with (
        mock.patch.object(statement_pages, "LINES_PER_PAGE", 3),
        mock.patch.object(statement_pages, "ENTRIES_PER_LINE", 1),
    ):
        page = statement_pages.statement_page(own)
    assert [line.title for line in page.lines] == ["Kille #12", "Swish 3", "Kille #13"]
    assert [len(line.deals) for line in page.lines] == [6, 0, 6]
    assert page.brought_ore == 3000 - 12
    assert page.has_older


def more_lines(club, member, groups: range) -> None:
    """Five of the member's entries a group: a game of four deals, then a payment."""
    own = ledger.member_account(member)
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    cash = ledger.system_account(club, AccountKind.CASH)
    for n in groups:
        day = FIRST_DAY + timedelta(days=n // 10)
        for seq in range(4):
            game_money(club, own, pot, 100 + n, seq, -10 - seq, day)
        payment(club, own, cash, n, 50, day)
    return own


@pytest.mark.books_by_hand
def test_a_page_makes_the_same_queries_at_fifty_entries_and_at_five_hundred(
    member_client, club, member, monkeypatch
):
    # Eight lines a page: page 1 of fifty entries already reads only the latest of them.
    monkeypatch.setattr(statement_pages, "LINES_PER_PAGE", 8)
    own = more_lines(club, member, range(10))
    url = reverse("ledger:account", args=[club.slug, own.pk])
    member_client.get(url)  # the session and the caches warm
    with CaptureQueriesContext(connection) as fifty:
        html = member_client.get(url).content.decode()
    assert html.count('class="stmt-line') == 8
    assert "Sida 1<" in html  # how many pages, the page has not read
    more_lines(club, member, range(10, 100))
    with CaptureQueriesContext(connection) as five_hundred:
        html = member_client.get(url).content.decode()
    assert html.count('class="stmt-line') == 8
    assert len(five_hundred) == len(fifty), [q["sql"][:80] for q in five_hundred]


@pytest.mark.books_by_hand
def test_a_page_that_holds_the_whole_statement_says_how_many_pages(
    member_client, club, member, monkeypatch
):
    monkeypatch.setattr(statement_pages, "LINES_PER_PAGE", 8)
    own = more_lines(club, member, range(6))  # twelve lines: a game, a payment, …
    url = reverse("ledger:account", args=[club.slug, own.pk])
    html = member_client.get(url, {"page": "2"}).content.decode()
    assert "Sida 2 av 2" in html
    assert 'data-testid="stmt-older"' not in html
    assert html.count('class="stmt-line') == 4
    links = re.findall(r'href="(/c/[^"]+/(?:tx|games)/\d+/)"', html)
    game = Transaction.objects.filter(ref="game:100:event:0").get()
    assert f"/tx/{game.pk}/" in " ".join(links)
    assert {resolve(link).url_name for link in links} == {"transaction", "game-detail"}
