"""Names and memos stored in the club's language when money moved read in the reader's language
(docs/game-terms.md): a dues charge ("Medlemsavgift 2026" → "Membership fee 2026"), an evening's
prize pool ("Priser 2026-11-27" → "Prizes 2026-11-27")."""

from __future__ import annotations

from datetime import date

import pytest
from django.utils import translation

import evenings
import ledger
from ledger import dues
from ledger.models import DuesPlan, Source, Transaction


@pytest.fixture
def yearly(club):
    return dues.save_plan(club, 30000, DuesPlan.Interval.YEARLY, active=True)


def test_a_dues_charge_stored_in_swedish_reads_in_english(club, member, yearly):
    dues.charge_dues(club, today=date(2026, 3, 1))
    account = ledger.member_account(member)
    tx = Transaction.objects.get(club=club, source=Source.DUES, entries__account=account)
    assert tx.memo == "Medlemsavgift 2026"  # stored in the club's language
    with translation.override("en"):
        ledger.describe([tx])
    assert tx.memo == "Membership fee 2026"
    with translation.override("en"):
        statement = ledger.statement(account)
    assert [row.entry.transaction.memo for row in statement.rows] == ["Membership fee 2026"]


def test_an_evenings_prize_pool_reads_in_the_readers_language(club):
    with translation.override("sv"):
        evening = evenings.open_evening(club, None)
        pool = evenings.prize_pool(evening)
    assert pool.name.startswith("Priser ")
    with translation.override("en"):
        assert pool.label == f"Prizes {evening.date.isoformat()}"
        assert str(pool) == pool.label
    with translation.override("sv"):
        assert pool.label == f"Priser {evening.date.isoformat()}"
