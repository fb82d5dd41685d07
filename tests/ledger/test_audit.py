"""The audit trail in ``ledger.audit``: a keyed chain that someone with write access to the
database cannot recompute, a head that ``check_ledger`` prints and finds again
(``--expect``), the daily log line, and the upgrade that re-seals an existing chain.

``forge`` plays the attacker: after editing rows, they refresh every record from the rows and
re-chain it all, with any key but the real one."""

from __future__ import annotations

import hashlib
import hmac
import importlib
import itertools
import json
import logging
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings
from django.utils import timezone

import ledger
from ledger import audit
from ledger.models import Account, AccountKind, AuditRecord, Entry, Source, Transaction
from ledger.tasks import log_audit_heads_task
from tests.factories import make_club, make_member, make_user

REAL_KEY = "the-clubs-real-audit-key-kept-in-the-environment-0123456789"
GUESSES = {
    "no key": "",
    "a guessed key": "hjarter-dam",
    "the development key": "protokoll-development-audit-key-only-for-debug",
}


@pytest.fixture(autouse=True)
def audit_key(settings):
    settings.AUDIT_KEY = REAL_KEY


@pytest.fixture
def books(club, treasurer):
    cash = ledger.system_account(club, AccountKind.CASH)
    anna = ledger.member_account(make_member(club, "Anna"))
    bo = ledger.member_account(make_member(club, "Bo"))
    by = treasurer.user
    first = ledger.post(
        club, ledger.legs_for_transfer(cash, anna, 5000), "Insättning", "manual", by
    )
    second = ledger.post(club, ledger.legs_for_transfer(anna, bo, 1200), "Lån", "manual", by)
    return {"cash": cash, "anna": anna, "bo": bo, "by": by, "first": first, "second": second}


def seq_of(tx) -> int:
    """The number of a transaction's record in its club's chain."""
    return AuditRecord.objects.get(transaction=tx).seq


def normalised(data: dict) -> dict:
    return json.loads(json.dumps(data))


def forge(club, key: str, refresh=None) -> None:
    """Recompute the club's chain as an attacker can: every record's data from the rows as they
    are now (``refresh`` for other apps' records), numbers closed up, sealed with ``key``."""
    prev = ledger.GENESIS
    for seq, record in enumerate(AuditRecord.objects.filter(club=club).order_by("seq"), start=1):
        if record.transaction_id:
            record.data = normalised(audit._transaction_content(record.transaction))
        elif record.period_id:
            record.data = normalised(audit._period_content(record.period))
        elif refresh is not None:
            record.data = normalised(refresh(record))
        record.seq, record.prev_digest = seq, prev
        with override_settings(AUDIT_KEY=key):
            record.digest = prev = audit._seal(record)
        record.save()


def check_ledger(*args: str, club=None) -> tuple[bool, str, str]:
    """Whether ``manage.py check_ledger`` passes, and what it printed and complained."""
    out, err = StringIO(), StringIO()
    options = {"club": club.slug} if club else {}
    try:
        call_command("check_ledger", *args, stdout=out, stderr=err, **options)
    except CommandError as error:
        return False, out.getvalue(), err.getvalue() + str(error)
    return True, out.getvalue(), err.getvalue()


def printed_head(out: str, club) -> str:
    line = next(line for line in out.splitlines() if line.startswith(f"{club.slug}: audit head"))
    return line.split()[3]


def test_an_untouched_club_passes_and_check_ledger_prints_its_head(club, books):
    ok, out, err = check_ledger()
    assert ok, err
    head = ledger.audit_head(club)
    assert head.seq == seq_of(books["second"])  # the newest record
    assert f"{club.slug}: audit head {head.digest} (record {head.seq})" in out
    assert f"all clubs: audit head {ledger.overall_head({club.pk: head})} (1 club)" in out


def test_each_record_is_an_hmac_with_the_audit_key_over_the_previous_digest(club, books):
    records = list(AuditRecord.objects.filter(club=club).order_by("seq"))
    assert records[0].prev_digest == ledger.GENESIS
    assert all(
        later.prev_digest == earlier.digest for earlier, later in itertools.pairwise(records)
    )
    first, second = (r for r in records if r.transaction_id)
    assert second.prev_digest == first.digest  # nothing sealed between the two postings
    assert second.subject == f"transaction:{books['second'].pk}"
    assert second.data["created_by"] == books["by"].pk
    today = timezone.localdate().isoformat()
    assert second.data["entries"] == sorted(
        [[books["anna"].pk, -1200, today], [books["bo"].pk, 1200, today]]
    )
    body = {
        "club": club.pk,
        "seq": second.seq,
        "action": "post",
        "subject": second.subject,
        "transaction": books["second"].pk,
        "period": None,
        "by": books["by"].pk,
        "at": ledger.audit_time(second.at),
        "data": second.data,
    }
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    message = first.digest.encode() + b"\n" + canonical
    assert second.digest == hmac.new(REAL_KEY.encode(), message, hashlib.sha256).hexdigest()


