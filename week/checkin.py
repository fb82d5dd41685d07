"""Tonight's check-in starts from the replies (registered with
``evenings.attendance.register_expected`` in ``WeekConfig.ready``): the members who said coming,
seated ones (and their +1 guests), then those who said maybe or are still on the wait-list."""

from __future__ import annotations

from evenings.attendance import Expected
from evenings.models import Evening
from week.models import Reply, ReplyAnswer


def expected(evening: Evening) -> Expected:
    replies = Reply.objects.filter(
        evening=evening, answer__in=[ReplyAnswer.COMING, ReplyAnswer.MAYBE]
    ).order_by("queued_at", "pk")
    coming, maybe, guests = [], [], []
    for reply in replies:
        if reply.answer == ReplyAnswer.COMING and not reply.waiting:
            coming.append(reply.member_id)
            if reply.guest_name:
                guests.append(reply.guest_name)
        else:
            maybe.append(reply.member_id)
    return Expected(tuple(coming), tuple(maybe), tuple(guests))
