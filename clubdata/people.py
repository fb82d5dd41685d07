"""People over the years: edit a member, mark one as left, bring him back.

- ``edit_member``: name (unique per club, whatever the case), Swish number, e-mail and roles
  (through ``club.members.set_roles``, so the ledger seals them). Everything goes through the
  model's ``save()``: members are sealed in the audit chain (``ledger.ownership``).
- ``leave`` / ``come_back``: ``active`` and ``left_at``. A member who left keeps his history,
  results, league lines and money; he is no longer offered at a table's start form or at an
  evening's check-in (both list ``Member.objects.active()``), and ``club_view`` no longer lets
  his login into the club. A non-zero balance does not stop him leaving: the edit page says
  what he owes or is owed and links the settle-up, and the balance stays on his account.
- A club always keeps an active admin. Every change that could take the last one away (a role
  taken, a leaving) first locks the club's row, then counts the active admins, so two admins
  demoting each other at the same moment take turns, and the second is refused.

Also the member CSV (``clubdata.csv_members``) and merging two people
(``clubdata.merge``) live beside this module.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import ledger
from club import members
from club.models import Club, Member, Role
from ledger.models import Account


def _lock_admins(club: Club) -> None:
    """Serialise changes of who is an admin at the club: the club's row is the lock (the books
    and the audit chain lock the same row, so a role change and its seal queue up together)."""
    Club.objects.select_for_update().get(pk=club.pk)


def _other_active_admins(member: Member) -> bool:
    return (
        Member.objects.for_club(member.club)
        .active()
        .filter(memberships__role=Role.ADMIN)
        .exclude(pk=member.pk)
        .exists()
    )


def _refuse_last_admin(member: Member, code: str) -> None:
    if not _other_active_admins(member):
        if code == "last_admin_leaves":
            message = _(
                "%(name)s is the club's only admin and cannot leave: make someone else an "
                "admin first."
            )
        else:
            message = _(
                "%(name)s is the club's only admin: make someone else an admin before taking "
                "the role away."
            )
        raise ValidationError(message % {"name": member.name}, code=code)


def check_name(club: Club, name: str, member: Member | None = None) -> str:
    """The name stripped, or ``ValidationError``: empty, or another member's (any case)."""
    name = name.strip()
    if not name:
        raise ValidationError(_("A member needs a name."), code="name_required")
    taken = Member.objects.for_club(club).filter(name__iexact=name)
    if member is not None:
        taken = taken.exclude(pk=member.pk)
    if taken.exists():
        raise ValidationError(
            _("%(name)s is already a member of this club.") % {"name": name}, code="duplicate"
        )
    return name


@transaction.atomic
def edit_member(
    member: Member,
    *,
    name: str,
    swish_number: str,
    email: str,
    roles: Iterable[str],
) -> Member:
    """Change a member's name, Swish number, e-mail and roles, or refuse (nothing changed)."""
    _lock_admins(member.club)
    member = Member.objects.select_related("club").get(pk=member.pk)
    name = check_name(member.club, name, member)
    wanted = {Role(r) for r in roles} | {Role.MEMBER}
    was_admin = member.memberships.filter(role=Role.ADMIN).exists()
    if was_admin and Role.ADMIN not in wanted and member.active:
        _refuse_last_admin(member, "last_admin")
    member.name = name
    member.swish_number = swish_number.strip()
    member.email = email.strip()
    member.save(update_fields=["name", "swish_number", "email"])
    members.set_roles(member, wanted)
    return member


@transaction.atomic
def leave(member: Member) -> Member:
    """Mark the member as having left the club today (his history stays)."""
    _lock_admins(member.club)
    member = Member.objects.select_related("club").get(pk=member.pk)
    if not member.active:
        return member
    if member.memberships.filter(role=Role.ADMIN).exists():
        _refuse_last_admin(member, "last_admin_leaves")
    member.active = False
    member.left_at = timezone.now()
    member.save(update_fields=["active", "left_at"])
    return member


@transaction.atomic
def come_back(member: Member) -> Member:
    """Bring back a member who left: he is offered at the tables again, his login works."""
    _lock_admins(member.club)
    member = Member.objects.select_related("club").get(pk=member.pk)
    if member.erased_at is not None:
        raise ValidationError(
            _("This member's data was erased; add the person again as a new member."),
            code="erased",
        )
    if member.active:
        return member
    member.active = True
    member.left_at = None
    member.save(update_fields=["active", "left_at"])
    return member


def balance_ore(member: Member) -> int:
    """The member's balance on his account (positive: the club owes him; 0 without one)."""
    return (
        Account.objects.filter(club_id=member.club_id, key=ledger.member_account_key(member.pk))
        .values_list("balance_ore", flat=True)
        .first()
        or 0
    )
