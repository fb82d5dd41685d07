"""The accounts people and the club hold: each member's, a guest's for one evening, and the
club's system accounts (treasury, cash, dues income, expenses, opening equity).

An account is found by its key, unique per club, and opened on first use
(``get_or_create``), so a caller never asks whether it exists: ``member:<id>`` for a member
(``ledger.hooks`` opens it as the member is added), ``guest:<attendee>`` for a guest at a club
evening (``evenings`` names the attendee), the kind's value (``cash``, ``treasury`` …) for a
system account. Pots and betar are ``ledger.pots``'. An account is closed only when empty
(``close_account``, under the club's lock, as postings take it); postings to a closed account
are refused (``ledger.postings``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from club.models import Club, Member, User
from ledger.models import SYSTEM_LABELS, Account, AccountKind
from ledger.postings import LedgerError


def member_account_key(member_id: int) -> str:
    return f"member:{member_id}"


def member_account(member: Member) -> Account:
    account, _created = Account.objects.get_or_create(
        club_id=member.club_id,
        key=member_account_key(member.pk),
        defaults={"kind": AccountKind.MEMBER, "name": member.name, "member": member},
    )
    return account


def system_account(club: Club, kind: str) -> Account:
    """The club's one treasury, cash, dues income or expenses account."""
    kind = AccountKind(kind)
    if kind not in SYSTEM_LABELS:
        raise ValueError(f"{kind} is not a system account kind")
    account, _created = Account.objects.get_or_create(
        club=club, key=kind.value, defaults={"kind": kind, "name": str(SYSTEM_LABELS[kind])}
    )
    return account


def guest_account_key(attendee_id: int) -> str:
    return f"guest:{attendee_id}"


def guest_account(club: Club, attendee_id: int, name: str) -> Account:
    """A guest's account for one club evening (``evenings`` names the attendee): the guest's
    stakes, winnings and fee meet here, so the board and tonight's settle-up see them."""
    account, _created = Account.objects.get_or_create(
        club=club,
        key=guest_account_key(attendee_id),
        defaults={"kind": AccountKind.GUEST, "name": name[:100]},
    )
    return account


@transaction.atomic
def close_account(account: Account, by: User | None = None) -> None:
    Club.objects.select_for_update().get(pk=account.club_id)
    account.refresh_from_db()
    if account.balance_ore != 0:
        raise LedgerError(
            _("%(account)s still holds money and cannot be closed.") % {"account": account},
            code="not_empty",
        )
    account.closed_at = timezone.now()
    account.save(update_fields=["closed_at"])
