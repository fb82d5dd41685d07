"""The memos of a game's money on statements and exports (``scoring.messages.describe_game_money``
through ``ledger.describe``): what the event did with today's names, members' and
guests', "undo" for a reversal, two queries for any number of transactions and games."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

import ledger
from ledger.models import Transaction
from scoring import recording


@pytest.fixture
def games(toy, club, scorer, member):
    """Two toy games: the scorer and a guest, then the scorer and the member."""
    first = recording.start_game(club, "toy", [scorer, "Gästen Gunnar"], scorer.user)
    second = recording.start_game(club, "toy", [scorer, member], scorer.user)
    return first, second


def record(game, type_, payload):
    game.refresh_from_db()
    return recording.append_event(
        game, type_, payload, expected_seq=game.seq, idempotency_key=f"k{game.seq}", by=None
    )


def fresh(*events) -> list[Transaction]:
    """The events' transactions as a page reads them, memos as stored."""
    return [Transaction.objects.get(pk=event.money_id) for event in events]


def test_memos_name_the_players_as_they_are_called_today(games, scorer, member):
    first, second = games
    a = record(first, "stake", {"player": "s1", "amount": 200}).event
    b = record(second, "stake", {"player": "s0", "amount": 300}).event
    c = record(second, "stake", {"player": "s1", "amount": 100}).event
    member.name = "Maja Nytt-Namn"
    member.save(update_fields=["name"])
    txs = fresh(a, b, c)
    with CaptureQueriesContext(connection) as queries, translation.override("sv"):
        ledger.describe(txs)
    assert len(queries) == 2
    assert [tx.memo for tx in txs] == [
        f"Toy #{first.pk}: Gästen Gunnar stakes 2,00\u00a0kr",
        f"Toy #{second.pk}: Sune Skrivare stakes 3,00\u00a0kr",
        f"Toy #{second.pk}: Maja Nytt-Namn stakes 1,00\u00a0kr",
    ]


def test_a_reversal_reads_as_the_undo_and_needs_no_event(games):
    first, _second = games
    stake = record(first, "stake", {"player": "s0", "amount": 200}).event
    record(first, recording.UNDO, {})
    reversal = Transaction.objects.get(reverses_id=stake.money_id)
    with CaptureQueriesContext(connection) as queries, translation.override("sv"):
        ledger.describe([reversal])
    assert len(queries) == 0
    assert reversal.memo == f"Ångrat i spel #{first.pk}"


def test_money_that_is_no_games_keeps_its_memo(club, member):
    own = ledger.member_account(member)
    cash = ledger.system_account(club, "cash")
    tx = ledger.post(club, ledger.legs_for_transfer(cash, own, 500), "Insättning", "manual", None)
    with CaptureQueriesContext(connection) as queries:
        ledger.describe([tx])
    assert len(queries) == 0
    assert tx.memo == "Insättning"