def _edit_amount(books):
    Entry.objects.filter(transaction=books["first"], amount_ore=5000).update(amount_ore=50000)
    Entry.objects.filter(transaction=books["first"], amount_ore=-5000).update(amount_ore=-50000)
    Account.objects.filter(pk=books["anna"].pk).update(balance_ore=50000 - 1200)
    Account.objects.filter(pk=books["cash"].pk).update(balance_ore=-50000)


def _edit_author(books):
    Transaction.objects.filter(pk=books["second"].pk).update(created_by=make_user("someone"))


def _edit_time(books):
    earlier = books["second"].created_at - timedelta(days=3)
    Transaction.objects.filter(pk=books["second"].pk).update(created_at=earlier)


EDITS = {"an amount": _edit_amount, "who posted": _edit_author, "when": _edit_time}


@pytest.mark.books_tampered
@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
def test_an_edit_shows_where_it_was_made(club, books, edit):
    edit(books)
    ok, _out, err = check_ledger()
    assert not ok
    assert "content changed since it was recorded" in err


@pytest.mark.parametrize("key", GUESSES.values(), ids=GUESSES.keys())
@pytest.mark.parametrize("edit", EDITS.values(), ids=EDITS.keys())
def test_an_edit_is_caught_even_after_the_chain_is_recomputed_without_the_key(
    club, books, edit, key
):
    edit(books)
    forge(club, key)
    assert ledger.verify_balances(club) == []  # the attacker kept the balances in step

    ok, _out, err = check_ledger()
    assert not ok
    assert f"{club.slug}: record 1: its seal does not match" in err
    assert f"{club.slug}: record 2: its seal does not match" in err
    # With the real key, the same recomputation would pass: the key is all that stops it.
    forge(club, REAL_KEY)
    assert check_ledger()[0]


def test_the_newest_transaction_deleted_with_its_record_is_caught_by_the_saved_head(club, books):
    _ok, out, _err = check_ledger()
    saved = printed_head(out, club)
    # Someone deletes the newest posting, its entries and its record, and mends the balances.
    newest = books["second"]
    AuditRecord.objects.filter(transaction=newest).delete()
    Entry.objects.filter(transaction=newest).delete()
    Transaction.objects.filter(pk=newest.pk).delete()
    Account.objects.filter(pk=books["anna"].pk).update(balance_ore=5000)
    Account.objects.filter(pk=books["bo"].pk).update(balance_ore=0)

    assert check_ledger()[0]  # what the chain alone cannot see…
    ok, _out, err = check_ledger("--expect", saved)
    assert not ok  # …the head kept outside the database does
    assert f"{saved}: the expected head is not in the audit trail" in err


def test_a_saved_head_is_found_again_after_later_postings(club, books):
    _ok, out, _err = check_ledger()
    saved = printed_head(out, club)
    ok, out, err = check_ledger("--expect", saved.upper(), club=club)
    assert ok, err
    assert (
        f"{club.slug}: the expected head is record {seq_of(books['second'])}, still the newest"
        in out
    )

    ledger.post(
        club, ledger.legs_for_transfer(books["bo"], books["cash"], 200), "Kaffe", "manual", None
    )
    ok, out, err = check_ledger("--expect", saved)
    assert ok, err
    saved_seq = seq_of(books["second"])
    assert f"{club.slug}: the expected head is record {saved_seq}, 1 record(s) added since" in out


def test_the_overall_head_stands_for_every_club(club, books, other_club):
    _ok, out, _err = check_ledger()
    overall = next(line for line in out.splitlines() if line.startswith("all clubs:")).split()[4]
    assert "(2 clubs)" in out
    ok, out, _err = check_ledger("--expect", overall)
    assert ok
    assert f"{overall}: the expected head, unchanged" in out

    cash = ledger.system_account(other_club, AccountKind.CASH)
    pot = ledger.pot_account(other_club, "box", "Lådan")
    ledger.post(other_club, ledger.legs_for_transfer(cash, pot, 100), "In", "manual", None)
    assert not check_ledger("--expect", overall)[0]


@pytest.mark.parametrize("value", ["abc", "g" * 64, "", "0" * 63])
def test_expect_refuses_what_is_not_a_digest(club, books, value):
    with pytest.raises(CommandError, match="is not a digest"):
        call_command("check_ledger", "--expect", value, stdout=StringIO(), stderr=StringIO())


@pytest.mark.books_tampered
def test_another_apps_record_is_sealed_and_chained_like_the_books(club, books):
    previous = ledger.audit_head(club)
    record = ledger.append_audit(
        club,
        AuditRecord.Action.EVENT,
        None,
        timezone.now(),
        subject="game:7:event:1",
        data={"seq": (1, 2)},
    )
    assert (record.seq, record.prev_digest) == (previous.seq + 1, previous.digest)
    assert list(ledger.audit_records(club, AuditRecord.Action.EVENT)) == [
        (record.seq, "game:7:event:1", {"seq": [1, 2]})
    ]
    assert ledger.verify_audit(club) == []

    AuditRecord.objects.filter(pk=record.pk).update(data={"seq": [1, 3]})
    assert ledger.verify_audit(club) == [
        f"record {record.seq}: its seal does not match: the record was changed, or sealed "
        "without the audit key"
    ]


