"""The week's mails (week/mails.py): the invitation, the reminder and the promotion, each in
both languages; the reminders queued once for tomorrow's evenings."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest
from django.core import mail
from django.utils import timezone

import notices
from evenings.models import Evening, EveningStatus
from notices import outbox
from notices.models import MailChoice, OwedMail
from tests.notices.conftest import with_address
from week import mails
from week.models import Reply, ReplyAnswer

THURSDAY = date(2026, 12, 3)


@pytest.fixture
def planned(club):
    starts = timezone.make_aware(datetime.combine(THURSDAY, time(18, 30)))
    return Evening.objects.create(
        club=club,
        date=THURSDAY,
        status=EveningStatus.PLANNED,
        starts_at=starts,
        cap=12,
        title="Julkille",
        games=["kille"],
    )


@pytest.fixture
def eva(club):
    return with_address(club, "Eva Al", "eva@example.org")


def _sent(kind, evening, member, language="sv"):
    MailChoice.objects.update_or_create(member=member, defaults={"language": language})
    notices.queue(kind, evening.pk, [member.pk])
    outbox.send_owed(kind, evening.pk)
    (message,) = mail.outbox
    return message, message.alternatives[0][0]


def test_the_invitation_in_swedish_says_when_and_where_to_answer(planned, eva):
    message, html = _sent("invitation", planned, eva)
    assert message.subject == "Kortklubben Spader Kung: klubbkväll torsdag 3 december 2026"
    url = f"http://127.0.0.1:8000/c/{planned.club.slug}/week/evenings/{planned.pk}/"
    for body in (message.body, html):
        assert "Torsdag 3 december 2026 kl. 18:30" in body
        assert "Julkille" in body
        assert "Spel: Kille" in body
        assert "12 platser" in body
        assert url in body


def test_the_invitation_in_english(planned, eva):
    message, html = _sent("invitation", planned, eva, "en")
    assert message.subject == "Kortklubben Spader Kung: club evening Thursday 3 December 2026"
    for body in (message.body, html):
        assert "Thursday 3 December 2026 at 18:30" in body
        assert "Games: Kille" in body
        assert "12 seats" in body


@pytest.mark.parametrize(
    ("answer", "guest", "waiting", "sv", "en"),
    [
        (
            "coming",
            "Greta",
            False,
            "Du sa att du kommer, med Greta.",
            "You said you are coming, with Greta.",
        ),
        ("maybe", "", False, "Du sa kanske.", "You said maybe."),
        (
            "coming",
            "",
            True,
            "Du sa att du kommer, och du står på väntelistan.",
            "You said you are coming, and you are on the wait-list.",
        ),
    ],
)
def test_the_reminder_says_what_the_member_said(planned, eva, answer, guest, waiting, sv, en):
    Reply.objects.create(
        evening=planned, member=eva, answer=answer, guest_name=guest, waiting=waiting
    )
    message, html = _sent("reminder", planned, eva)
    assert message.subject.startswith("Kortklubben Spader Kung i morgon:")
    assert sv in message.body
    assert sv in html
    OwedMail.objects.all().delete()
    mail.outbox.clear()
    message, html = _sent("reminder", planned, eva, "en")
    assert en in message.body
    assert en in html


def test_the_promotion_says_a_seat_is_his(planned, eva):
    Reply.objects.create(evening=planned, member=eva, answer="coming", guest_name="Greta")
    message, html = _sent("promotion", planned, eva, "en")
    assert message.subject == "Kortklubben Spader Kung: a seat is yours on Thursday 3 December 2026"
    assert "so you and Greta are coming" in message.body
    assert "so you and Greta are coming" in html
    OwedMail.objects.all().delete()
    mail.outbox.clear()
    message, html = _sent("promotion", planned, eva, "sv")
    assert message.subject == "Kortklubben Spader Kung: en plats är din torsdag 3 december 2026"
    assert "så du och Greta kommer" in message.body


def test_a_mail_no_longer_true_is_dropped_not_sent(planned, eva):
    Reply.objects.create(evening=planned, member=eva, answer="coming", waiting=True)
    notices.queue("promotion", planned.pk, [eva.pk])
    outbox.send_owed("promotion", planned.pk)
    assert mail.outbox == []
    assert OwedMail.objects.get().status == "dropped"


def test_reminders_go_once_to_coming_and_maybe_for_tomorrow_only(
    club, planned, eva, django_capture_on_commit_callbacks
):
    bo = with_address(club, "Bo Ek", "bo@example.org")
    cilla = with_address(club, "Cilla Ros", "cilla@example.org")
    Reply.objects.create(evening=planned, member=eva, answer=ReplyAnswer.COMING)
    Reply.objects.create(evening=planned, member=bo, answer=ReplyAnswer.MAYBE)
    Reply.objects.create(evening=planned, member=cilla, answer=ReplyAnswer.NOT)
    # Wednesday 2 December, 23:30 in Stockholm is 22:30 UTC: tomorrow is the 3rd.
    wednesday_night = datetime(2026, 12, 2, 22, 30, tzinfo=UTC)
    assert mails.queue_reminders(datetime(2026, 12, 1, 12, 0, tzinfo=UTC)) == 0
    with django_capture_on_commit_callbacks(execute=True):
        assert mails.queue_reminders(wednesday_night) == 2
        assert mails.queue_reminders(wednesday_night) == 0
    assert sorted(m.to[0] for m in mail.outbox) == ["bo@example.org", "eva@example.org"]
    # Thursday 00:30 in Stockholm (23:30 UTC on the 2nd): tomorrow is the 4th, nothing.
    assert mails.queue_reminders(datetime(2026, 12, 2, 23, 30, tzinfo=UTC)) == 0


@pytest.mark.parametrize("language", ["sv", "en"])
@pytest.mark.parametrize("kind", ["invitation", "reminder", "promotion"])
def test_the_week_s_mails_speak_one_language(planned, eva, kind, language):
    from tests.test_languages import VisibleText, _problems

    Reply.objects.create(evening=planned, member=eva, answer="coming", guest_name="Greta")
    message, html = _sent(kind, planned, eva, language)
    visible = VisibleText(language)
    visible.feed(html)
    for text in (message.subject, message.body, visible.text()):
        assert _problems(text, language) == [], text
