"""A member's secret calendar feed: ``/cal/<token>.ics``, no login, revocable.

Design
- The token is never stored. A member's ``CalendarFeed`` holds a random ``nonce`` and the
  SHA-256 of the token; the token is an HMAC of the nonce under the server's secret key
  (``salted_hmac``), so the member's own page can show his URL again while the database alone
  does not give it away. A new link is a new nonce: the old token's hash is gone and its URL
  answers 404 (as does any token that is not a current one).
- The feed lists the club's evenings from a month back, planned, open, closed and cancelled:
  one VEVENT each, its UID stable per evening (``evening-<id>@…``),
  DTSTART/DTEND aware (UTC), SEQUENCE the evening's ``calendar_sequence`` (bumped when it
  moves or its status changes, so a phone updates the event it holds), STATUS CANCELLED for a
  cancelled one, the member's own reply in the summary and the description, the club's name
  as the calendar's (X-WR-CALNAME), in the member's club's language.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from datetime import UTC, datetime, timedelta

import icalendar
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from club.models import Member
from evenings.models import Evening, EveningStatus
from week.models import CalendarFeed, Reply, ReplyAnswer
from week.planning import LOCAL

EVENING_LENGTH = timedelta(hours=4)  # DTEND: an evening's usual length
DEFAULT_START = (18, 30)  # an evening opened by hand, without a planned start
HISTORY_DAYS = 31
_SALT = "week.feed.calendar-token"


def _token(nonce: str) -> str:
    digest = salted_hmac(_SALT, nonce, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(member: Member) -> str:
    """Make the member a new calendar URL's token (the old one stops working)."""
    nonce = secrets.token_hex(16)
    token = _token(nonce)
    with transaction.atomic():
        CalendarFeed.objects.update_or_create(
            member=member,
            defaults={"nonce": nonce, "token_hash": _hash(token), "created_at": timezone.now()},
        )
    return token


def current_token(member: Member) -> str | None:
    """The member's current token, or None (none made, or the secret key changed since)."""
    feed = CalendarFeed.objects.filter(member=member).first()
    if feed is None:
        return None
    token = _token(feed.nonce)
    return token if _hash(token) == feed.token_hash else None


def member_for(token: str) -> Member | None:
    """The member whose current token this is (None: unknown, revoked or hostile)."""
    if not token or len(token) > 100 or not token.isascii():
        return None
    feed = (
        CalendarFeed.objects.select_related("member__club")
        .filter(token_hash=_hash(token), member__active=True)
        .first()
    )
    return feed.member if feed else None


# Closed ones too (the last month's): an event that vanished from the feed would vanish from
# the phone's calendar, as if the evening had never been.
_SHOWN = (EveningStatus.PLANNED, EveningStatus.OPEN, EveningStatus.CLOSED, EveningStatus.CANCELLED)


def _start(evening: Evening) -> datetime:
    if evening.starts_at is not None:
        return evening.starts_at.astimezone(LOCAL)
    hour, minute = DEFAULT_START
    return datetime(
        evening.date.year, evening.date.month, evening.date.day, hour, minute, tzinfo=LOCAL
    )


def _said(reply: Reply | None) -> str:
    if reply is None:
        return _("not answered")
    if reply.answer == ReplyAnswer.COMING and reply.waiting:
        return _("on the wait-list")
    if reply.answer == ReplyAnswer.COMING and reply.guest_name:
        return _("coming, +1 %(guest)s") % {"guest": reply.guest_name}
    return str(ReplyAnswer(reply.answer).label)


def calendar(member: Member, *, base_url: str) -> bytes:
    """The member's feed as iCalendar bytes."""
    club = member.club
    since = timezone.localdate() - timedelta(days=HISTORY_DAYS)
    evenings = list(
        Evening.objects.filter(club=club, date__gte=since, status__in=_SHOWN).order_by("date", "pk")
    )
    replies = {r.evening_id: r for r in Reply.objects.filter(member=member, evening__in=evenings)}
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Protokoll//club evenings//SV")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", club.name)
    cal.add("x-wr-timezone", "Europe/Stockholm")
    host = base_url.split("//", 1)[-1].split("/", 1)[0] or "protokoll"
    stamp = timezone.now()
    for evening in evenings:
        said = _said(replies.get(evening.pk))
        name = evening.title or _("Club evening")
        event = icalendar.Event()
        event.add("uid", f"evening-{evening.pk}@{host}")
        event.add("dtstamp", stamp)
        start = _start(evening).astimezone(UTC)
        event.add("dtstart", start)
        event.add("dtend", start + EVENING_LENGTH)
        event.add("sequence", evening.calendar_sequence)
        event.add("summary", f"{club.name}: {name} ({said})")
        description = [
            _("Your reply: %(said)s") % {"said": said},
            f"{base_url}/c/{club.slug}/week/evenings/{evening.pk}/",
        ]
        event.add("description", "\n".join(description))
        event.add("url", f"{base_url}/c/{club.slug}/week/evenings/{evening.pk}/")
        event.add(
            "status", "CANCELLED" if evening.status == EveningStatus.CANCELLED else "CONFIRMED"
        )
        cal.add_component(event)
    return cal.to_ical()


def language_of(member: Member) -> str:
    """The member's language for what is sent to him (his choice of mail), else the club's."""
    from notices.models import MailChoice

    chosen = MailChoice.objects.filter(member=member).values_list("language", flat=True).first()
    return chosen or settings.LANGUAGE_CODE
