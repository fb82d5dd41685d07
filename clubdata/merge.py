"""Merge two people into one: a guest into the member he became, or a duplicate member.

What moves, in one database transaction under the club's lock (``merge``):

- seats (``scoring.Seat``): the member is set, the guest's name cleared; the seat's
  ``attendee`` stays (it says who sat there among that evening's attendees);
- league results (``league.GameResult``): the member is set; the league is told the kind's
  results changed from the first moved one (``league.intake.results_reassigned``: written
  down in this transaction, rebuilt after commit);
- evening attendances (``evenings.Attendee``): the member is set. Two attendances at one
  evening cannot become one member's two (``evenings_attendee_once``): such a merge is refused
  and the evenings are named;
- money: the duplicate's member account and the guest's evening accounts (``guest:<attendee>``)
  that hold anything are emptied into the kept member's account by ONE ledger transaction
  (``Source.MERGE``, key ``merge:<submission>``, memo "X merged into Y"); the duplicate's
  account is then closed at zero;
- the duplicate is marked as left (his name stays, so old statements still read), his roles
  join the kept member's, and his login passes to the kept member if that one has none.

Refused (nothing changed): a game still open or an evening still open with the person in it
(its money is still moving), the two in the same game or at the same evening, a member
merged into himself or into someone who left.

The books. A game's money was posted to the account its seat named then (the duplicate's,
the guest's evening account, or the cash box for a guest outside an evening), and the game
money check (``scoring.audit.check_game_money``) maps each seat to an account by what the seat
names now. So the merge seals, in the club's audit chain, one record (action ``seal``, subject
``merge:<submission>``) listing every seat it moved, the account its money was posted to, and
the member it belongs to now; the check maps such a seat to the recorded account and asserts
the seat still names the recorded member. The money itself follows by the merge's own
transaction. A seat changed behind the app's back has no such record and still shows, and so
does a merged seat changed again afterwards. The record is also the one-time key: a second
merge with the same submission finds it and does nothing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

import league
import ledger
from club import members as club_members
from club.models import Club, Member, User
from evenings.models import Attendee
from league.models import GameResult
from ledger.models import Account, AuditRecord, Source, Transaction
from scoring import audit, recording
from scoring.models import GameStatus, Seat

MERGE_SUBJECT = audit.MERGE_SUBJECT  # the merge records' subjects: "merge:<submission>"


@dataclass(frozen=True)
class Guest:
    """A name that sat at the club's tables or came to its evenings as a guest."""

    name: str
    games: int
    evenings: int


def guests(club: Club) -> list[Guest]:
    """The club's guests by name, with how many games and evenings: three queries."""
    games = dict(
        Seat.objects.filter(game__club=club, member__isnull=True)
        .values_list("guest_name")
        .annotate(n=Count("game", distinct=True))
        .order_by()
    )
    evenings = dict(
        Attendee.objects.filter(evening__club=club, member__isnull=True)
        .values_list("guest_name")
        .annotate(n=Count("pk"))
        .order_by()
    )
    results = set(
        GameResult.objects.filter(club=club, member__isnull=True)
        .exclude(guest_name="")
        .values_list("guest_name", flat=True)
    )
    names = sorted(set(games) | set(evenings) | results, key=str.casefold)
    return [Guest(name, games.get(name, 0), evenings.get(name, 0)) for name in names if name]


@dataclass
class Plan:
    """What a merge moves, as the confirm page states it and ``merge`` does it."""

    into: Member
    duplicate: Member | None = None
    guest_name: str = ""
    seats: list[Seat] = field(default_factory=list)
    results: list[GameResult] = field(default_factory=list)
    attendees: list[Attendee] = field(default_factory=list)
    # The accounts whose money moves to the kept member's, each with its balance.
    money: list[tuple[Account, int]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)

    @property
    def who(self) -> str:
        return self.duplicate.name if self.duplicate else self.guest_name

    @property
    def money_ore(self) -> int:
        return sum(amount for _account, amount in self.money)

    @property
    def is_empty(self) -> bool:
        return not (self.seats or self.results or self.attendees or self.money)


