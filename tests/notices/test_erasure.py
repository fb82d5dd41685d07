"""An erased member gets no mail, and the mail's rows hold no address of his."""

from __future__ import annotations

from django.core import mail

import notices
from clubdata import erase
from notices import outbox
from notices.models import MailChoice, OwedMail
from tests.notices.conftest import with_address


def test_an_erased_member_gets_no_mail_and_his_rows_keep_no_address(
    club, admin_member, plain_promotion
):
    anna = with_address(club, "Anna Ås", "anna@example.org")
    MailChoice.objects.create(member=anna, language="en")
    notices.queue("promotion", 1, [anna.pk])  # owed before the erasure, not yet sent
    erase.erase_member(anna, admin_member)
    assert outbox.sweep() == 0
    assert mail.outbox == []
    row = OwedMail.objects.get(member=anna)
    assert (row.status, row.last_error) == ("dropped", "erased")
    assert notices.queue("promotion", 2, [anna.pk]) == 0
    for model in (OwedMail, MailChoice):
        for instance in model.objects.filter(member=anna):
            values = [str(getattr(instance, f.attname)) for f in model._meta.concrete_fields]
            assert not any("anna" in v.lower() or "Ås" in v for v in values)
