"""A database connection terminated in the middle of a tap (the server restarted, a proxy cut
it): the tap is recorded whole or not at all, and the phone's retry with the same idempotency
key records it once. PostgreSQL: ``pg_terminate_backend`` from another connection while the
tap's transaction has written its event but not yet committed."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, connections

import ledger
from ledger.models import AuditRecord, Transaction
from scoring import recording
from scoring.models import Event
from scoring.recording import turns
from tests.concurrency import postgres_only
from tests.factories import make_club, make_member

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_tap_cut_off_mid_transaction_is_recorded_once_on_the_retry(monkeypatch):
    postgres_only()
    club = make_club()
    players = [make_member(club, name) for name in ("Anna", "Bo", "Cissi")]
    game = recording.start_game(club, "kille", players, None, setup={"pot_ore": 0})
    before = (Transaction.objects.count(), AuditRecord.objects.count())
    inside, cut = threading.Event(), threading.Event()
    pid: list[int] = []
    sealed = turns._audit_event

    def pause_before_sealing(*args, **kwargs):
        # The event and its money are written; the transaction is still open.
        if threading.current_thread().name == "tap":
            pid.append(connection.connection.info.backend_pid)
            inside.set()
            cut.wait(timeout=30)
        return sealed(*args, **kwargs)

    monkeypatch.setattr(turns, "_audit_event", pause_before_sealing)
    errors: list[BaseException] = []

    def tap() -> None:
        try:
            recording.append_event(
                game, "ante", {}, expected_seq=0, idempotency_key="the-ante", by=None
            )
        except BaseException as error:  # noqa: BLE001 - looked at below
            errors.append(error)
        finally:
            connections.close_all()

    thread = threading.Thread(target=tap, name="tap")
    thread.start()
    assert inside.wait(timeout=30)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid[0]])
    cut.set()
    thread.join(timeout=30)

    assert len(errors) == 1  # the phone got an error…
    assert isinstance(errors[0], OperationalError)
    assert Event.objects.filter(game=game).count() == 0  # …and nothing half-written stayed
    assert (Transaction.objects.count(), AuditRecord.objects.count()) == before

    for _retry in range(2):  # the phone sends the same tap again (and once more)
        recording.append_event(
            game, "ante", {}, expected_seq=0, idempotency_key="the-ante", by=None
        )
    assert Event.objects.filter(game=game).count() == 1
    assert Transaction.objects.filter(ref=f"{game.ref}:event:1").count() == 1
    assert ledger.verify_books(club) == []
