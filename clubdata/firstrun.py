"""The first-run guide: a new club's start page lists what a club does before its first evening,
until each step is done, then the list goes away by itself.

The steps, and when each counts as done (read from the club's data, never ticked by hand, so
the guide cannot drift from what the club has):

1. members in: the club has someone besides its founder;
2. opening balances: the books hold an opening transaction (``Source.OPENING``, the
   treasurer's "Opening balances" page, ``ledger:opening``), even one since reversed;
3. first season: the club has a season (made on the league settings page);
4. invite links sent: someone besides the founder has a login or an invite waiting;
5. first evening: the club has opened an evening.

It is a ``club.panels`` panel (``connect``, from ``ClubdataConfig.ready``), shown to admins
and treasurers, who set a club up; members see nothing and cost no query. For them it costs
two queries: one over the members (steps 1 and 4), one that asks the rest at once. A step links
to the page that does it when the viewer's role may use that page; the opening page is another
part of the app and is linked only once its URL exists.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Q
from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from club import panels
from club.models import Club, Member, Role, Season
from evenings.models import Evening, EveningStatus
from ledger.models import Source, Transaction

TEMPLATE = "clubdata/firstrun_panel.html"
# Before the balance and the pots (ledger 10, league 20): a new club has neither yet.
ORDER = 5


@dataclass(frozen=True)
class Step:
    key: str
    label: str
    done: bool
    url: str | None  # the page that does it, when the viewer may use it


def _url(name: str, club: Club) -> str | None:
    try:
        return reverse(name, args=[club.slug])
    except NoReverseMatch:  # a page of another part not built yet
        return None


def progress(club: Club) -> dict[str, bool]:
    """Which steps the club has done, by key."""
    people = Member.objects.for_club(club).aggregate(
        count=Count("pk"),
        reached=Count("pk", filter=Q(user__isnull=False) | ~Q(invite_token_hash="")),
    )
    rest = (
        Club.objects.filter(pk=club.pk)
        .values(
            opening=Exists(Transaction.objects.filter(club=OuterRef("pk"), source=Source.OPENING)),
            season=Exists(Season.objects.filter(club=OuterRef("pk"))),
            # An evening held (open or closed), not one merely planned ahead.
            evening=Exists(
                Evening.objects.filter(
                    club=OuterRef("pk"), status__in=[EveningStatus.OPEN, EveningStatus.CLOSED]
                )
            ),
        )
        .get()
    )
    return {
        "members": people["count"] > 1,
        "opening": rest["opening"],
        "season": rest["season"],
        # The founder has a login: one more means someone else was let in.
        "invites": people["reached"] > 1,
        "evening": rest["evening"],
    }


def steps(club: Club, member: Member) -> list[Step]:
    done = progress(club)
    admin = member.can(Role.ADMIN)
    members_url = _url("club:member-list", club) if admin else None
    return [
        Step("members", _("Add the club's members"), done["members"], members_url),
        Step(
            "opening",
            _("Enter the opening balances from the paper books"),
            done["opening"],
            _url("ledger:opening", club) if member.can(Role.TREASURER) else None,
        ),
        Step(
            "season",
            _("Make the first season"),
            done["season"],
            _url("league:settings", club) if admin else None,
        ),
        Step("invites", _("Send the members their invite links"), done["invites"], members_url),
        Step(
            "evening",
            _("Open the first club evening"),
            done["evening"],
            _url("evenings:list", club),
        ),
    ]


def panel(request: HttpRequest) -> dict:
    member = request.member
    if not (member.can(Role.ADMIN) or member.can(Role.TREASURER)):
        return {"firstrun": None}
    listed = steps(request.club, member)
    if all(step.done for step in listed):
        return {"firstrun": None}
    return {"firstrun": listed, "firstrun_left": sum(not step.done for step in listed)}


def connect() -> None:
    """Register the checklist panel on the club's start page."""
    panels.register(ORDER, TEMPLATE, panel)
