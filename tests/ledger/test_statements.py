"""``ledger.statements`` and the statement page: a line per game with its net and its deals behind
a tap, a line per payment and dues; the running balance over the lines."""

from __future__ import annotations

from datetime import date

import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import payments
from ledger import services as ledger
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


def test_a_game_whose_only_entry_in_the_period_is_an_undo_is_named_by_the_deal_it_undid(
    club, member
):
    own = evening(club, member)
    stmt = ledger.statement(own, start=date(2026, 3, 6))
    lines = statement_lines(stmt)
    assert [line.title for line in lines][:2] == ["Kille #7", "Avgift 2026"]
    assert (lines[0].amount_ore, lines[0].running_ore) == (-400, stmt.opening_ore - 400)


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