def plan(club: Club, into: Member, *, duplicate: Member | None = None, guest: str = "") -> Plan:
    """What merging the duplicate member (or the guest by name) into ``into`` would move, and
    why it would be refused, if it would."""
    found = Plan(into=into, duplicate=duplicate, guest_name=guest.strip())
    if duplicate is not None:
        seats = Seat.objects.filter(game__club=club, member=duplicate)
        results = GameResult.objects.filter(club=club, member=duplicate)
        attendees = Attendee.objects.filter(evening__club=club, member=duplicate)
    else:
        seats = Seat.objects.filter(game__club=club, member__isnull=True, guest_name=guest)
        results = GameResult.objects.filter(club=club, member__isnull=True, guest_name=guest)
        attendees = Attendee.objects.filter(evening__club=club, member__isnull=True)
        attendees = attendees.filter(guest_name=guest)
    found.seats = list(seats.select_related("game", "game__table").order_by("game_id", "position"))
    found.results = list(results.order_by("finished_at", "pk"))
    found.attendees = list(attendees.select_related("evening").order_by("evening__date"))
    keys = [ledger.guest_account_key(a.pk) for a in found.attendees]
    if duplicate is not None:
        keys.append(ledger.member_account_key(duplicate.pk))
    found.money = [
        (account, account.balance_ore)
        for account in Account.objects.filter(club=club, key__in=keys).order_by("pk")
        if account.balance_ore
    ]
    found.refusals = _refusals(club, found)
    return found


def _refusals(club: Club, found: Plan) -> list[str]:
    into, refusals = found.into, []
    if into.club_id != club.pk or not into.active:
        refusals.append(_("Merge into an active member of this club."))
    if found.duplicate is not None and found.duplicate.pk == into.pk:
        refusals.append(_("A member cannot be merged into himself."))
    if found.duplicate is None and not found.guest_name:
        refusals.append(_("Choose the guest or the member to merge."))
    if found.is_empty and not refusals:
        refusals.append(_("%(who)s has nothing to merge.") % {"who": found.who})
    open_games = sorted({s.game_id for s in found.seats if s.game.status == GameStatus.OPEN})
    if open_games:
        refusals.append(
            _("Finish or void the open games first (%(games)s): their money is still moving.")
            % {"games": ", ".join(f"#{pk}" for pk in open_games)}
        )
    open_evenings = sorted({str(a.evening.date) for a in found.attendees if a.evening.is_open})
    if open_evenings:
        refusals.append(
            _("Close the evening first (%(dates)s): its money is still moving.")
            % {"dates": ", ".join(open_evenings)}
        )
    games = {s.game_id for s in found.seats}
    both = Seat.objects.filter(game_id__in=games, member=into).values_list("game_id", flat=True)
    if both:
        refusals.append(
            _(
                "%(into)s and %(who)s played in the same game (%(games)s): one person cannot hold "
                "two seats."
            )
            % {"into": into.name, "who": found.who, "games": ", ".join(f"#{g}" for g in both)}
        )
    evenings = {a.evening_id for a in found.attendees}
    both_came = Attendee.objects.filter(evening_id__in=evenings, member=into).select_related(
        "evening"
    )
    if both_came:
        refusals.append(
            _(
                "%(into)s and %(who)s both came to the evening of %(dates)s: one person cannot "
                "come twice."
            )
            % {
                "into": into.name,
                "who": found.who,
                "dates": ", ".join(sorted(str(a.evening.date) for a in both_came)),
            }
        )
    return refusals


def merged_already(club: Club, submission: str) -> bool:
    return AuditRecord.objects.filter(
        club=club, action=AuditRecord.Action.SEAL, subject=MERGE_SUBJECT + submission
    ).exists()


