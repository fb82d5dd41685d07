"""Who is here tonight: checking in members and guests, and the fee each pays once.

Design
- ``check_in(evening, member=…|guest_name=…)``: a member taps "I'm here" or the host ticks him
  (a guest by name). The fee is posted once per attendee and evening: the attendee row is
  unique, and so is the posting's ledger key ``evening:<id>:fee:<attendee>`` — twenty taps
  post one fee. Table money goes from the member's account to the club's treasury; an entry
  fee to the evening's prize pool (``prize_pool``: ``prizes:<evening>``, a pot, which the whist
  drive pays its prizes from). A guest pays cash at the door.
- ``check_in_many``: everyone the host ticked, all or none, under one lock of the club.
- Guests are people with money: a guest's account for the evening (``guest:<attendee>``,
  ``ledger.guest_account``) takes the guest's fee, stakes and winnings (scoring books a guest's
  seat at an evening table there: ``attendee_account``), so the board, the summary and
  tonight's settle-up see the guest as they see a member. A guest settles on the spot, in cash
  or by Swish.

- ``expected(evening)``: who said they would come (``register_expected``: the club's week,
  ``week``, registers its replies), so tonight's check-in offers them first, pre-ticked.

Relies on ``ledger`` (accounts and postings) and ``evenings.opening`` (the refusals).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

import ledger
from club.models import Club, Member, User
from evenings.models import Attendee, Evening, FeeKind
from evenings.opening import EveningError, require_open
from ledger.models import Account, AccountKind, Source, Transaction
from live import signals as live_signals


def check_in(
    evening: Evening,
    by: User | None,
    *,
    member: Member | None = None,
    guest_name: str = "",
) -> Attendee:
    """Mark someone as here and post the evening's fee once."""
    require_open(evening)
    guest_name = guest_name.strip()
    if (member is None) == (not guest_name):
        raise EveningError(_("Check in a member or a guest by name."), code="who")
    if member is not None and member.club_id != evening.club_id:
        raise EveningError(_("That member is not in this club."), code="who")
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=evening.club_id).first()
        found = Attendee.objects.filter(
            evening=evening, member=member, guest_name="" if member else guest_name
        ).first()
        attendee = found or Attendee.objects.create(
            evening=evening, member=member, guest_name="" if member else guest_name
        )
        if attendee.fee_id is None and evening.fee_ore > 0:
            attendee.fee = _post_fee(evening, attendee, by)
            attendee.save(update_fields=["fee"])
        live_signals.evening_changed(evening.pk)
    return attendee


def _post_fee(evening: Evening, attendee: Attendee, by: User | None) -> Transaction:
    club = evening.club
    payer = attendee_account(attendee)
    payee = (
        prize_pool(evening)
        if evening.fee_kind == FeeKind.ENTRY_FEE
        else ledger.system_account(club, AccountKind.TREASURY)
    )
    memo = _("Evening %(date)s: fee, %(name)s") % {"date": evening.date, "name": attendee.name}
    return ledger.post(
        club,
        [(payer, -evening.fee_ore), (payee, evening.fee_ore)],
        memo,
        Source.EVENING,
        by,
        date=evening.date,
        key=f"{evening.ref}:fee:{attendee.pk}",
        ref=f"{evening.ref}:fee:{attendee.pk}",
    )


def attendee_account(attendee: Attendee) -> Account:
    """Whose money: the member's account, or the guest's account for this evening."""
    if attendee.member_id:
        return ledger.member_account(attendee.member)
    return ledger.guest_account(attendee.evening.club, attendee.pk, attendee.guest_name)


def prize_pool(evening: Evening) -> Account:
    """The evening's pool of entry fees, paid out as prizes."""
    account, _created = Account.objects.get_or_create(
        club=evening.club,
        key=f"prizes:{evening.pk}",
        defaults={"kind": AccountKind.POT, "name": _("Prizes %(date)s") % {"date": evening.date}},
    )
    return account


def check_in_many(
    evening: Evening,
    by: User | None,
    *,
    members: Sequence[Member] = (),
    guest_names: Sequence[str] = (),
) -> list[Attendee]:
    """Check in everyone the host ticked, all or none: ``check_in`` for each member and guest
    (someone already here is found, not checked in twice; the fee is still posted once)."""
    require_open(evening)
    with transaction.atomic():
        # One lock for the whole list: a second submit waits, then finds everyone here.
        Club.objects.select_for_update().filter(pk=evening.club_id).first()
        attendees = [check_in(evening, by, member=m) for m in dict.fromkeys(members)]
        names = dict.fromkeys(name.strip() for name in guest_names if name.strip())
        attendees += [check_in(evening, by, guest_name=name) for name in names]
    return attendees


@dataclass(frozen=True)
class Expected:
    """Who said they would come tonight: members who said coming (and their +1 guests' names),
    then those who said maybe."""

    coming: tuple[int, ...] = ()
    maybe: tuple[int, ...] = ()
    guests: tuple[str, ...] = field(default=())


_EXPECTED: list[Callable[[Evening], Expected]] = []


def register_expected(source: Callable[[Evening], Expected]) -> None:
    """Add a source of who is expected (the club's week registers its replies); twice is
    harmless."""
    if source not in _EXPECTED:
        _EXPECTED.append(source)


def expected(evening: Evening) -> Expected:
    coming: dict[int, None] = {}
    maybe: dict[int, None] = {}
    guests: dict[str, None] = {}
    for source in _EXPECTED:
        found = source(evening)
        coming |= dict.fromkeys(found.coming)
        maybe |= dict.fromkeys(found.maybe)
        guests |= dict.fromkeys(found.guests)
    return Expected(tuple(coming), tuple(m for m in maybe if m not in coming), tuple(guests))
