"""``ledger.statements`` and the statement page: a line per game with its net and its deals behind
a tap, a line per payment and dues; the running balance over the lines."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import ledger
from ledger import payments, statement_pages
from ledger.models import AccountKind, Source
from ledger.statements import statement_lines
from tests.factories import make_member


def game_money(club, game_id, seq, legs, deal):
    ref = f"game:{game_id}:event:{seq}"
    return ledger.post(club, legs, f"Kille #{game_id}: {deal}", Source.GAME, None, key=ref, ref=ref)


def evening(club, member):
    """Maja's money: a deposit, two Kille games with Bo (a deal of the first undone the next
    day), dues, and Bo settling with her by Swish."""
    own = ledger.member_account(member)
    bo = ledger.member_account(make_member(club, "Bo Al", login=False))
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    cash = ledger.system_account(club, AccountKind.CASH)
    with time_machine.travel("2026-03-04 19:00 +0100"):
        ledger.post(club, ledger.legs_for_transfer(cash, own, 10000), "Insättning", "manual", None)
    with time_machine.travel("2026-03-05 19:30 +0100"):
        game_money(club, 7, 1, [(own, -200), (bo, -200), (pot, 400)], "insats, Maja och Bo")
        wrong = game_money(club, 7, 2, [(pot, -400), (own, 400)], "Maja tar potten " + "x" * 150)
        game_money(club, 7, 3, [(own, -300), (bo, 300)], "Maja betalar Bo")
        game_money(club, 8, 1, [(own, -100), (pot, 100)], "insats, Maja")
    with time_machine.travel("2026-03-06 12:00 +0100"):
        ledger.reverse(wrong, "Ångrat", None, game_recording=True)
        dues = ledger.system_account(club, AccountKind.DUES_INCOME)
        ledger.post(club, ledger.legs_for_transfer(own, dues, 5000), "Avgift 2026", "dues", None)
        payments.record_settlement(club, bo.key, own.key, 1500, None)
    return own


@pytest.mark.books_by_hand
def test_a_game_is_one_line_with_its_net_and_its_deals(club, member):
    own = evening(club, member)
    lines = statement_lines(ledger.statement(own))
    titles = [(line.title, line.amount_ore, line.running_ore) for line in lines]
    assert titles == [
        ("Insättning", 10000, 10000),
        # −200 + 400 − 300 and the undo's −400, on the game's own line.
        ("Kille #7", -500, 9500),
        ("Kille #8", -100, 9400),
        ("Avgift 2026", -5000, 4400),
        ("Avräkning: Bo Al → Maja Medlem", -1500, 2900),
    ]
    first_game = lines[1]
    assert first_game.is_game
    assert first_game.game_id == 7
    assert [(d.text, d.amount_ore, d.is_reversal) for d in first_game.deals] == [
        ("insats, Maja och Bo", -200, False),
        ("Maja tar potten " + "x" * 150, 400, False),
        ("Maja betalar Bo", -300, False),
        ("Ångrat i spel #7", -400, True),  # rendered in the reader's language (scoring)
    ]
    assert str(first_game.date) == "2026-03-05"
    assert [line.source for line in lines[-2:]] == [Source.DUES, Source.SETTLEMENT]
    assert not lines[-1].is_game
    assert lines[-1].running_ore == ledger.statement(own).closing_ore


@pytest.mark.books_by_hand
def test_a_game_whose_only_entry_in_the_period_is_an_undo_is_named_by_the_deal_it_undid(
    club, member
):
    own = evening(club, member)
    stmt = ledger.statement(own, start=date(2026, 3, 6))
    lines = statement_lines(stmt)
    assert [line.title for line in lines][:2] == ["Kille #7", "Avgift 2026"]
    assert (lines[0].amount_ore, lines[0].running_ore) == (-400, stmt.opening_ore - 400)


@pytest.mark.books_by_hand
def test_the_page_shows_a_line_per_game_and_expands_to_its_deals(member_client, club, member):
    own = evening(club, member)
    page = member_client.get(reverse("ledger:account", args=[club.slug, own.pk]))
    html = page.content.decode()
    assert html.count('class="stmt-line stmt-game"') == 2
    assert html.count("<details>") == 2
    assert "Kille #7" in html
    assert "−5,00\u00a0kr" in html  # the first game's net
    assert "Maja tar potten " + "x" * 150 in html  # a deal's whole narrative, behind the tap
    assert reverse("scoring:game-detail", args=[club.slug, 7]) in html
    assert "Avgift 2026" in html
    assert "29,00\u00a0kr" in html  # the closing balance


@pytest.mark.books_by_hand
def test_the_page_makes_the_same_queries_however_many_lines(member_client, club, member):
    own = evening(club, member)
    url = reverse("ledger:account", args=[club.slug, own.pk])
    member_client.get(url)  # the session and the caches warm
    with CaptureQueriesContext(connection) as before:
        member_client.get(url)
    pot = ledger.pot_account(club, "pot:kille", "Killepotten")
    for game_id in range(20, 40):
        game_money(club, game_id, 1, [(own, -10), (pot, 10)], "insats")
        game_money(club, game_id, 2, [(own, 5), (pot, -5)], "tillbaka")
        ledger.post(club, ledger.legs_for_transfer(own, pot, 1), f"Gåva {game_id}", "manual", None)
    with CaptureQueriesContext(connection) as after:
        page = member_client.get(url)
    assert page.content.decode().count('class="stmt-line') == 5 + 20 + 20
    assert len(after) == len(before)


def shown(lines) -> list[tuple[str, int, int]]:
    return [(line.title, line.amount_ore, line.running_ore) for line in lines]


@pytest.mark.books_by_hand
def test_the_page_reads_the_same_lines_as_the_statement(club, member):
    own = evening(club, member)
    for start in (None, date(2026, 3, 5), date(2026, 3, 6)):
        page = statement_pages.statement_page(own, start=start)
        stmt = ledger.statement(own, start=start)
        assert shown(page.lines) == shown(statement_lines(stmt))
        assert [[d.text for d in line.deals] for line in page.lines] == [
            [d.text for d in line.deals] for line in statement_lines(stmt)
        ]
        assert (page.opening_ore, page.closing_ore) == (stmt.opening_ore, stmt.closing_ore)
        assert page.is_first
        assert page.is_last


@pytest.mark.books_by_hand
def test_a_long_statement_pages_back_from_the_latest_lines(club, member, monkeypatch):
    monkeypatch.setattr(statement_pages, "LINES_PER_PAGE", 2)
    own = evening(club, member)
    every = shown(statement_lines(ledger.statement(own)))  # five lines
    latest = statement_pages.statement_page(own)
    assert shown(latest.lines) == every[3:]
    assert (latest.is_last, latest.is_first) == (True, False)
    assert latest.brought_ore == every[2][2]
    assert latest.carried_ore == latest.closing_ore == every[-1][2]
    middle = statement_pages.statement_page(own, number=2)
    assert shown(middle.lines) == every[1:3]
    assert (middle.brought_ore, middle.carried_ore) == (every[0][2], every[2][2])
    first = statement_pages.statement_page(own, number=3)
    assert shown(first.lines) == every[:1]
    assert first.is_first
    assert first.brought_ore == first.opening_ore == 0
    assert shown(statement_pages.statement_page(own, number=99).lines) == every[:1]


@pytest.mark.books_by_hand
def test_the_page_links_to_older_lines_and_keeps_the_dates(
    member_client, club, member, monkeypatch
):
    monkeypatch.setattr(statement_pages, "LINES_PER_PAGE", 2)
    own = evening(club, member)
    url = reverse("ledger:account", args=[club.slug, own.pk])
    html = member_client.get(url, {"start": "2026-03-04", "end": "2026-03-31"}).content.decode()
    assert html.count('class="stmt-line') == 2
    assert "Avgift 2026" in html
    assert "Insättning" not in html
    assert 'href="?start=2026-03-04&amp;end=2026-03-31&amp;page=2"' in html
    assert 'data-testid="stmt-newer"' not in html
    assert "29,00\u00a0kr" in html  # the closing balance ends page 1
    older = member_client.get(url, {"page": "3"}).content.decode()
    assert "Insättning" in older
    assert "Avgift 2026" not in older
    assert 'data-testid="stmt-older"' not in older
    assert 'href="?page=2"' in older  # back to newer lines
    assert "Ingående saldo" in older
    assert member_client.get(url, {"page": "x"}).content.decode().count('class="stmt-line') == 2


def test_the_opening_balance_is_the_sum_before_the_day_read_from_either_side(club, member):
    """A statement's opening balance sums the entries before its first day — or, for a date
    late in the account's history, takes the entries from that day on off the cached balance."""
    own = ledger.member_account(member)
    cash = ledger.system_account(club, AccountKind.CASH)
    amounts = {}
    for day in range(1, 11):
        amounts[day] = 100 * day + 7
        ledger.post(
            club,
            ledger.legs_for_transfer(cash, own, amounts[day]),
            f"Dag {day}",
            "manual",
            None,
            date=date(2026, 3, day),
        )
    for day in range(0, 13):
        start = date(2026, 3, 1) + timedelta(days=day - 1)
        expected = sum(amount for d, amount in amounts.items() if d < day)
        with CaptureQueriesContext(connection) as queries:
            assert ledger.opening_balance(own, start) == expected, start
        late = day >= 6  # nearer the last entry than the first: the cached balance less the rest
        assert ('"balance_ore"' in queries[-1]["sql"]) == late, start
        assert ledger.balance(own, at=start) == expected + amounts.get(day, 0)
    assert (
        ledger.opening_balance(
            ledger.system_account(club, AccountKind.DUES_INCOME), date(2026, 4, 1)
        )
        == 0
    )