def merge(
    club: Club,
    into: Member,
    *,
    submission: str,
    by: User | None,
    duplicate: Member | None = None,
    guest: str = "",
) -> Plan | None:
    """Merge the duplicate (or the guest) into ``into``: everything at once, or
    ``ValidationError`` and nothing changed. ``None``: this submission was merged already."""
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        if merged_already(club, submission):
            return None
        into = Member.objects.select_related("club").get(pk=into.pk)
        if duplicate is not None:
            duplicate = Member.objects.select_related("club", "user").get(pk=duplicate.pk)
        found = plan(club, into, duplicate=duplicate, guest=guest)
        if found.refusals:
            raise ValidationError(found.refusals, code="refused")
        seats = _move_seats(club, found)
        _move_results(club, found)
        for attendee in found.attendees:
            attendee.member, attendee.guest_name = into, ""
            attendee.save(update_fields=["member", "guest_name"])
        tx = _move_money(club, found, submission, by)
        if duplicate is not None:
            _retire(duplicate, into)
        ledger.append_audit(
            club,
            AuditRecord.Action.SEAL,
            by,
            timezone.now(),
            subject=MERGE_SUBJECT + submission,
            data={
                "into": into.pk,
                "member": duplicate.pk if duplicate else None,
                "guest": found.guest_name if duplicate is None else "",
                "transaction": tx.pk if tx else None,
                "seats": seats,
                "results": [r.pk for r in found.results],
                "attendees": [a.pk for a in found.attendees],
            },
        )
    return found


def _move_seats(club: Club, found: Plan) -> list[dict]:
    """Each seat to the kept member; what the merge record says of it: the account its money
    was posted to (as the game money check maps it now, earlier merges included)."""
    posted = audit.merged_seats(club)
    moved = []
    by_game: dict[int, dict[str, Seat]] = defaultdict(dict)
    for seat in Seat.objects.filter(game_id__in={s.game_id for s in found.seats}):
        by_game[seat.game_id][seat.key] = seat
    for seat in found.seats:
        account = posted.get((seat.game_id, seat.position), (None, None))[0] or (
            recording.account_key(seat.game, seat.key, by_game[seat.game_id])
        )
        seat.member, seat.guest_name = found.into, ""
        seat.save(update_fields=["member", "guest_name"])
        moved.append(
            {
                "game": seat.game_id,
                "position": seat.position,
                "posted_to": account,
                "member": found.into.pk,
            }
        )
    return moved


def _move_results(club: Club, found: Plan) -> None:
    changed: dict[str, list] = defaultdict(list)
    for result in found.results:
        result.member, result.guest_name = found.into, ""
        result.save(update_fields=["member", "guest_name"])
        changed[result.game_key].append(result.finished_at)
    for game_key, moments in sorted(changed.items()):
        league.results_reassigned(club, game_key, min(moments))


def _move_money(club: Club, found: Plan, submission: str, by: User | None) -> Transaction | None:
    if not found.money:
        return None
    legs = [(account, -amount) for account, amount in found.money]
    if found.money_ore:
        legs.append((ledger.member_account(found.into), found.money_ore))
    memo = _("%(who)s merged into %(into)s") % {"who": found.who, "into": found.into.name}
    key = MERGE_SUBJECT + submission
    return ledger.post(club, legs, memo, Source.MERGE, by, key=key, ref=key)


def _retire(duplicate: Member, into: Member) -> None:
    """The duplicate leaves (his name stays, so old statements read as they did); his roles
    join the kept member's, his login passes to the kept member if that one has none, and his
    emptied account is closed."""
    club_members.set_roles(into, into.roles | duplicate.roles)
    user = duplicate.user
    duplicate.active = False
    duplicate.left_at = timezone.now()
    duplicate.user = None
    duplicate.save(update_fields=["active", "left_at", "user"])
    if user is not None and into.user_id is None:
        into.user = user
        into.save(update_fields=["user"])
    account = Account.objects.filter(
        club=duplicate.club, key=ledger.member_account_key(duplicate.pk), closed_at__isnull=True
    ).first()
    if account is not None:
        ledger.close_account(account)