@pytest.mark.books_tampered
def test_a_closing_is_covered_too(club, books):
    today = timezone.localdate()
    period = ledger.close_period(
        club, "Förra året", today - timedelta(days=400), today - timedelta(days=40), None
    )
    assert ledger.verify_audit(club) == []
    period.name = "Något annat"
    period.save()
    seq = AuditRecord.objects.get(period=period).seq
    assert ledger.verify_audit(club) == [
        f"record {seq}: period {period.pk}: content changed since it was recorded (name)"
    ]


def test_the_daily_task_logs_each_clubs_head(club, books, other_club, caplog, settings):
    assert settings.CELERY_BEAT_SCHEDULE["log-audit-heads"]["task"] == (
        "ledger.tasks.log_audit_heads_task"
    )
    with caplog.at_level(logging.INFO, logger="protokoll.audit"):
        heads = log_audit_heads_task.delay().get()
    head, other = ledger.audit_head(club), ledger.audit_head(other_club)
    assert heads == {str(club.pk): head.digest, str(other_club.pk): other.digest}
    lines = [r.getMessage() for r in caplog.records if r.name == "protokoll.audit"]
    assert lines == [
        f"{club.slug}: audit head {head.digest} after {head.seq} records",
        f"{other_club.slug}: audit head {other.digest} after {other.seq} records",
    ]


# --- upgrading -----------------------------------------------------------------------------

KEYED = [("club", "0007_auditrecord_prev_digest"), ("scoring", "0003_audit_events")]
UNKEYED = [("club", "0005_exportjob"), ("scoring", "0002_game_start_key")]


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


def migrate_to_now() -> None:
    """Forward to today's schema (the books in their own app), where the models work again."""
    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def model_at(targets, app_label: str, name: str):
    """A model as it was at ``targets`` (its table then was club_*)."""
    return (
        MigrationExecutor(connection).loader.project_state(targets).apps.get_model(app_label, name)
    )


@pytest.fixture
def back_to_the_unkeyed_chain(transactional_db):
    """The schema and chain before this release (club 0005: reversing 0006 chains the records
    the old, unkeyed way); always migrated forward again afterwards."""
    yield lambda: migrate(UNKEYED)
    migrate_to_now()


@pytest.mark.books_tampered
def test_upgrading_reseals_a_chain_that_verifies_the_old_way(back_to_the_unkeyed_chain):
    club = make_club()
    treasurer = make_member(club, "Kassören")
    cash = ledger.system_account(club, AccountKind.CASH)
    pot = ledger.pot_account(club, "box", "Lådan")
    tx = ledger.post(club, ledger.legs_for_transfer(cash, pot, 700), "In", Source.MANUAL, None)
    ledger.reverse(tx, "Fel", treasurer.user)
    before, posted = ledger.audit_head(club), seq_of(tx)

    back_to_the_unkeyed_chain()
    migrate(KEYED)
    migrate_to_now()

    after = ledger.audit_head(club)
    # The postings keep their numbers; the seals of owners and roles, which the old schema
    # could not hold, are made again at the end (ledger.0005).
    assert seq_of(tx) == posted
    assert after.seq > before.seq
    assert ledger.verify_audit(club) == []
    # Sealed with the key now: an edit, recomputed without it, shows.
    Entry.objects.filter(transaction=tx, amount_ore=700).update(amount_ore=7000)
    Entry.objects.filter(transaction=tx, amount_ore=-700).update(amount_ore=-7000)
    forge(club, "")
    assert ledger.verify_audit(club)


@pytest.mark.books_tampered
def test_upgrading_refuses_to_reseal_a_chain_that_was_edited(back_to_the_unkeyed_chain):
    club = make_club()
    cash = ledger.system_account(club, AccountKind.CASH)
    pot = ledger.pot_account(club, "box", "Lådan")
    tx = ledger.post(club, ledger.legs_for_transfer(cash, pot, 700), "In", Source.MANUAL, None)
    back_to_the_unkeyed_chain()
    old_transaction = model_at(UNKEYED, "club", "Transaction")
    old_transaction.objects.filter(pk=tx.pk).update(memo="Något annat")

    with pytest.raises(RuntimeError, match="does not verify, so it is not re-sealed"):
        migrate(KEYED)
    old_transaction.objects.filter(pk=tx.pk).update(memo="In")


def test_the_migration_seals_like_the_ledger():
    """The migration keeps a frozen copy of the seal: the same record, the same digest."""
    migration = importlib.import_module("club.migrations.0006_auditrecord_keyed")
    record = AuditRecord(
        club_id=1,
        seq=4,
        action="post",
        subject="transaction:9",
        transaction_id=9,
        by_id=3,
        at=timezone.now(),
        data={"memo": "Å", "entries": [[1, -5, "2026-01-01"]]},
        prev_digest="ab" * 32,
    )
    assert migration._seal(record, record.prev_digest) == audit._seal(record)
