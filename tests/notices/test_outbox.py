"""The outbox: written once in the caller's transaction, sent after it, never lost, never
raised into the page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

import notices
from notices import outbox
from notices.models import MailChoice, OwedMail, OwedStatus
from tests.concurrency import at_once, postgres_only
from tests.notices.conftest import with_address


def _queue(members, object_id=7, kind="promotion"):
    return notices.queue(kind, object_id, [m.pk for m in members])


def test_a_queue_writes_one_row_per_member_with_an_address_and_sends_after_the_commit(
    mailed, plain_promotion, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        assert _queue(mailed) == 3
        assert mail.outbox == []
    assert sorted(m.to[0] for m in mail.outbox) == [
        "anna@example.org",
        "bo@example.org",
        "cilla@example.org",
    ]
    assert set(OwedMail.objects.values_list("status", flat=True)) == {OwedStatus.SENT}


def test_a_second_queue_writes_nothing_and_sends_nothing_twice(
    mailed, plain_promotion, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert _queue(mailed) == 3
    with django_capture_on_commit_callbacks(execute=True):
        assert _queue(mailed) == 0
        assert _queue(mailed, object_id=8) == 3
    assert OwedMail.objects.count() == 6
    assert len(mail.outbox) == 6


def test_a_member_who_turned_the_kind_off_is_not_queued(mailed, plain_promotion):
    MailChoice.objects.create(member=mailed[0], promotion=False)
    assert _queue(mailed) == 2
    assert _queue(mailed, kind="report") == 3


def test_an_unknown_kind_is_refused(mailed):
    with pytest.raises(ValueError, match="unknown kind"):
        notices.queue("spam", 1, [mailed[0].pk])


def test_a_failing_server_neither_breaks_the_caller_nor_loses_the_mail(
    mailed, plain_promotion, raising_mailer, settings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        _queue(mailed)
    rows = OwedMail.objects.order_by("member_id")
    # Eager: the first failure stops the batch, so a dead server costs the page one timeout.
    assert [(r.status, r.attempts) for r in rows] == [("owed", 1), ("owed", 0), ("owed", 0)]
    assert "the mail server is away" in rows[0].last_error
    assert rows[0].due_at > timezone.now()

    # The server is back: the sweep sends everything, once.
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
    assert outbox.sweep(timezone.now() + timedelta(hours=1)) == 3
    assert outbox.sweep(timezone.now() + timedelta(hours=1)) == 0
    assert len(mail.outbox) == 3


def test_a_mail_that_keeps_failing_is_failed_after_the_last_attempt(
    mailed, plain_promotion, raising_mailer
):
    _queue(mailed[:1])
    later = timezone.now()
    for _attempt in range(outbox.MAX_ATTEMPTS):
        later += timedelta(days=1)
        outbox.sweep(later)
    row = OwedMail.objects.get()
    assert (row.status, row.attempts) == (OwedStatus.FAILED, outbox.MAX_ATTEMPTS)
    assert outbox.failed_for(row.club) == [row]
    assert outbox.sweep(later + timedelta(days=1)) == 0


def test_the_back_off_grows_and_is_bounded():
    waits = [outbox.backoff(n) for n in range(1, 12)]
    assert waits == sorted(waits)
    assert waits[0] == timedelta(minutes=2)
    assert waits[-1] == timedelta(hours=4)


def test_a_member_who_turns_the_kind_off_after_the_queue_gets_nothing(mailed, plain_promotion):
    _queue(mailed[:2])
    outbox.turn_off(mailed[0], "promotion")
    assert outbox.sweep() == 1
    assert [m.to for m in mail.outbox] == [["bo@example.org"]]
    assert OwedMail.objects.get(member=mailed[0]).status == OwedStatus.DROPPED


def test_a_claimed_row_is_not_sent_by_another(mailed, plain_promotion):
    _queue(mailed[:1])
    row = OwedMail.objects.get()
    assert outbox._claim(row.pk, timezone.now())
    # Another sender that listed the row before the claim finds it taken.
    assert outbox.send_one(row.pk, None) == outbox.TAKEN
    assert outbox.sweep() == 0
    # The claim runs out (a sender that died): the row is due again.
    assert outbox.sweep(timezone.now() + outbox.CLAIM + timedelta(seconds=1)) == 1


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_racing_send_each_row_once(club, plain_promotion):
    postgres_only()
    members = [with_address(club, f"P{n}", f"p{n}@example.org") for n in range(12)]
    notices.queue("promotion", 1, [m.pk for m in members])
    # The after-commit send ran already (autocommit): make them owed again, as if the broker
    # had been away.
    mail.outbox.clear()
    OwedMail.objects.update(status=OwedStatus.OWED, attempts=0, sent_at=None, due_at=timezone.now())
    sent = at_once(lambda _n: outbox.sweep(), range(4))
    assert sum(sent) == 12
    assert len(mail.outbox) == 12
    assert len({m.to[0] for m in mail.outbox}) == 12


def test_the_command_sends_what_is_owed(mailed, plain_promotion):
    from io import StringIO

    from django.core.management import call_command

    _queue(mailed)  # no commit in a test: owed, not sent
    out = StringIO()
    call_command("send_owed_mail", stdout=out)
    assert out.getvalue().strip() == "3 sent"
    assert len(mail.outbox) == 3
