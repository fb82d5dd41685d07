"""What the club's week forgets when a member is erased (``clubdata.erase``, in its
transaction).

- His +1 guests' names are cleared on every reply: a guest's name is someone else's name,
  recorded only because he brings that person, and it says who he keeps company with. Unlike
  a guest's name at a table (``Attendee.guest_name``, which has money and games of its own),
  a reply's guest has no record of its own, so nothing else needs it.
- His replies to evenings not yet held are withdrawn (the answer "not"): an erased member has
  left and will not come, and the seats he held go to the wait-list in order (promotion, and
  its mail, as for any cancellation). Replies to evenings held stay, by id only (they hold no
  name).
- His calendar link is deleted: its URL stops at once.
"""

from __future__ import annotations

import contextlib

from club.models import Member
from evenings.models import EveningStatus
from week import replies
from week.models import CalendarFeed, Reply, ReplyAnswer


def forget(member: Member) -> None:
    coming = Reply.objects.filter(member=member, evening__status=EveningStatus.PLANNED).exclude(
        answer=ReplyAnswer.NOT
    )
    for reply in coming.select_related("evening"):
        # An evening past its day refuses: nothing to free there.
        with contextlib.suppress(replies.ReplyRefused):
            replies.answer(reply.evening, member, ReplyAnswer.NOT, force=True)
    Reply.objects.filter(member=member).exclude(guest_name="").update(guest_name="")
    CalendarFeed.objects.filter(member=member).delete()
